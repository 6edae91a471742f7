import { queryOptions, useQuery } from "@tanstack/react-query";
import { knowledgeItemListSchema, routesTestResponseSchema, type KnowledgeItem } from "@sage/contracts/knowledge";
import { getJson } from "@/lib/api-client";
import { knowledgeKeys } from "./knowledge-keys";
import { sessionUserId } from "@/lib/session-user-id";
import { pollEvery } from "@/lib/poll-every";

export const API_CONNECTION_FAILED = "API Connection Failed";

/** The routes-test probe must answer `status: success` before the files are listed; otherwise the API counts as unreachable. */
export async function getFiles(): Promise<KnowledgeItem[]> {
  let probe: unknown;
  try {
    probe = await getJson("/api/debug/routes-test");
  } catch {
    throw new Error(API_CONNECTION_FAILED);
  }
  if (probe !== null && !routesTestResponseSchema.safeParse(probe).success) throw new Error(API_CONNECTION_FAILED);
  return (await getJson(`/api/files?userId=${sessionUserId()}`, knowledgeItemListSchema)) ?? [];
}

const isBusy = (items: KnowledgeItem[] | undefined) => !!items?.some((item) => item.status === "queued" || item.status === "processing");

/** Polls only while some item is still being ingested, so its state (queued, processing, failed) stays current. */
export const filesQueryOptions = () =>
  queryOptions({
    queryKey: knowledgeKeys.files,
    queryFn: getFiles,
    refetchInterval: (query) => (isBusy(query.state.data) ? pollEvery(1500) : false),
  });

export const useFiles = () => useQuery(filesQueryOptions());
