import { queryOptions, useQuery } from "@tanstack/react-query";
import { EXPORT_DEFAULT_FILENAME, importResponseSchema, resetResponseSchema, revectorizeResponseSchema, vectorStatusSchema } from "@sage/contracts/retrieval";
import { importPreviewSchema, knowledgeSnapshotListSchema, snapshotRestoreResponseSchema } from "@sage/contracts/backup";
import { apiFetch, apiRequest, getJson } from "@/lib/api-client";
import { pollEvery } from "@/lib/poll-every";

export const vectorStatusQueryOptions = () =>
  queryOptions({
    queryKey: ["vectors", "status"] as const,
    queryFn: () => getJson("/api/vectors/status", vectorStatusSchema),
    // Poll while a re-vectorize or background vectorisation runs so its progress shows, and while new passages
    // still wait for their vectors (an upload's come a moment after its text is read).
    refetchInterval: (query) => {
      const data = query.state.data;
      if (isRunning(data?.job) || isRunning(data?.catchUp)) return pollEvery(1000);
      return data && !data.embedder.lexicalOnly && data.vectorized < data.chunks ? pollEvery(2000) : false;
    },
  });

/** A vector job still under way (queued or processing). */
export function isRunning(job: { status: string } | null | undefined): boolean {
  return !!job && (job.status === "queued" || job.status === "processing");
}

export const useVectorStatus = () => useQuery(vectorStatusQueryOptions());

export const resetVectorDb = () => apiRequest("/api/reset_vector_db", { method: "POST", body: {}, schema: resetResponseSchema });

export const revectorize = () => apiRequest("/api/vectors/revectorize", { method: "POST", body: {}, schema: revectorizeResponseSchema });

export function importVectorDb(file: File) {
  const form = new FormData();
  form.append("file", file);
  return apiRequest("/api/import_vector_db", { method: "POST", body: form, schema: importResponseSchema });
}

/** What an import would replace ("This replaces 12 files, 3 notes and 2 folders"), asked for before confirming. */
export const getImportPreview = () => apiRequest("/api/import_vector_db/preview", { schema: importPreviewSchema });

/** The automatic snapshots taken before each import, reset and snapshot restore, newest first. */
export const snapshotsQueryOptions = () =>
  queryOptions({
    queryKey: ["vectors", "snapshots"] as const,
    queryFn: async () => (await getJson("/api/knowledge/snapshots", knowledgeSnapshotListSchema)) ?? [],
  });

export const useSnapshots = (enabled: boolean) => useQuery({ ...snapshotsQueryOptions(), enabled });

export const restoreSnapshot = (id: number) =>
  apiRequest(`/api/knowledge/snapshots/${id}/restore`, { method: "POST", body: {}, schema: snapshotRestoreResponseSchema });

/** The filename from content-disposition, else vector_db_backup.zip. */
export function filenameFrom(disposition: string | null): string {
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition ?? "");
  return match?.[1] ? decodeURIComponent(match[1]) : EXPORT_DEFAULT_FILENAME;
}

/** Downloads the backup zip through a temporary object URL. */
export async function exportVectorDb(): Promise<string> {
  const response = await apiFetch("/api/export_vector_db");
  const blob = await response.blob();
  const filename = filenameFrom(response.headers.get("content-disposition"));
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return filename;
}
