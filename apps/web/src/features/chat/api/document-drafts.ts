import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { documentDraftSchema, draftExportSchema, saveDraftRequestSchema, type SaveDraftRequest } from "@sage/contracts/documents-out";
import { apiRequest, getJson } from "@/lib/api-client";

export const draftQueryKey = (id: number) => ["document-drafts", id] as const;

/** GET /api/document-drafts/{id}: a document's Markdown draft, while its canvas is open. */
export function useDocumentDraft(id: number, enabled: boolean) {
  return useQuery({
    queryKey: draftQueryKey(id),
    queryFn: () => getJson(`/api/document-drafts/${id}`, documentDraftSchema),
    enabled,
    retry: false,
    // Read afresh each time the canvas opens (SAGE may have revised it since), never while it is open: the editor
    // keeps what the user typed, and a save over a newer version is refused by the server instead.
    staleTime: 0,
    refetchOnWindowFocus: false,
  });
}

/** PUT the user's edit; then, for Export, POST .../export (the file written from the saved text). */
export function useDraftActions(id: number) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (input: SaveDraftRequest) =>
      apiRequest(`/api/document-drafts/${id}`, { method: "PUT", body: saveDraftRequestSchema.parse(input), schema: documentDraftSchema }),
    onSuccess: (draft) => queryClient.setQueryData(draftQueryKey(id), draft),
  });
  const exportDraft = useMutation({
    mutationFn: () => apiRequest(`/api/document-drafts/${id}/export`, { method: "POST", schema: draftExportSchema }),
    onSuccess: ({ draft }) => {
      queryClient.setQueryData(draftQueryKey(id), draft);
      void queryClient.invalidateQueries({ queryKey: ["knowledge"] });
    },
  });
  return { save, exportDraft };
}
