import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createdShareSchema, fileShareListSchema, type FileShare } from "@sage/contracts/shares";
import { apiRequest, getJson } from "@/lib/api-client";

export const shareKeys = { all: ["file-shares"] as const };

/** The user's live shared links (GET /api/shares); the links themselves are known only when made. */
export const sharesQueryOptions = () =>
  queryOptions({ queryKey: shareKeys.all, queryFn: async (): Promise<FileShare[]> => (await getJson("/api/shares", fileShareListSchema)) ?? [] });

export const useShares = () => useQuery(sharesQueryOptions());

export function useShareFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fileId: number) => apiRequest(`/api/files/${fileId}/share`, { method: "POST", body: {}, schema: createdShareSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareKeys.all }),
  });
}

export function useStopSharing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (shareId: number) => apiRequest(`/api/shares/${shareId}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareKeys.all }),
  });
}

/** "Sun 13 Dec", in the browser's zone. */
export const shareDay = (iso: string) =>
  new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short" }).format(new Date(iso)).replace(",", "");
