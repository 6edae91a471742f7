import { setImmediate as nextTurn } from "node:timers/promises";
import { sql, type ExpressionBuilder } from "kysely";
import type { Store } from "../../store/open-store.ts";
import type { Argument, PreparedQuery } from "../../store/prepared-query.ts";
import type { Database, KnowledgeItemStatus, KnowledgeItemType, KnowledgeItemUpdate, KnowledgeItemWithText, NewKnowledgeItem } from "../../store/schema.ts";

/** The fields a backup row and an item with its text name alike, in the backup's order. */
const SAME_NAMED = ["type", "name", "path", "description", "content", "url", "size"] as const;
/** Those of them that are columns of an item row (its text, `content`, is in knowledge_item_texts). */
const SAME_NAMED_COLUMNS = SAME_NAMED.filter((key): key is Exclude<(typeof SAME_NAMED)[number], "content"> => key !== "content");
type SameNamedFields = { type: KnowledgeItemType; name: string; path: string; description: string; content: string; url: string | null; size: number };
const sameNamed = (row: SameNamedFields): SameNamedFields => Object.fromEntries(SAME_NAMED.map((key) => [key, row[key]])) as SameNamedFields;

/** An item as a backup carries it: ids are the exporting store's. */
export interface ItemBackupRow extends SameNamedFields {
  id: number;
  parent_id: number | null;
  conversation_id: number | null;
  mime_type: string | null;
  created_at: string;
  status: KnowledgeItemStatus;
  status_reason: string | null;
  content_hash: string | null;
  /** Pages read by text recognition, and pages it gave up on (1-based). */
  ocr_pages: number[];
  ocr_failed_pages: number[];
}

/** A backup row as a restore reads it: backups from before statuses, hashes and OCR pages lack those. */
export type ItemBackupInput = Omit<ItemBackupRow, "status" | "status_reason" | "content_hash" | "ocr_pages" | "ocr_failed_pages"> &
  Partial<Pick<ItemBackupRow, "content_hash" | "ocr_pages" | "ocr_failed_pages">>;

/** An item read for a backup, with where its original bytes are stored (never written into the backup). */
export interface ItemExport {
  row: ItemBackupRow;
  storageKey: string | null;
}

/** An item as a restore writes it back, its parent set afterwards (a backup need not list parents first). */
export interface RestoredItem extends SameNamedFields {
  conversationId: number | null;
  mimeType: string | null;
  storageKey: string | null;
  contentHash: string | null;
  status: KnowledgeItemStatus;
  statusReason: string | null;
  chunkCount: number;
  ocrPages: number[];
  ocrFailedPages: number[];
  createdAt: string;
}

/** What a restore settles itself rather than taking from the backup row. */
export type RestoreDecisions = Pick<RestoredItem, "conversationId" | "status" | "statusReason" | "storageKey" | "chunkCount">;

/** A stored JSON list of pages, read leniently (anything else is no pages). */
export function pageList(json: string): number[] {
  try {
    const pages: unknown = JSON.parse(json);
    return Array.isArray(pages) ? pages.filter((page): page is number => Number.isInteger(page)) : [];
  } catch {
    return [];
  }
}

/** A backup's item as a restore writes it back: the one mapping from backup rows to items. */
export function restoredItemFromBackup(row: ItemBackupInput, decided: RestoreDecisions): RestoredItem {
  return {
    ...sameNamed(row),
    ...decided,
    mimeType: row.mime_type,
    contentHash: row.content_hash ?? null,
    ocrPages: row.ocr_pages ?? [],
    ocrFailedPages: row.ocr_failed_pages ?? [],
    createdAt: row.created_at,
  };
}

/** How much of each kind a user holds (what an import or a snapshot restore would replace). */
export interface KnowledgeSummary {
  files: number;
  links: number;
  notes: number;
  folders: number;
  /** Of those, the items attached to conversations. */
  inConversations: number;
}

type ListFilter = { conversationId?: number | null; parentId?: number | null };
const filterKey = (value: number | null | undefined) => (value === undefined ? "any" : value === null ? "none" : "id");
// Rows a listing page holds: each page is one string of about 160 KB. Larger pages (2,000 rows) grew the server by
// 47 MB listing 300,000 items, 200-500 by 39-43 MB, nearly all of it V8's young generation reaching its full size.
const LIST_PAGE = 300;
/** `ORDER BY type DESC`: the listing walks the types in this order, each by (name, id). */
const LISTING_TYPE_ORDER: KnowledgeItemType[] = ["url", "note", "folder", "file"];
/** An item's text, from the listing's join of knowledge_item_texts as `texts` ('' when it has none). */
const TEXT = sql<string>`coalesce(texts.content, '')`;
/** One item as the API's JSON (toApiItem's fields, in its order), built by SQLite. */
const ITEM_JSON = sql<string>`json_object(
  'id', id, 'name', name, 'type', type, 'path', path, 'description', description, 'content', ${TEXT}, 'url', url,
  'parentId', coalesce(parent_id, 0), 'userId', user_id, 'conversationId', coalesce(conversation_id, 0), 'size', size,
  'status', status, 'statusReason', status_reason, 'chunkCount', chunk_count,
  'ocrPages', json(ocr_pages), 'ocrFailedPages', json(ocr_failed_pages), 'createdAt', created_at)`;

/** The ids of deleted conversations (few: the partial index conversations_deleted holds only them). */
const deletedConversations = (eb: ExpressionBuilder<Database, "knowledgeItems">) =>
  eb.selectFrom("conversations").select("conversations.id").where("conversations.deletedAt", "is not", null);

/** SQL for knowledge items, the knowledge base tree; every user-facing query is scoped by the owning user. */
export function createKnowledgeRepo(store: Pick<Store, "db" | "prepare">) {
  const { db } = store;
  /** Items with their text (a note's words live in knowledge_item_texts, migration 0900). */
  const withText = () => db.selectFrom("knowledgeItems").leftJoin("knowledgeItemTexts as texts", "texts.itemId", "knowledgeItems.id");
  const selectWithText = () => withText().selectAll("knowledgeItems").select(TEXT.as("content"));
  const exportPage = store.prepare<Omit<KnowledgeItemWithText, "userId" | "updatedAt" | "chunkCount">>((argument) =>
    withText()
      .select([
        "id",
        "parentId",
        "conversationId",
        ...SAME_NAMED_COLUMNS,
        TEXT.as("content"),
        "mimeType",
        "createdAt",
        "status",
        "statusReason",
        "contentHash",
        "storageKey",
        "ocrPages",
        "ocrFailedPages",
      ])
      .where("userId", "=", argument<number>(0))
      .where("id", ">", argument<number>(1))
      .orderBy("id")
      .limit(argument<number>(2)),
  );
  // A restore empties the user's items a batch at a time: parents are detached first, so that deleting one item
  // never cascades into a large subtree inside one statement.
  const detachBatch = store.prepare((argument) =>
    db
      .updateTable("knowledgeItems")
      .set({ parentId: null })
      .where("id", "in", (eb) =>
        eb.selectFrom("knowledgeItems").select("id").where("userId", "=", argument<number>(0)).where("parentId", "is not", null).limit(argument<number>(1)),
      ),
  );
  const deleteBatch = store.prepare((argument) =>
    db
      .deleteFrom("knowledgeItems")
      .where("id", "in", (eb) => eb.selectFrom("knowledgeItems").select("id").where("userId", "=", argument<number>(0)).limit(argument<number>(1))),
  );
  const insertRestored = store.prepare<{ id: number }>((argument) =>
    db
      .insertInto("knowledgeItems")
      .values({
        userId: argument(0),
        conversationId: argument(1),
        type: argument(2),
        name: argument(3),
        path: argument(4),
        description: argument(5),
        url: argument(6),
        mimeType: argument(7),
        size: argument(8),
        storageKey: argument(9),
        contentHash: argument(10),
        status: argument(11),
        statusReason: argument(12),
        chunkCount: argument(13),
        createdAt: argument(14),
        updatedAt: argument(15),
        ocrPages: argument(16),
        ocrFailedPages: argument(17),
      })
      .returning("id"),
  );
  const insertText = store.prepare((argument) => db.insertInto("knowledgeItemTexts").values({ itemId: argument<number>(0), content: argument<string>(1) }));
  const setParent = store.prepare((argument) =>
    db
      .updateTable("knowledgeItems")
      .set({ parentId: argument<number>(0) })
      .where("id", "=", argument<number>(1)),
  );
  const summary = store.prepare<{ type: KnowledgeItemType; count: number; inConversations: number }>((argument) =>
    db
      .selectFrom("knowledgeItems")
      .select((eb) => ["type", eb.fn.countAll<number>().as("count"), eb.fn.count<number>("conversationId").as("inConversations")])
      .where("userId", "=", argument<number>(0))
      .groupBy("type"),
  );

  // A listing page as ONE string: each row's API JSON made by SQLite (json_object) and joined there in the listing's
  // order, with a second, index-only query for the key to continue after the page's last row. Reading 15 columns per
  // row into JS values cost far more than the query (300,000 items: 111 MB); a string and an object per row still
  // grew an idle server by 118 MB while it listed 300,000 items, most of them promoted to the old generation first.
  type ListPage = { json: string | null; count: number };
  type ListKey = { name: string; id: number };
  const listStatements = new Map<string, { page: PreparedQuery<ListPage>; lastKey: PreparedQuery<ListKey> }>();
  const listStatement = (filter: ListFilter) => {
    const key = `${filterKey(filter.conversationId)}:${filterKey(filter.parentId)}`;
    let statements = listStatements.get(key);
    if (!statements) {
      // Arguments: user, type, after name, after id, page size (or the offset of the page's last row), conversation, parent.
      const pageRows = (argument: Argument) => {
        let rows = withText()
          .where("userId", "=", argument<number>(0))
          .where("type", "=", argument<KnowledgeItemType>(1))
          .where((eb) => eb(eb.refTuple("name", "id"), ">", eb.tuple(argument<string>(2), argument<number>(3))));
        if (filter.conversationId === null) rows = rows.where("conversationId", "is", null);
        else if (filter.conversationId !== undefined) rows = rows.where("conversationId", "=", argument<number>(5));
        // A deleted conversation's items are kept with it (restorable, decision 035) but not listed.
        else rows = rows.where((eb) => eb.or([eb("conversationId", "is", null), eb("conversationId", "not in", deletedConversations(eb))]));
        if (filter.parentId === null) rows = rows.where("parentId", "is", null);
        else if (filter.parentId !== undefined) rows = rows.where("parentId", "=", argument<number>(6));
        return rows.orderBy("name").orderBy("id");
      };
      statements = {
        page: store.prepare<ListPage>((argument) =>
          db
            .selectFrom(
              pageRows(argument)
                .select([ITEM_JSON.as("json"), "name", "id"])
                .limit(argument<number>(4))
                .as("page"),
            )
            .select([sql<string | null>`group_concat(json, ',' ORDER BY name, id)`.as("json"), sql<number>`count(*)`.as("count")]),
        ),
        lastKey: store.prepare<ListKey>((argument) => pageRows(argument).select(["name", "id"]).limit(1).offset(argument<number>(4))),
      };
      listStatements.set(key, statements);
    }
    return statements;
  };

  return {
    /**
     * The user's items as the API's JSON array, a page at a time (types in the order of `ORDER BY type DESC`, then
     * name and id, through the listing index), yielding between pages so a huge list never holds the server.
     */
    async *listJson(userId: number, filter: ListFilter, pageSize = LIST_PAGE): AsyncGenerator<string> {
      const statements = listStatement(filter);
      const scope = [filter.conversationId ?? 0, filter.parentId ?? 0];
      let first = true;
      yield "[";
      for (const type of LISTING_TYPE_ORDER) {
        for (let after = { name: "", id: 0 }; ;) {
          const page = statements.page.get(userId, type, after.name, after.id, pageSize, ...scope);
          if (!page?.json) break; // no rows: group_concat gives NULL
          yield first ? page.json : `,${page.json}`;
          first = false;
          if (page.count < pageSize) break;
          const last = statements.lastKey.get(userId, type, after.name, after.id, pageSize - 1, ...scope);
          if (!last) break;
          after = last;
          await nextTurn();
        }
      }
      yield "]";
    },

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

    /** The user's items as backup rows, a page at a time after an id, with where their bytes are stored. */
    exportPage: (userId: number, afterId: number, size: number): ItemExport[] =>
      exportPage.all(userId, afterId, size).map((row) => ({
        row: {
          id: row.id,
          parent_id: row.parentId,
          conversation_id: row.conversationId,
          ...sameNamed(row),
          mime_type: row.mimeType,
          created_at: row.createdAt,
          status: row.status,
          status_reason: row.statusReason,
          content_hash: row.contentHash,
          ocr_pages: pageList(row.ocrPages),
          ocr_failed_pages: pageList(row.ocrFailedPages),
        },
        storageKey: row.storageKey,
      })),

    summary(userId: number): KnowledgeSummary {
      const result: KnowledgeSummary = { files: 0, links: 0, notes: 0, folders: 0, inConversations: 0 };
      for (const row of summary.all(userId)) {
        result[row.type === "file" ? "files" : row.type === "url" ? "links" : row.type === "note" ? "notes" : "folders"] = row.count;
        result.inConversations += row.inConversations;
      }
      return result;
    },

    /** One step of emptying the user's items (synchronous): detaches or deletes up to `limit`; 0 once none is left. */
    emptyStepSync(userId: number, limit: number): number {
      const detached = detachBatch.run(userId, limit).changes;
      return detached > 0 ? detached : deleteBatch.run(userId, limit).changes;
    },

    /** Inserts restored items at the root (synchronous, inside the caller's transaction); answers their new ids. */
    insertRestoredSync(userId: number, items: RestoredItem[]): number[] {
      const now = new Date().toISOString();
      return items.map((item) => {
        const id = insertRestored.get(
          userId,
          item.conversationId,
          item.type,
          item.name,
          item.path,
          item.description,
          item.url,
          item.mimeType,
          item.size,
          item.storageKey,
          item.contentHash,
          item.status,
          item.statusReason,
          item.chunkCount,
          item.createdAt,
          now,
          JSON.stringify(item.ocrPages),
          JSON.stringify(item.ocrFailedPages),
        )!.id;
        if (item.content) insertText.run(id, item.content);
        return id;
      });
    },

    setParentsSync(pairs: Array<{ id: number; parentId: number }>): void {
      for (const pair of pairs) setParent.run(pair.parentId, pair.id);
    },
  };
}

export type KnowledgeRepo = ReturnType<typeof createKnowledgeRepo>;
