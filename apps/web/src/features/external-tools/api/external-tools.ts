import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { externalToolsResponseSchema, type ExternalToolsResponse, type ToolSettingRequest } from "@sage/contracts/external-tools";
import { apiRequest, getJson } from "@/lib/api-client";

export const externalToolsQueryKey = ["external-tools"] as const;

/** GET /api/tools: the configured servers, their state and tools, with this user's choices. */
export const useExternalTools = () =>
  useQuery({
    queryKey: externalToolsQueryKey,
    queryFn: () => getJson("/api/tools", externalToolsResponseSchema),
    // A server still starting shows up connected (or failed) a moment later.
    refetchInterval: (query) => (query.state.data?.servers.some((server) => server.state === "starting") ? 2_000 : false),
  });

/** PATCH /api/tools/settings: one tool's Enabled / Ask before running for this user. */
export function useSaveToolSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ToolSettingRequest) => apiRequest("/api/tools/settings", { method: "PATCH", body: change, schema: externalToolsResponseSchema }),
    onSuccess: (data: ExternalToolsResponse) =>
      queryClient.setQueryData(externalToolsQueryKey, (old: ExternalToolsResponse | null | undefined) => ({ ...data, error: old?.error })),
  });
}
