import { setImmediate as nextTurn } from "node:timers/promises";
import type { Generated, Kysely } from "kysely";
import type { Database } from "../../../store/schema.ts";
import type { ChunkBackupRow, ChunkInput, ChunkRows, IndexedItem } from "./chunk-store.ts";

/** Rows per INSERT: 7 parameters each, far under PostgreSQL's 65,535; a round trip per few hundred chunks. */
const BATCH = 500;

/** The search index's own table (left out of store/schema.ts, so that only the index reaches it through Kysely). */
interface ChunksTable {
  id: Generated<number>;
  itemId: number;
  userId: number;
  conversationId: number | null;
  position: number;
  source: string;
  content: string;
  createdAt: string;
}
type IndexDatabase = Database & { chunks: ChunksTable };
const withChunks = (db: Kysely<Database>): Kysely<IndexDatabase> => db.withTables<{ chunks: ChunksTable }>();

/** What the chunk store needs of the word index (pg-lexical-index.ts): new chunks are indexed once committed. */
export interface ChunkWordIndex {
  indexChunks(chunkIds: number[]): Promise<void>;
}

/**
 * Lone surrogates as U+FFFD, as SQLite's store writes them (PostgreSQL refuses invalid UTF-8 outright).
 * (String.prototype.toWellFormed is in Node 20; TypeScript's ES2022 library does not declare it.)
 */
const wellFormed = (text: string): string => (text as unknown as { toWellFormed(): string }).toWellFormed();

const rowsFor = (item: IndexedItem, chunks: ChunkInput[], createdAt: string) =>
  chunks.map((chunk) => ({
    itemId: item.id,
    userId: item.userId,
    conversationId: item.conversationId,
    position: chunk.position,
    source: wellFormed(chunk.source),
    content: wellFormed(chunk.content),
    createdAt,
  }));

/**
 * The `chunks` table on PostgreSQL (decision 058): the same answers as SQLite's chunk-store.ts. Its word index is
 * `chunk_terms`, filled after each commit (SQLite's FTS5 tables follow by trigger); rows follow chunks by cascade.
 * A large document commits batch by batch, as on SQLite, so its words become searchable as it is read.
 */
export function createPgChunkStore(database: Kysely<Database>, words: ChunkWordIndex): ChunkRows & PgChunkWrites {
  const db = withChunks(database);
  const insertRows = async (trx: Kysely<IndexDatabase>, rows: ReturnType<typeof rowsFor>) => {
    const ids: number[] = [];
    for (let start = 0; start < rows.length; start += BATCH) {
      const inserted = await trx
        .insertInto("chunks")
        .values(rows.slice(start, start + BATCH))
        .returning("id")
        .execute();
      ids.push(...inserted.map((row) => row.id).sort((a, b) => a - b));
    }
    return ids;
  };

  async function replaceItemChunks(item: IndexedItem, chunks: ChunkInput[] | AsyncIterable<ChunkInput[]>): Promise<number> {
    await db.deleteFrom("chunks").where("itemId", "=", item.id).execute();
    const now = new Date().toISOString();
    let stored = 0;
    for await (const slice of Array.isArray(chunks) ? [chunks] : chunks) {
      for (let start = 0; start < slice.length; start += BATCH) {
        if (stored > 0) await nextTurn();
        const ids = await insertRows(db, rowsFor(item, slice.slice(start, start + BATCH), now));
        await words.indexChunks(ids);
        stored += ids.length;
      }
    }
    return stored;
  }

  return {
    replaceItemChunks,

    /**
     * Many small items in one transaction a few hundred chunks at a time. Their rows are locked first (FOR SHARE),
     * so an item deleted meanwhile is either gone before (null, nothing stored) or deleted after the commit.
     */
    async replaceItemsChunks(entries) {
      const counts: Array<number | null> = [];
      for (let start = 0; start < entries.length;) {
        let end = start;
        for (let chunks = 0; end < entries.length && (end === start || chunks + entries[end]!.chunks.length <= BATCH); end++)
          chunks += entries[end]!.chunks.length;
        const group = entries.slice(start, end);
        if (start > 0) await nextTurn();
        const ids = await db.transaction().execute(async (trx) => {
          const itemIds = group.map((entry) => entry.item.id);
          const kept = new Set((await trx.selectFrom("knowledgeItems").select("id").where("id", "in", itemIds).forShare().execute()).map((row) => row.id));
          await trx.deleteFrom("chunks").where("itemId", "in", itemIds).execute();
          const now = new Date().toISOString();
          for (const entry of group) counts.push(kept.has(entry.item.id) ? entry.chunks.length : null);
          return insertRows(
            trx,
            group.filter((entry) => kept.has(entry.item.id)).flatMap((entry) => rowsFor(entry.item, entry.chunks, now)),
          );
        });
        await words.indexChunks(ids);
        start = end;
      }
      return counts;
    },

    async removeItemChunks(itemId) {
      await db.deleteFrom("chunks").where("itemId", "=", itemId).execute();
    },

    itemPieces: (userId, itemId, after, limit) =>
      db
        .selectFrom("chunks")
        .select(["id", "position", "source", "content"])
        .where("itemId", "=", itemId)
        .where("userId", "=", userId)
        .where((eb) => eb(eb.refTuple("position", "id"), ">", eb.tuple(after?.position ?? -1, after?.id ?? -1)))
        .orderBy("position")
        .orderBy("id")
        .limit(limit)
        .execute(),

    countForUser: async (userId) =>
      Number(
        (
          await db
            .selectFrom("chunks")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("userId", "=", userId)
            .executeTakeFirstOrThrow()
        ).n,
      ),

    async details(chunkIds) {
      if (chunkIds.length === 0) return [];
      const rows = await db
        .selectFrom("chunks as c")
        .innerJoin("knowledgeItems as ki", "ki.id", "c.itemId")
        .leftJoin("conversations as cv", "cv.id", "c.conversationId")
        .select(["c.id as chunkId", "c.itemId", "c.content", "c.source", "ki.name as filename", "ki.type as itemType", "ki.mimeType", "ki.madeFrom"])
        .where("c.id", "in", chunkIds)
        .where("cv.deletedAt", "is", null)
        .execute();
      const byId = new Map(rows.map((row) => [row.chunkId, row]));
      return chunkIds.flatMap((id) => byId.get(id) ?? []);
    },

    exportPage: async (userId, afterId, size) =>
      (
        await db
          .selectFrom("chunks")
          .select(["id", "itemId", "position", "source", "content"])
          .where("userId", "=", userId)
          .where("id", ">", afterId)
          .orderBy("id")
          .limit(size)
          .execute()
      ).map((row): ChunkBackupRow => ({ id: row.id, item_id: row.itemId, position: row.position, source: row.source, content: row.content })),

    async deleteUserBatch(userId, limit) {
      const result = await db
        .deleteFrom("chunks")
        .where("id", "in", (eb) => eb.selectFrom("chunks").select("id").where("userId", "=", userId).limit(limit))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    indexChunks: (chunkIds) => words.indexChunks(chunkIds),
  };
}

/** PostgreSQL's own: a restore's deletes (their words and vectors go by cascade), and indexing chunks written elsewhere. */
export interface PgChunkWrites {
  deleteUserBatch(userId: number, limit: number): Promise<number>;
  indexChunks(chunkIds: number[]): Promise<void>;
}
