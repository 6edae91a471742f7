import { queryOptions, useQuery } from "@tanstack/react-query";
import { assistantSettingsSchema, type AssistantSettings } from "@sage/contracts/assistant";
import { getJson } from "@/lib/api-client";

export const assistantSettingsQueryKey = ["assistant-settings"] as const;

export const getAssistantSettings = (): Promise<AssistantSettings | null> => getJson("/api/assistant/settings", assistantSettingsSchema);

export const assistantSettingsQueryOptions = () => queryOptions({ queryKey: assistantSettingsQueryKey, queryFn: getAssistantSettings });

export const useAssistantSettings = () => useQuery(assistantSettingsQueryOptions());
