import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  addRemoteServerRequestSchema,
  externalToolsResponseSchema,
  remoteServerSchema,
  type AddRemoteServerRequest,
  type ExternalToolsResponse,
  type ToolSettingRequest,
} from "@sage/contracts/external-tools";
import { apiRequest, getJson } from "@/lib/api-client";
import { pollEvery } from "@/lib/poll-every";

export const externalToolsQueryKey = ["external-tools"] as const;

/** GET /api/tools: the configured servers, their state and tools, with this user's choices. */
export const useExternalTools = () =>
  useQuery({
    queryKey: externalToolsQueryKey,
    queryFn: () => getJson("/api/tools", externalToolsResponseSchema),
    // A server still starting shows up connected (or failed) a moment later; one waiting for a sign-in, once signed in.
    refetchInterval: (query) =>
      query.state.data?.servers.some((server) => server.state === "starting")
        ? pollEvery(2_000)
        : query.state.data?.servers.some((server) => server.state === "sign-in-needed")
          ? pollEvery(5_000)
          : false,
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

const refreshTools = (queryClient: ReturnType<typeof useQueryClient>) => queryClient.invalidateQueries({ queryKey: externalToolsQueryKey });

/** POST /api/tools/servers: a remote server added by URL; the answer says connected, sign-in-needed or error. */
export function useAddServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: AddRemoteServerRequest) =>
      apiRequest("/api/tools/servers", { method: "POST", body: addRemoteServerRequestSchema.parse(request), schema: remoteServerSchema }),
    onSettled: () => refreshTools(queryClient),
  });
}

/** DELETE /api/tools/servers/{id}: removes a server the user added (its sign-in is revoked). */
export function useRemoveServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (serverId: string) => apiRequest(`/api/tools/servers/${encodeURIComponent(serverId)}`, { method: "DELETE" }),
    onSettled: () => refreshTools(queryClient),
  });
}

/** PATCH /api/tools/servers/{id}: whether the user trusts what the server says about its tools. */
export function useTrustServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ serverId, trusted }: { serverId: string; trusted: boolean }) =>
      apiRequest(`/api/tools/servers/${encodeURIComponent(serverId)}`, { method: "PATCH", body: { trusted } }),
    onSettled: () => refreshTools(queryClient),
  });
}
