import { sql, type Kysely } from "kysely";
import type { Store } from "../../store/open-store.ts";
import type { Database, KnowledgeItemStatus, KnowledgeItemType, KnowledgeItemWithText } from "../../store/schema.ts";

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
  /** A file SAGE generated: the names of its sources (issue 52 item 11); absent for anything else. */
  made_from?: string[];
}

/** A backup row as a restore reads it: backups from before statuses, hashes and OCR pages lack those. */
export type ItemBackupInput = Omit<ItemBackupRow, "status" | "status_reason" | "content_hash" | "ocr_pages" | "ocr_failed_pages"> &
  Partial<Pick<ItemBackupRow, "content_hash" | "ocr_pages" | "ocr_failed_pages" | "made_from">>;

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
  /** A generated file's sources; null for anything else. */
  madeFrom: string[] | null;
  createdAt: string;
}

/** What a restore settles itself rather than taking from the backup row. */
export type RestoreDecisions = Pick<RestoredItem, "conversationId" | "status" | "statusReason" | "storageKey" | "chunkCount">;

/** How much of each kind a user holds (what an import or a snapshot restore would replace). */
export interface KnowledgeSummary {
  files: number;
  links: number;
  notes: number;
  folders: number;
  /** Of those, the items attached to conversations. */
  inConversations: number;
}

/** A stored JSON list of pages, read leniently (anything else is no pages). */
export function pageList(json: string): number[] {
  try {
    const pages: unknown = JSON.parse(json);
    return Array.isArray(pages) ? pages.filter((page): page is number => Number.isInteger(page)) : [];
  } catch {
    return [];
  }
}

/** A stored JSON list of names, read leniently. */
function nameList(json: string): string[] {
  try {
    const names: unknown = JSON.parse(json);
    return Array.isArray(names) ? names.filter((name): name is string => typeof name === "string") : [];
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
    madeFrom: row.made_from ?? null,
    createdAt: row.created_at,
  };
}

/**
 * A user's items as a backup reads and writes them, alike on both engines. Each write runs in its own short
 * transaction, so a restore of 300,000 items never holds the database for long.
 */
export interface KnowledgeBackupRows {
  summary(userId: number): Promise<KnowledgeSummary>;
  /** The user's items as backup rows, a page at a time after an id, with where their bytes are stored. */
  exportPage(userId: number, afterId: number, size: number): Promise<ItemExport[]>;
  /** One step of emptying the user's items: detaches or deletes up to `limit`; 0 once none is left. */
  emptyStep(userId: number, limit: number): Promise<number>;
  /** Inserts restored items at the root, all or none; answers their new ids in the order given. */
  insertRestored(userId: number, items: RestoredItem[]): Promise<number[]>;
  setParents(pairs: Array<{ id: number; parentId: number }>): Promise<void>;
}

type ExportedItem = Omit<KnowledgeItemWithText, "userId" | "updatedAt" | "chunkCount">;
const EXPORTED_COLUMNS = [
  "id",
  "parentId",
  "conversationId",
  ...SAME_NAMED_COLUMNS,
  "mimeType",
  "createdAt",
  "status",
  "statusReason",
  "contentHash",
  "storageKey",
  "ocrPages",
  "ocrFailedPages",
  "madeFrom",
] as const;

const toExport = (row: ExportedItem): ItemExport => ({
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
    ...(row.madeFrom === null ? {} : { made_from: nameList(row.madeFrom) }),
  },
  storageKey: row.storageKey,
});

function toSummary(rows: Array<{ type: KnowledgeItemType; count: number; inConversations: number }>): KnowledgeSummary {
  const result: KnowledgeSummary = { files: 0, links: 0, notes: 0, folders: 0, inConversations: 0 };
  for (const row of rows) {
    result[row.type === "file" ? "files" : row.type === "url" ? "links" : row.type === "note" ? "notes" : "folders"] = Number(row.count);
    result.inConversations += Number(row.inConversations);
  }
  return result;
}

const restoredValues = (userId: number, item: RestoredItem, now: string) => ({
  userId,
  conversationId: item.conversationId,
  type: item.type,
  name: item.name,
  path: item.path,
  description: item.description,
  url: item.url,
  mimeType: item.mimeType,
  size: item.size,
  storageKey: item.storageKey,
  contentHash: item.contentHash,
  status: item.status,
  statusReason: item.statusReason,
  chunkCount: item.chunkCount,
  createdAt: item.createdAt,
  updatedAt: now,
  ocrPages: JSON.stringify(item.ocrPages),
  ocrFailedPages: JSON.stringify(item.ocrFailedPages),
  madeFrom: item.madeFrom === null ? null : JSON.stringify(item.madeFrom),
});

const RESTORED_COLUMNS = Object.keys(restoredValues(0, {} as RestoredItem, "")) as Array<keyof ReturnType<typeof restoredValues>>;
/** Rows per INSERT on PostgreSQL: 18 parameters each, well under its 65,535. */
const INSERT_SLICE = 1_000;

/** The queries both engines run alike, built on a connection or inside a transaction. */
const queries = (db: Kysely<Database>) => ({
  exportPage: (userId: number, afterId: number, size: number) =>
    db
      .selectFrom("knowledgeItems")
      .leftJoin("knowledgeItemTexts as texts", "texts.itemId", "knowledgeItems.id")
      .select(EXPORTED_COLUMNS)
      .select((eb) => eb.fn.coalesce("texts.content", eb.val("")).as("content"))
      .where("userId", "=", userId)
      .where("id", ">", afterId)
      .orderBy("id")
      .limit(size),
  summary: (userId: number) =>
    db
      .selectFrom("knowledgeItems")
      .select((eb) => ["type", eb.fn.countAll<number>().as("count"), eb.fn.count<number>("conversationId").as("inConversations")])
      .where("userId", "=", userId)
      .groupBy("type"),
  // Parents are detached a batch at a time first, so that deleting one item never cascades into a large subtree
  // inside one statement.
  detachBatch: (userId: number, limit: number) =>
    db
      .updateTable("knowledgeItems")
      .set({ parentId: null })
      .where("id", "in", (eb) => eb.selectFrom("knowledgeItems").select("id").where("userId", "=", userId).where("parentId", "is not", null).limit(limit)),
  deleteBatch: (userId: number, limit: number) =>
    db.deleteFrom("knowledgeItems").where("id", "in", (eb) => eb.selectFrom("knowledgeItems").select("id").where("userId", "=", userId).limit(limit)),
});

/** SQLite's: prepared once, each write one synchronous transaction (no other statement can run inside it). */
export function sqliteKnowledgeBackupRows(store: Pick<Store, "db" | "prepare" | "transaction">): KnowledgeBackupRows {
  const { db } = store;
  const built = queries(db);
  const exportPage = store.prepare((argument) => built.exportPage(argument(0), argument(1), argument(2)));
  const summary = store.prepare((argument) => built.summary(argument(0)));
  const detachBatch = store.prepare((argument) => built.detachBatch(argument(0), argument(1)));
  const deleteBatch = store.prepare((argument) => built.deleteBatch(argument(0), argument(1)));
  const insertRestored = store.prepare<{ id: number }>((argument) =>
    db
      .insertInto("knowledgeItems")
      .values(Object.fromEntries(RESTORED_COLUMNS.map((column, index) => [column, argument(index)])) as ReturnType<typeof restoredValues>)
      .returning("id"),
  );
  const insertText = store.prepare((argument) => db.insertInto("knowledgeItemTexts").values({ itemId: argument<number>(0), content: argument<string>(1) }));
  const setParent = store.prepare((argument) =>
    db
      .updateTable("knowledgeItems")
      .set({ parentId: argument<number>(0) })
      .where("id", "=", argument<number>(1)),
  );
  return {
    summary: async (userId) => toSummary(summary.all(userId)),
    exportPage: async (userId, afterId, size) => exportPage.all(userId, afterId, size).map(toExport),
    emptyStep: async (userId, limit) =>
      store.transaction(() => {
        const detached = detachBatch.run(userId, limit).changes;
        return detached > 0 ? detached : deleteBatch.run(userId, limit).changes;
      }),
    insertRestored: async (userId, items) =>
      store.transaction(() => {
        const now = new Date().toISOString();
        return items.map((item) => {
          const values = restoredValues(userId, item, now);
          const id = insertRestored.get(...RESTORED_COLUMNS.map((column) => values[column]))!.id;
          if (item.content) insertText.run(id, item.content);
          return id;
        });
      }),
    setParents: async (pairs) => store.transaction(() => pairs.forEach((pair) => setParent.run(pair.parentId, pair.id))),
  };
}

/** Every other engine's (PostgreSQL): Kysely, each write in one transaction. */
export function kyselyKnowledgeBackupRows(db: Kysely<Database>): KnowledgeBackupRows {
  const built = queries(db);
  return {
    summary: async (userId) => toSummary(await built.summary(userId).execute()),
    exportPage: async (userId, afterId, size) => (await built.exportPage(userId, afterId, size).execute()).map(toExport),
    emptyStep: (userId, limit) =>
      db.transaction().execute(async (trx) => {
        const inTransaction = queries(trx);
        const detached = Number((await inTransaction.detachBatch(userId, limit).executeTakeFirst()).numUpdatedRows);
        return detached > 0 ? detached : Number((await inTransaction.deleteBatch(userId, limit).executeTakeFirst()).numDeletedRows);
      }),
    async insertRestored(userId, items) {
      if (items.length === 0) return [];
      const now = new Date().toISOString();
      return db.transaction().execute(async (trx) => {
        const ids: number[] = [];
        for (let start = 0; start < items.length; start += INSERT_SLICE) {
          const slice = items.slice(start, start + INSERT_SLICE);
          const rows = await trx
            .insertInto("knowledgeItems")
            .values(slice.map((item) => restoredValues(userId, item, now)))
            .returning("id")
            .execute();
          // One INSERT gives its rows rising ids in the order of its values.
          const sliceIds = rows.map((row) => row.id).sort((a, b) => a - b);
          const texts = slice.flatMap((item, index) => (item.content ? [{ itemId: sliceIds[index]!, content: item.content }] : []));
          if (texts.length) await trx.insertInto("knowledgeItemTexts").values(texts).execute();
          ids.push(...sliceIds);
        }
        return ids;
      });
    },
    // One statement for the batch (a round trip per pair cost a restore of 100,000 items as many).
    async setParents(pairs) {
      for (let start = 0; start < pairs.length; start += INSERT_SLICE) {
        const rows = pairs.slice(start, start + INSERT_SLICE).map((pair) => sql`(${pair.id}::bigint, ${pair.parentId}::bigint)`);
        await sql`UPDATE knowledge_items SET parent_id = pairs.parent_id FROM (VALUES ${sql.join(rows)}) AS pairs(id, parent_id)
          WHERE knowledge_items.id = pairs.id`.execute(db);
      }
    },
  };
}
