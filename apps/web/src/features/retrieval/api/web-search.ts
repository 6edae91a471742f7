import { useMutation } from "@tanstack/react-query";
import { webSearchResponseSchema } from "@sage/contracts/assistant";
import { apiRequest } from "@/lib/api-client";

/** A web search through the model; the path keeps the first provider's name but serves every provider. */
export const webSearch = (query: string) => apiRequest("/api/gemini/web-search", { method: "POST", body: { query }, schema: webSearchResponseSchema });

export const useWebSearch = () => useMutation({ mutationFn: webSearch });
