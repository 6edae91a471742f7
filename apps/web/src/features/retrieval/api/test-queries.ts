import { useMutation } from "@tanstack/react-query";
import { z } from "zod";
import { testQueryResponseSchema } from "@sage/contracts/retrieval";
import { apiRequest } from "@/lib/api-client";

export const askWithKnowledge = (query: string) =>
  apiRequest("/api/test/gemini/query", { method: "POST", body: { query }, schema: testQueryResponseSchema.partial() });

const webSearchResponseSchema = z.object({ response: z.string().optional(), groundingData: z.string().optional(), message: z.string().optional() }).passthrough();

export const webSearch = (query: string) => apiRequest("/api/gemini/web-search", { method: "POST", body: { query }, schema: webSearchResponseSchema });

export const useAskWithKnowledge = () => useMutation({ mutationFn: askWithKnowledge });
export const useWebSearch = () => useMutation({ mutationFn: webSearch });
