import type BetterSqlite3 from "better-sqlite3";

/** Test helper: a knowledge item with its chunks written straight to the store, as ingestion would. */
export function insertKnowledge(
  sqlite: BetterSqlite3.Database,
  input: { userId: number; conversationId?: number | null; name: string; chunks: string[]; type?: string; mimeType?: string },
): { itemId: number; chunkIds: number[] } {
  const now = new Date().toISOString();
  const item = sqlite
    .prepare(
      "INSERT INTO knowledge_items (user_id, conversation_id, type, name, path, mime_type, size, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .run(input.userId, input.conversationId ?? null, input.type ?? "file", input.name, input.name, input.mimeType ?? null, input.chunks.join("").length, now, now);
  const itemId = Number(item.lastInsertRowid);
  const insert = sqlite.prepare(
    "INSERT INTO chunks (item_id, user_id, conversation_id, position, source, content, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const chunkIds = input.chunks.map((content, position) =>
    Number(insert.run(itemId, input.userId, input.conversationId ?? null, position, `${input.name}/section-${position + 1}`, content, now).lastInsertRowid),
  );
  return { itemId, chunkIds };
}

export function insertConversation(sqlite: BetterSqlite3.Database, userId: number, name = "Test"): number {
  const now = new Date().toISOString();
  return Number(
    sqlite.prepare("INSERT INTO conversations (user_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)").run(userId, name, now, now).lastInsertRowid,
  );
}
