import type { Conversation } from "@sage/contracts/conversations";

export type ConversationSort = "recent" | "name";
export type ConversationView = "grid" | "list";

export const UNTITLED = "Untitled";
export const displayName = (conversation: Pick<Conversation, "name">) => conversation.name || UNTITLED;

/**
 * Case-insensitive substring search on the name; pinned conversations first (in the server's order, the latest pin
 * on top), then newest first, or A-Z with Untitled for empty names.
 */
export function filterAndSortConversations<T extends Conversation>(conversations: T[], search: string, sort: ConversationSort): T[] {
  const needle = search.trim().toLowerCase();
  const matching = needle ? conversations.filter((conversation) => conversation.name.toLowerCase().includes(needle)) : [...conversations];
  const pinned = matching.filter((conversation) => conversation.pinned);
  const rest = matching.filter((conversation) => !conversation.pinned);
  if (sort === "name") rest.sort((a, b) => displayName(a).localeCompare(displayName(b), undefined, { sensitivity: "base" }) || b.id - a.id);
  else rest.sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id);
  return [...pinned, ...rest];
}
