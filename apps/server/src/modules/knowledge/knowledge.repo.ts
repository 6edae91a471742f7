import { sql } from "kysely";
import type { Store } from "../../store/open-store.ts";
import type { KnowledgeItemUpdate, KnowledgeItemWithText, NewKnowledgeItem } from "../../store/schema.ts";
import { kyselyKnowledgeBackupRows, sqliteKnowledgeBackupRows } from "./knowledge-backup-rows.ts";
import { createItemListing, deletedConversations } from "./knowledge-listing.ts";

const TEXT = sql<string>`coalesce(texts.content, '')`;

/** SQL for knowledge items, the knowledge base tree; every user-facing query is scoped by the owning user. */
export function createKnowledgeRepo(store: Pick<Store, "db"> & Partial<Pick<Store, "prepare" | "transaction">>) {
  const { db } = store;
  /** Items with their text (a note's words live in knowledge_item_texts, migration 0900). */
  const withText = () => db.selectFrom("knowledgeItems").leftJoin("knowledgeItemTexts as texts", "texts.itemId", "knowledgeItems.id");
  const selectWithText = () => withText().selectAll("knowledgeItems").select(TEXT.as("content"));
  // SQLite keeps its prepared statements and synchronous transactions (decision 058); elsewhere Kysely alone.
  const backupRows =
    store.prepare && store.transaction ? sqliteKnowledgeBackupRows(store as Pick<Store, "db" | "prepare" | "transaction">) : kyselyKnowledgeBackupRows(db);

  return {
    listJson: createItemListing(store),

    async listItems(userId: number, filter: { conversationId?: number | null; parentId?: number | null; type?: "folder" }): Promise<KnowledgeItemWithText[]> {
      let query = selectWithText().where("userId", "=", userId);
      if (filter.conversationId !== undefined) {
        query = filter.conversationId === null ? query.where("conversationId", "is", null) : query.where("conversationId", "=", filter.conversationId);
      }
      if (filter.parentId !== undefined) {
        query = filter.parentId === null ? query.where("parentId", "is", null) : query.where("parentId", "=", filter.parentId);
      }
      if (filter.type) query = query.where("type", "=", filter.type);
      return query.orderBy("type", "desc").orderBy("name").orderBy("id").execute();
    },

    /** One of the user's items with its text. */
    getItem: (userId: number, id: number): Promise<KnowledgeItemWithText | undefined> =>
      selectWithText().where("knowledgeItems.userId", "=", userId).where("knowledgeItems.id", "=", id).executeTakeFirst(),

    /** Only for background jobs, which run outside any request (the job row carries the owner). Without its text. */
    getItemById: (id: number) => db.selectFrom("knowledgeItems").selectAll().where("id", "=", id).executeTakeFirst(),

    /** Only for background jobs, as getItemById: the items of these ids that still exist. */
    getItemsByIds: (ids: number[]) => (ids.length === 0 ? Promise.resolve([]) : db.selectFrom("knowledgeItems").selectAll().where("id", "in", ids).execute()),

    /**
     * The same status change for many items in one statement (a batch of mails read together); with `chunkCounts`,
     * each item's own count.
     */
    async updateItems(ids: number[], changes: Omit<KnowledgeItemUpdate, "content" | "chunkCount">, chunkCounts?: ReadonlyMap<number, number>) {
      if (ids.length === 0) return;
      const chunkCount =
        chunkCounts?.size &&
        sql<number>`CASE ${sql.ref("id")} ${sql.join(
          [...chunkCounts].map(([id, count]) => sql`WHEN ${id} THEN ${count}`),
          sql` `,
        )} ELSE 0 END`;
      await db
        .updateTable("knowledgeItems")
        .set({ ...changes, ...(chunkCount ? { chunkCount } : {}), updatedAt: new Date().toISOString() })
        .where("id", "in", ids)
        .execute();
    },

    /** False once the item is gone or its conversation was deleted (decision 035): nothing to read it for now. */
    isKept: async (id: number) =>
      (await db
        .selectFrom("knowledgeItems")
        .select("id")
        .where("id", "=", id)
        .where((eb) => eb.or([eb("conversationId", "is", null), eb("conversationId", "not in", deletedConversations(eb))]))
        .executeTakeFirst()) !== undefined,

    /** A conversation's items left unread (queued, or stopped mid-read when it was deleted). */
    unreadInConversation: (conversationId: number) =>
      db
        .selectFrom("knowledgeItems")
        .select(["id", "userId"])
        .where("conversationId", "=", conversationId)
        .where("status", "in", ["queued", "processing"])
        .execute(),

    /** The item's text ('' when it has none); read only by what needs it (a note's ingestion). */
    getText: async (id: number) => (await db.selectFrom("knowledgeItemTexts").select("content").where("itemId", "=", id).executeTakeFirst())?.content ?? "",

    async insertItem({ content, ...item }: Omit<NewKnowledgeItem, "createdAt" | "updatedAt">) {
      const now = new Date().toISOString();
      const insert = async (trx: typeof db) =>
        (
          await trx
            .insertInto("knowledgeItems")
            .values({ ...item, createdAt: now, updatedAt: now })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id;
      if (!content) return insert(db);
      return db.transaction().execute(async (trx) => {
        const id = await insert(trx);
        await trx.insertInto("knowledgeItemTexts").values({ itemId: id, content }).execute();
        return id;
      });
    },

    /** Items with no text of their own (files), in one statement: their ids, in the order given. */
    async insertItems(items: Array<Omit<NewKnowledgeItem, "createdAt" | "updatedAt" | "content">>): Promise<number[]> {
      if (items.length === 0) return [];
      const now = new Date().toISOString();
      const rows = await db
        .insertInto("knowledgeItems")
        .values(items.map((item) => ({ ...item, createdAt: now, updatedAt: now })))
        .returning("id")
        .execute();
      // One INSERT gives its rows rising ids in the order of its values.
      return rows.map((row) => row.id).sort((a, b) => a - b);
    },

    /** A status change writes only the item's row; its text is written only when `content` is given. */
    async updateItem(id: number, { content, ...changes }: KnowledgeItemUpdate) {
      const updatedAt = new Date().toISOString();
      if (content === undefined) {
        await db
          .updateTable("knowledgeItems")
          .set({ ...changes, updatedAt })
          .where("id", "=", id)
          .execute();
        return;
      }
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("knowledgeItems")
          .set({ ...changes, updatedAt })
          .where("id", "=", id)
          .execute();
        if (content) {
          await trx
            .insertInto("knowledgeItemTexts")
            .values({ itemId: id, content })
            .onConflict((conflict) => conflict.column("itemId").doUpdateSet({ content }))
            .execute();
        } else {
          await trx.deleteFrom("knowledgeItemTexts").where("itemId", "=", id).execute();
        }
      });
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

    async findDuplicate(input: {
      userId: number;
      conversationId: number | null;
      parentId: number | null;
      contentHash: string;
    }): Promise<KnowledgeItemWithText | undefined> {
      let query = selectWithText().where("userId", "=", input.userId).where("contentHash", "=", input.contentHash).where("type", "=", "file");
      query = input.conversationId === null ? query.where("conversationId", "is", null) : query.where("conversationId", "=", input.conversationId);
      query = input.parentId === null ? query.where("parentId", "is", null) : query.where("parentId", "=", input.parentId);
      return query.orderBy("knowledgeItems.id").executeTakeFirst();
    },

    /** A folder of that exact name directly in the place (the oldest, should there be two). */
    async findFolder(input: { userId: number; conversationId: number | null; parentId: number | null; name: string }) {
      let query = db.selectFrom("knowledgeItems").selectAll().where("userId", "=", input.userId).where("type", "=", "folder").where("name", "=", input.name);
      query = input.conversationId === null ? query.where("conversationId", "is", null) : query.where("conversationId", "=", input.conversationId);
      query = input.parentId === null ? query.where("parentId", "is", null) : query.where("parentId", "=", input.parentId);
      return query.orderBy("id").executeTakeFirst();
    },

    /** Which of these names items directly in the folder already have. */
    async takenNames(userId: number, parentId: number, names: string[]): Promise<Set<string>> {
      if (names.length === 0) return new Set();
      const rows = await db
        .selectFrom("knowledgeItems")
        .select("name")
        .where("userId", "=", userId)
        .where("parentId", "=", parentId)
        .where("name", "in", names)
        .execute();
      return new Set(rows.map((row) => row.name));
    },

    /** Stored files whose items are gone (recorded by a trigger however the item went). */
    pendingBlobDeletions: async () => (await db.selectFrom("blobDeletions").select("storageKey").limit(1000).execute()).map((row) => row.storageKey),

    clearBlobDeletions: async (keys: string[]) => {
      if (keys.length) await db.deleteFrom("blobDeletions").where("storageKey", "in", keys).execute();
    },

    countItems: async (userId: number) =>
      Number(
        (
          await db
            .selectFrom("knowledgeItems")
            .select((eb) => eb.fn.countAll<number>().as("count"))
            .where("userId", "=", userId)
            .executeTakeFirstOrThrow()
        ).count,
      ),

    ...backupRows,
  };
}

export type KnowledgeRepo = ReturnType<typeof createKnowledgeRepo>;
