import { useQuery } from "@tanstack/react-query";
import { elicitationAnswerSchema, elicitationAnsweredSchema, type ElicitationAnswer } from "@sage/contracts/elicitation";
import {
  getPromptRequestSchema,
  getPromptResponseSchema,
  readResourceRequestSchema,
  readResourceResponseSchema,
  toolPromptsResponseSchema,
  toolResourcesResponseSchema,
  type ResourceRef,
} from "@sage/contracts/external-tools";
import { apiRequest, getJson } from "@/lib/api-client";

/** GET /api/tools/resources: what the user's tool servers offer to attach (read while the picker is open). */
export const useToolResources = (enabled: boolean) =>
  useQuery({
    queryKey: ["tool-offers", "resources"],
    queryFn: () => getJson("/api/tools/resources", toolResourcesResponseSchema),
    enabled,
    // A subscribed resource that changed says so while the picker stays open.
    refetchInterval: enabled ? 10_000 : false,
  });

/** POST /api/tools/resources/read: one resource's content (a link in a result, a resource before it is attached). */
export const readToolResource = (ref: ResourceRef) =>
  apiRequest("/api/tools/resources/read", { method: "POST", body: readResourceRequestSchema.parse(ref), schema: readResourceResponseSchema });

/** GET /api/tools/prompts: the servers' prompts for the composer's "/" (read once the user types "/"). */
export const useToolPrompts = (enabled: boolean) =>
  useQuery({ queryKey: ["tool-offers", "prompts"], queryFn: () => getJson("/api/tools/prompts", toolPromptsResponseSchema), enabled, staleTime: 30_000 });

/** POST /api/tools/prompts/get: the prompt filled with its arguments, as the message's text. */
export const getToolPrompt = (request: { serverId: string; name: string; arguments: Record<string, string> }) =>
  apiRequest("/api/tools/prompts/get", { method: "POST", body: getPromptRequestSchema.parse(request), schema: getPromptResponseSchema });

/** POST /api/elicitations/{id}: the user's answer to a tool server's question. */
export const answerElicitation = (elicitationId: string, answer: ElicitationAnswer) =>
  apiRequest(`/api/elicitations/${encodeURIComponent(elicitationId)}`, {
    method: "POST",
    body: elicitationAnswerSchema.parse(answer),
    schema: elicitationAnsweredSchema,
  });
