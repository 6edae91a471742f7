import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { assistantSettingsSchema, testConnectionResponseSchema, type AssistantSettings } from "@sage/contracts/assistant";
import { apiRequest, getJson } from "@/lib/api-client";

export const assistantSettingsQueryKey = ["assistant-settings"] as const;

export const getAssistantSettings = (): Promise<AssistantSettings | null> => getJson("/api/assistant/settings", assistantSettingsSchema);

export const assistantSettingsQueryOptions = () => queryOptions({ queryKey: assistantSettingsQueryKey, queryFn: getAssistantSettings });

export const useAssistantSettings = () => useQuery(assistantSettingsQueryOptions());

export const useTestConnection = () =>
  useMutation({ mutationFn: () => apiRequest("/api/assistant/test-connection", { method: "POST", body: {}, schema: testConnectionResponseSchema }) });
