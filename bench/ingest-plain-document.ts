import type BetterSqlite3 from "better-sqlite3";

/** Stores one text document as a knowledge item with ~1000-character chunks (stand-in until the knowledge chunker lands). */
export function ingestPlainDocument(sqlite: BetterSqlite3.Database, doc: { userId: number; name: string; text: string }): number {
  const now = new Date().toISOString();
  const item = sqlite
    .prepare("INSERT INTO knowledge_items (user_id, type, name, content, created_at, updated_at) VALUES (?, 'file', ?, '', ?, ?)")
    .run(doc.userId, doc.name, now, now);
  const itemId = Number(item.lastInsertRowid);
  const insert = sqlite.prepare("INSERT INTO chunks (item_id, user_id, position, source, content, created_at) VALUES (?, ?, ?, ?, ?, ?)");
  const sentences = doc.text.match(/[^.!?]+[.!?]*\s*/g) ?? [doc.text];
  let current = "";
  let position = 0;
  for (const sentence of sentences) {
    if (current && current.length + sentence.length > 1000) {
      insert.run(itemId, doc.userId, position, `${doc.name}/part-${position + 1}`, current.trim(), now);
      position++;
      current = "";
    }
    current += sentence;
  }
  if (current.trim() || position === 0) insert.run(itemId, doc.userId, position, `${doc.name}/part-${position + 1}`, current.trim(), now);
  return itemId;
}
