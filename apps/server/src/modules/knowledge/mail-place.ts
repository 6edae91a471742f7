import type { Chunk } from "../../documents/documents.ts";
import type { KnowledgeItemRow } from "../../store/schema.ts";

/** The folder below a mail account's own that holds its synced mail ("Work mail/Mail/INBOX"); its calendar may sit beside it. */
export const MAIL_FOLDER = "Mail";

/**
 * Where a mail sits, as citations name it: its folders, the account's "Mail" level left out ("Work mail/INBOX"); ''
 * for a mail at the top of the knowledge base or in a conversation.
 */
export function mailPlace(item: Pick<KnowledgeItemRow, "path" | "name">): string {
  const folders = item.path.split("/").slice(0, -1);
  if (folders.length >= 3 && folders[1] === MAIL_FOLDER) folders.splice(1, 1);
  return folders.join("/");
}

/** A mail's passages name its folder and the day it was sent ("Work mail/INBOX, 3 Dec 2026"), not only its file name. */
export function placeMailChunks(item: Pick<KnowledgeItemRow, "path" | "name">, chunks: Chunk[]): Chunk[] {
  if (!/\.eml$/i.test(item.name)) return chunks;
  const place = mailPlace(item);
  if (!place) return chunks;
  return chunks.map((chunk) => ({ ...chunk, source: chunk.source ? `${place}, ${chunk.source}` : place }));
}
