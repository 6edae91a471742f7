import type BetterSqlite3 from "better-sqlite3";
import { sql, type Kysely } from "kysely";
import type { Embedder } from "../../providers/embedder/embedder.ts";
import type { Database } from "../../store/schema.ts";
import type { ChunkInput } from "./index/chunk-store.ts";
import type { KnowledgeIndexPort } from "./retrieval.module.ts";

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
    .run(
      input.userId,
      input.conversationId ?? null,
      input.type ?? "file",
      input.name,
      input.name,
      input.mimeType ?? null,
      input.chunks.join("").length,
      now,
      now,
    );
  const itemId = Number(item.lastInsertRowid);
  const insert = sqlite.prepare("INSERT INTO chunks (item_id, user_id, conversation_id, position, source, content, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
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

/** Stores an item's chunks again through the search index port, which also embeds them, as ingestion does. */
export async function reindexKnowledge(t: { store: { db: Kysely<Database> }; knowledgeIndex: KnowledgeIndexPort }, itemId: number): Promise<void> {
  const item = await t.store.db.selectFrom("knowledgeItems").select(["id", "userId", "conversationId"]).where("id", "=", itemId).executeTakeFirstOrThrow();
  const chunks = await sql<ChunkInput>`SELECT position, source, content FROM chunks WHERE item_id = ${itemId} ORDER BY position`.execute(t.store.db);
  await t.knowledgeIndex.indexItem(
    item,
    chunks.rows.map((chunk) => ({ ...chunk, position: Number(chunk.position) })),
  );
}

/**
 * As insertKnowledge, on either engine, with the chunks written straight to the table (no vectors; on PostgreSQL no
 * words either until `reindexKnowledge`), as a store left by an older version or a half-done ingestion holds them.
 */
export async function insertKnowledgeRows(
  db: Kysely<Database>,
  input: { userId: number; conversationId?: number | null; name: string; chunks: string[] },
): Promise<{ itemId: number; chunkIds: number[] }> {
  const now = new Date().toISOString();
  const conversationId = input.conversationId ?? null;
  const { id } = await db
    .insertInto("knowledgeItems")
    .values({
      userId: input.userId,
      conversationId,
      type: "file",
      name: input.name,
      path: input.name,
      size: input.chunks.join("").length,
      createdAt: now,
      updatedAt: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const chunkIds: number[] = [];
  for (const [position, content] of input.chunks.entries()) {
    const row = await sql<{ id: number }>`INSERT INTO chunks (item_id, user_id, conversation_id, position, source, content, created_at)
      VALUES (${id}, ${input.userId}, ${conversationId}, ${position}, ${`${input.name}/section-${position + 1}`}, ${content}, ${now}) RETURNING id`.execute(db);
    chunkIds.push(Number(row.rows[0]!.id));
  }
  return { itemId: id, chunkIds };
}

/** A knowledge item whose chunks go in through the search index port, embedded as ingestion would embed them. */
export async function indexKnowledge(
  t: { store: { sqlite: BetterSqlite3.Database }; knowledgeIndex: KnowledgeIndexPort },
  input: { userId: number; conversationId?: number | null; name: string; chunks: string[] },
): Promise<{ itemId: number }> {
  const { itemId } = insertKnowledge(t.store.sqlite, { ...input, chunks: [] });
  const chunks = input.chunks.map((content, position) => ({ position, source: `${input.name}/section-${position + 1}`, content }));
  await t.knowledgeIndex.indexItem({ id: itemId, userId: input.userId, conversationId: input.conversationId ?? null }, chunks);
  return { itemId };
}

/** A test's view of the app, on either engine. */
type SeedTarget = { store: { db: Kysely<Database> }; knowledgeIndex: KnowledgeIndexPort };

/**
 * As insertKnowledge, on either engine: the item through Kysely and its chunks through the app's search index (SQLite's
 * FTS5 tables, PostgreSQL's chunk_terms), with the same sources (`<name>/section-<n>`).
 */
export async function seedKnowledge(
  t: SeedTarget,
  input: { userId: number; conversationId?: number | null; name: string; chunks: string[]; type?: "file" | "note"; mimeType?: string },
): Promise<{ itemId: number; chunkIds: number[] }> {
  const now = new Date().toISOString();
  const conversationId = input.conversationId ?? null;
  const { id } = await t.store.db
    .insertInto("knowledgeItems")
    .values({
      userId: input.userId,
      conversationId,
      type: input.type ?? "file",
      name: input.name,
      path: input.name,
      mimeType: input.mimeType ?? null,
      size: input.chunks.join("").length,
      createdAt: now,
      updatedAt: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await t.knowledgeIndex.indexItem(
    { id, userId: input.userId, conversationId },
    input.chunks.map((content, position) => ({ position, source: `${input.name}/section-${position + 1}`, content })),
  );
  const chunks = await sql<{ id: number }>`SELECT id FROM chunks WHERE item_id = ${id} ORDER BY position`.execute(t.store.db);
  return { itemId: id, chunkIds: chunks.rows.map((row) => Number(row.id)) };
}

/** As insertConversation, on either engine. */
export async function seedConversation(db: Kysely<Database>, userId: number, name = "Test"): Promise<number> {
  const now = new Date().toISOString();
  return (await db.insertInto("conversations").values({ userId, name, createdAt: now, updatedAt: now }).returning("id").executeTakeFirstOrThrow()).id;
}

/**
 * The embedder with its document batches held until released: SAGE starts re-vectorising by itself when it meets a
 * new embedder, and a test looks at the moment before that work lands.
 */
export function holdingDocuments(embedder: Embedder) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const held: Embedder = {
    get id() {
      return embedder.id;
    },
    get dimensions() {
      return embedder.dimensions;
    },
    maxBatch: embedder.maxBatch,
    async embed(texts, options) {
      if (options.kind === "document") await gate;
      return embedder.embed(texts, options);
    },
  };
  return { embedder: held, release };
}
