import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { getJson } from "@/lib/api-client";

// Only what the delete dialog counts: the kind of each item, and how many reminders there are.
const itemKindsSchema = z.array(z.object({ type: z.string() }).loose());
const remindersSchema = z.array(z.unknown());

/** What goes with a conversation when it is deleted: its reminders and its files (folders are not counted). */
export interface ConversationContents {
  reminders: number;
  files: number;
}

export async function getConversationContents(id: number): Promise<ConversationContents> {
  const [reminders, items] = await Promise.all([
    getJson(`/api/reminders?conversationId=${id}`, remindersSchema),
    getJson(`/api/conversations/${id}/files`, itemKindsSchema),
  ]);
  return { reminders: reminders?.length ?? 0, files: (items ?? []).filter((item) => item.type !== "folder").length };
}

export const conversationContentsQueryOptions = (id: number) =>
  queryOptions({ queryKey: ["conversations", String(id), "contents"], queryFn: () => getConversationContents(id), staleTime: 0 });

/** Read only while the delete dialog is open for that conversation. */
export const useConversationContents = (id: number | null) => useQuery({ ...conversationContentsQueryOptions(id ?? 0), enabled: id !== null });
