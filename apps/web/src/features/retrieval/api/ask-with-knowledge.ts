import { useMutation } from "@tanstack/react-query";
import { testQueryResponseSchema } from "@sage/contracts/retrieval";
import { apiRequest } from "@/lib/api-client";

/** The vector-augmented test: the model answers from the user's knowledge base. */
export const askWithKnowledge = (query: string) => apiRequest("/api/test/gemini/query", { method: "POST", body: { query }, schema: testQueryResponseSchema });

export const useAskWithKnowledge = () => useMutation({ mutationFn: askWithKnowledge });
