import { sql, type Kysely } from "kysely";
import type { Database, KnowledgeItemRow, KnowledgeItemUpdate, NewKnowledgeItem } from "../../store/schema.ts";
import type { Chunk } from "./ingestion/chunker.ts";

export type ItemWithChunkCount = KnowledgeItemRow & { chunkCount: number };

// About 10-20 ms of inserting (FTS included) per batch, so other requests wait at most that long.
const INSERT_BATCH = 100;

export function createKnowledgeRepo(db: Kysely<Database>) {
  const withChunkCount = () =>
    db
      .selectFrom("knowledgeItems as ki")
      .selectAll("ki")
      .select((eb) =>
        eb
          .selectFrom("chunks")
          .select(eb.fn.countAll<number>().as("count"))
          .whereRef("chunks.itemId", "=", "ki.id")
          .as("chunkCount"),
      );

  return {
    async listItems(userId: number, filter: { conversationId?: number | null; parentId?: number | null; type?: "folder" }) {
      let query = withChunkCount().where("ki.userId", "=", userId);
      if (filter.conversationId !== undefined) {
        query = filter.conversationId === null ? query.where("ki.conversationId", "is", null) : query.where("ki.conversationId", "=", filter.conversationId);
      }
      if (filter.parentId !== undefined) {
        query = filter.parentId === null ? query.where("ki.parentId", "is", null) : query.where("ki.parentId", "=", filter.parentId);
      }
      if (filter.type) query = query.where("ki.type", "=", filter.type);
      return (await query.orderBy("ki.type", "desc").orderBy("ki.name").orderBy("ki.id").execute()) as ItemWithChunkCount[];
    },

    async getItem(userId: number, id: number) {
      return (await withChunkCount().where("ki.userId", "=", userId).where("ki.id", "=", id).executeTakeFirst()) as ItemWithChunkCount | undefined;
    },

    /** Only for background jobs, which run outside any request (the job row carries the owner). */
    async getItemById(id: number) {
      return (await withChunkCount().where("ki.id", "=", id).executeTakeFirst()) as ItemWithChunkCount | undefined;
    },

    async insertItem(item: Omit<NewKnowledgeItem, "createdAt" | "updatedAt">) {
      const now = new Date().toISOString();
      const row = await db.insertInto("knowledgeItems").values({ ...item, createdAt: now, updatedAt: now }).returning("id").executeTakeFirstOrThrow();
      return row.id;
    },

    async updateItem(id: number, changes: KnowledgeItemUpdate) {
      await db
        .updateTable("knowledgeItems")
        .set({ ...changes, updatedAt: new Date().toISOString() })
        .where("id", "=", id)
        .execute();
    },

    /** The item and every descendant, parents before children (a recursive walk of parent_id). */
    async subtree(userId: number, id: number) {
      const result = await sql<{ id: number; parentId: number | null; name: string; storageKey: string | null; depth: number }>`
        WITH RECURSIVE tree(id, parent_id, name, storage_key, depth) AS (
          SELECT id, parent_id, name, storage_key, 0 FROM knowledge_items WHERE id = ${id} AND user_id = ${userId}
          UNION ALL
          SELECT ki.id, ki.parent_id, ki.name, ki.storage_key, tree.depth + 1
          FROM knowledge_items ki JOIN tree ON ki.parent_id = tree.id
        )
        SELECT id, parent_id, name, storage_key, depth FROM tree ORDER BY depth, id`.execute(db);
      return result.rows;
    },

    async setPaths(paths: Array<{ id: number; path: string }>) {
      await db.transaction().execute(async (trx) => {
        const now = new Date().toISOString();
        for (const entry of paths) await trx.updateTable("knowledgeItems").set({ path: entry.path, updatedAt: now }).where("id", "=", entry.id).execute();
      });
    },

    /** Deleting the top item removes the descendants, their chunks and jobs through ON DELETE CASCADE. */
    async deleteItem(userId: number, id: number) {
      await db.deleteFrom("knowledgeItems").where("userId", "=", userId).where("id", "=", id).execute();
    },

    async findDuplicate(input: { userId: number; conversationId: number | null; parentId: number | null; contentHash: string }) {
      let query = withChunkCount()
        .where("ki.userId", "=", input.userId)
        .where("ki.contentHash", "=", input.contentHash)
        .where("ki.type", "=", "file");
      query = input.conversationId === null ? query.where("ki.conversationId", "is", null) : query.where("ki.conversationId", "=", input.conversationId);
      query = input.parentId === null ? query.where("ki.parentId", "is", null) : query.where("ki.parentId", "=", input.parentId);
      return (await query.orderBy("ki.id").executeTakeFirst()) as ItemWithChunkCount | undefined;
    },

    /** Replaces an item's chunks in one transaction (re-ingesting never leaves a mix of old and new). */
    /**
     * Replaces an item's chunks. One transaction for a large document would hold the only SQLite
     * connection (and every other request) for seconds, so batches commit on their own with a yield to
     * the event loop between them. The item stays queued/processing until the pipeline marks it ready,
     * and a job resumed after a crash starts again from the delete.
     */
    async replaceChunks(item: { id: number; userId: number; conversationId: number | null }, chunks: Chunk[]) {
      await db.deleteFrom("chunks").where("itemId", "=", item.id).execute();
      const now = new Date().toISOString();
      for (let start = 0; start < chunks.length; start += INSERT_BATCH) {
        const rows = chunks.slice(start, start + INSERT_BATCH).map((chunk) => ({
          itemId: item.id,
          userId: item.userId,
          conversationId: item.conversationId,
          position: chunk.position,
          source: chunk.source,
          content: chunk.content,
          createdAt: now,
        }));
        await db.insertInto("chunks").values(rows).execute();
        if (start + INSERT_BATCH < chunks.length) await new Promise((resolve) => setImmediate(resolve));
      }
    },

    async conversationBelongsTo(userId: number, conversationId: number) {
      const row = await db.selectFrom("conversations").select("id").where("id", "=", conversationId).where("userId", "=", userId).executeTakeFirst();
      return !!row;
    },

    async latestJobFor(itemId: number) {
      return db.selectFrom("jobs").selectAll().where("itemId", "=", itemId).orderBy("id", "desc").executeTakeFirst();
    },
  };
}

export type KnowledgeRepo = ReturnType<typeof createKnowledgeRepo>;
