import type BetterSqlite3 from "better-sqlite3";
import { chunkSections } from "../apps/server/src/documents/chunker.ts";
import { convertTxt } from "../apps/server/src/documents/converters/convert-txt.ts";

/**
 * Stores one text document as a knowledge item the way an upload of a .txt file is ingested: the knowledge
 * module's TXT converter and section-aware chunker, chunks written to the store (FTS kept by triggers).
 */
export function ingestPlainDocument(sqlite: BetterSqlite3.Database, doc: { userId: number; name: string; text: string }): number {
  const now = new Date().toISOString();
  const item = sqlite
    .prepare("INSERT INTO knowledge_items (user_id, type, name, created_at, updated_at) VALUES (?, 'file', ?, ?, ?)")
    .run(doc.userId, doc.name, now, now);
  const itemId = Number(item.lastInsertRowid);
  const insert = sqlite.prepare("INSERT INTO chunks (item_id, user_id, position, source, content, created_at) VALUES (?, ?, ?, ?, ?, ?)");
  const extracted = convertTxt(new TextEncoder().encode(doc.text));
  for (const chunk of chunkSections(extracted.sections)) {
    insert.run(itemId, doc.userId, chunk.position, chunk.source || doc.name, chunk.content, now);
  }
  return itemId;
}
