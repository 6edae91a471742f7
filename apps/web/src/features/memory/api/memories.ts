import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { memoryListSchema, memorySchema, memorySettingsSchema, type Memory, type MemorySettings } from "@sage/contracts/memories";
import { apiRequest, getJson } from "@/lib/api-client";

export const memoriesQueryKey = ["memories"] as const;
export const memorySettingsQueryKey = ["memory-settings"] as const;

export function useMemories() {
  return useQuery({ queryKey: memoriesQueryKey, queryFn: async (): Promise<Memory[]> => (await getJson("/api/memories", memoryListSchema)) ?? [] });
}

export function useMemorySettings() {
  return useQuery({
    queryKey: memorySettingsQueryKey,
    queryFn: async (): Promise<MemorySettings> => (await getJson("/api/memory-settings", memorySettingsSchema)) ?? { enabled: true },
  });
}

/** Add, edit, delete and the switch; each refreshes the list (or the switch) once it is done. */
export function useMemoryActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: memoriesQueryKey });
  return {
    add: useMutation({
      mutationFn: (content: string) => apiRequest("/api/memories", { method: "POST", body: { content }, schema: memorySchema }),
      onSuccess: refresh,
    }),
    edit: useMutation({
      mutationFn: ({ id, content }: { id: number; content: string }) =>
        apiRequest(`/api/memories/${id}`, { method: "PATCH", body: { content }, schema: memorySchema }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: number) => apiRequest(`/api/memories/${id}`, { method: "DELETE" }),
      onSuccess: refresh,
    }),
    setEnabled: useMutation({
      mutationFn: (enabled: boolean) => apiRequest("/api/memory-settings", { method: "PUT", body: { enabled }, schema: memorySettingsSchema }),
      onSuccess: (settings) => queryClient.setQueryData(memorySettingsQueryKey, settings),
    }),
  };
}
