import { useMutation } from "@tanstack/react-query";
import { testConnectionResponseSchema } from "@sage/contracts/assistant";
import { apiRequest } from "@/lib/api-client";

/** One tiny model call, to check the configured provider answers. */
export const testConnection = () => apiRequest("/api/assistant/test-connection", { method: "POST", body: {}, schema: testConnectionResponseSchema });

export const useTestConnection = () => useMutation({ mutationFn: testConnection });
