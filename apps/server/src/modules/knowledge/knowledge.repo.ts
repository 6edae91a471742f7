import { sql } from "kysely";
import type { Store } from "../../store/open-store.ts";
import type { KnowledgeItemRow, KnowledgeItemUpdate, NewKnowledgeItem } from "../../store/schema.ts";

/** An item as a backup carries it: ids are the exporting store's. */
export interface ItemBackupRow {
  id: number;
  parent_id: number | null;
  conversation_id: number | null;
  type: "file" | "url" | "note" | "folder";
  name: string;
  path: string;
  description: string;
  content: string;
  url: string | null;
  mime_type: string | null;
  size: number;
  created_at: string;
}

/** SQL for knowledge items, the knowledge base tree; every user-facing query is scoped by the owning user. */
export function createKnowledgeRepo(store: Pick<Store, "db" | "prepare">) {
  const { db } = store;
  const exportPage = store.prepare<Omit<KnowledgeItemRow, "userId">>((argument) =>
    db
      .selectFrom("knowledgeItems")
      .select(["id", "parentId", "conversationId", "type", "name", "path", "description", "content", "url", "mimeType", "size", "createdAt"])
      .where("userId", "=", argument<number>(0))
      .where("id", ">", argument<number>(1))
      .orderBy("id")
      .limit(argument<number>(2)),
  );
  const deleteAllOfUser = store.prepare((argument) => db.deleteFrom("knowledgeItems").where("userId", "=", argument<number>(0)));
  const insertImported = store.prepare<{ id: number }>((argument) =>
    db
      .insertInto("knowledgeItems")
      .values({
        userId: argument(0),
        conversationId: argument(1),
        parentId: argument(2),
        type: argument(3),
        name: argument(4),
        path: argument(5),
        description: argument(6),
        content: argument(7),
        url: argument(8),
        mimeType: argument(9),
        size: argument(10),
        chunkCount: argument(11),
        status: "ready",
        createdAt: argument(12),
        updatedAt: argument(13),
      })
      .returning("id"),
  );

  return {
    async listItems(userId: number, filter: { conversationId?: number | null; parentId?: number | null; type?: "folder" }) {
      let query = db.selectFrom("knowledgeItems").selectAll().where("userId", "=", userId);
      if (filter.conversationId !== undefined) {
        query = filter.conversationId === null ? query.where("conversationId", "is", null) : query.where("conversationId", "=", filter.conversationId);
      }
      if (filter.parentId !== undefined) {
        query = filter.parentId === null ? query.where("parentId", "is", null) : query.where("parentId", "=", filter.parentId);
      }
      if (filter.type) query = query.where("type", "=", filter.type);
      return query.orderBy("type", "desc").orderBy("name").orderBy("id").execute();
    },

    getItem: (userId: number, id: number) => db.selectFrom("knowledgeItems").selectAll().where("userId", "=", userId).where("id", "=", id).executeTakeFirst(),

    /** Only for background jobs, which run outside any request (the job row carries the owner). */
    getItemById: (id: number) => db.selectFrom("knowledgeItems").selectAll().where("id", "=", id).executeTakeFirst(),

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
      let query = db
        .selectFrom("knowledgeItems")
        .selectAll()
        .where("userId", "=", input.userId)
        .where("contentHash", "=", input.contentHash)
        .where("type", "=", "file");
      query = input.conversationId === null ? query.where("conversationId", "is", null) : query.where("conversationId", "=", input.conversationId);
      query = input.parentId === null ? query.where("parentId", "is", null) : query.where("parentId", "=", input.parentId);
      return query.orderBy("id").executeTakeFirst();
    },

    /** A folder of that exact name directly in the place (the oldest, should there be two). */
    async findFolder(input: { userId: number; conversationId: number | null; parentId: number | null; name: string }) {
      let query = db.selectFrom("knowledgeItems").selectAll().where("userId", "=", input.userId).where("type", "=", "folder").where("name", "=", input.name);
      query = input.conversationId === null ? query.where("conversationId", "is", null) : query.where("conversationId", "=", input.conversationId);
      query = input.parentId === null ? query.where("parentId", "is", null) : query.where("parentId", "=", input.parentId);
      return query.orderBy("id").executeTakeFirst();
    },

    /** Stored files whose items are gone (recorded by a trigger however the item went). */
    pendingBlobDeletions: async () => (await db.selectFrom("blobDeletions").select("storageKey").limit(1000).execute()).map((row) => row.storageKey),

    clearBlobDeletions: async (keys: string[]) => {
      if (keys.length) await db.deleteFrom("blobDeletions").where("storageKey", "in", keys).execute();
    },

    countItems: async (userId: number) =>
      Number((await db.selectFrom("knowledgeItems").select((eb) => eb.fn.countAll<number>().as("count")).where("userId", "=", userId).executeTakeFirstOrThrow()).count),

    /** The user's items as backup rows, a page at a time after an id. */
    exportPage: (userId: number, afterId: number, size: number): ItemBackupRow[] =>
      exportPage.all(userId, afterId, size).map((row) => ({
        id: row.id,
        parent_id: row.parentId,
        conversation_id: row.conversationId,
        type: row.type,
        name: row.name,
        path: row.path,
        description: row.description,
        content: row.content,
        url: row.url,
        mime_type: row.mimeType,
        size: row.size,
        created_at: row.createdAt,
      })),

    /**
     * Replaces the user's items with a backup's (synchronous: runs inside the caller's transaction). Answers the
     * old item id -> the new item. `conversationIds` are the user's own conversations that links may keep.
     */
    replaceAllSync(userId: number, items: ItemBackupRow[], chunkCounts: Map<number, number>, conversationIds: Set<number>) {
      deleteAllOfUser.run(userId);
      const now = new Date().toISOString();
      const created = new Map<number, { id: number; conversationId: number | null }>();
      let pending = items;
      while (pending.length > 0) {
        for (const item of pending) {
          if (item.parent_id !== null && !created.has(item.parent_id)) continue;
          const conversationId = item.conversation_id !== null && conversationIds.has(item.conversation_id) ? item.conversation_id : null;
          const parentId = item.parent_id === null ? null : created.get(item.parent_id)!.id;
          const row = insertImported.get(
            userId,
            conversationId,
            parentId,
            item.type,
            item.name,
            item.path,
            item.description,
            item.content,
            item.url,
            item.mime_type,
            item.size,
            chunkCounts.get(item.id) ?? 0,
            item.created_at,
            now,
          )!;
          created.set(item.id, { id: row.id, conversationId });
        }
        const next = pending.filter((item) => !created.has(item.id));
        if (next.length === pending.length) throw new Error("the items tree has a cycle");
        pending = next;
      }
      return created;
    },
  };
}

export type KnowledgeRepo = ReturnType<typeof createKnowledgeRepo>;
