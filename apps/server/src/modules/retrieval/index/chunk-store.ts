import { setImmediate as nextTurn } from "node:timers/promises";
import type BetterSqlite3 from "better-sqlite3";
import { createLexicalIndex, type LexicalIndex } from "./lexical-index.ts";
import { createLexicalMerges, type LexicalMerges } from "./lexical-merges.ts";

/** One piece of an item's text as ingestion cut it; `source` is where it came from ('page 3', a heading). */
export interface ChunkInput {
  position: number;
  source: string;
  content: string;
}

export interface IndexedItem {
  id: number;
  userId: number;
  conversationId: number | null;
}

export interface ChunkDetails {
  chunkId: number;
  itemId: number;
  content: string;
  source: string;
  filename: string;
  itemType: string;
  mimeType: string | null;
  /** A file SAGE generated: the names of its sources (JSON array); null otherwise. */
  madeFrom: string | null;
}

/** A chunk as a backup carries it: the item and chunk ids are the exporting store's. */
export interface ChunkBackupRow {
  id: number;
  item_id: number;
  position: number;
  source: string;
  content: string;
}

/** A chunk as a restore writes it back, under its item's new id. */
export interface RestoredChunk {
  itemId: number;
  conversationId: number | null;
  position: number;
  source: string;
  content: string;
}

// Each batch is sized to take about SLICE_MS of the server's thread (FTS included), so other requests wait at most
// that long: on a loaded machine a fixed 100 rows took 50-100 ms of wall time, on a quiet one 10-20 ms. Every commit
// also flushes an FTS segment, so batches grow again (up to MAX_BATCH) when the machine is quiet. 12 rather than 8:
// a third fewer commits (and FTS merges) for the same text, and /api/health's p99 during a large ingest stayed at
// 30-31 ms (docs/benchmarks.md).
const SLICE_MS = 12;
const FIRST_BATCH = 100;
const MIN_BATCH = 10;
const MAX_BATCH = 400;
// An item still being stored after this many commits is large: its own writes then pay FTS5's merges as they go.
// A note of 1 MB commits 6-8 times.
const LARGE_ITEM_COMMITS = 16;

/**
 * What the rest of SAGE reads and writes of the search index's chunks, alike on both engines (SQLite's chunk-store.ts,
 * PostgreSQL's pg-chunk-store.ts). Every read is scoped by the owning user, except `details` (its ids come from the
 * user's own search).
 */
export interface ChunkRows {
  /** Replaces an item's chunks (they may come as slices while the document is read); answers how many it now has. */
  replaceItemChunks(item: IndexedItem, chunks: ChunkInput[] | AsyncIterable<ChunkInput[]>): Promise<number>;
  /** Many small items (a batch of mails): each one's chunk count, or null for an item deleted meanwhile. */
  replaceItemsChunks(entries: Array<{ item: IndexedItem; chunks: ChunkInput[] }>): Promise<Array<number | null>>;
  removeItemChunks(itemId: number): Promise<void>;
  /**
   * A page of an item's chunks in document order (each may begin with the end of the one before), with where each
   * came from ('page 3', a sheet, a heading), after the chunk `after` (null: from the start). Read a page at a time:
   * a 50 MB text is 60,000 chunks, too many to read in one go on the event loop (issue 52).
   */
  itemPieces(userId: number, itemId: number, after: PieceKey | null, limit: number): Promise<ItemPiece[]>;
  countForUser(userId: number): Promise<number>;
  /** Chunk texts and their items' names, in the order of the ids given; a deleted conversation's are left out (decision 035). */
  details(chunkIds: number[]): Promise<ChunkDetails[]>;
  /** The user's chunks as backup rows, a page at a time, after the given chunk id. */
  exportPage(userId: number, afterId: number, size: number): Promise<ChunkBackupRow[]>;
}

/** Where a chunk stands in its item: pages of an item's chunks continue after the last one's key. */
export interface PieceKey {
  position: number;
  id: number;
}

export interface ItemPiece extends PieceKey {
  source: string;
  content: string;
}

/** The next batch's size: what should take SLICE_MS at the pace the last one went, within bounds. */
function nextSize(size: number, stored: number, tookMs: number): number {
  const pace = (Math.max(stored, 1) * SLICE_MS) / Math.max(tookMs, 0.1);
  return Math.round(Math.min(MAX_BATCH, Math.max(MIN_BATCH, pace, size / 2), size * 2));
}

/**
 * The `chunks` table: the search index's copy of each item's text (the user's FTS table follows it by trigger, taking
 * the item's name as the title). Written only here; items themselves belong to the knowledge module.
 */
export function createChunkStore(
  sqlite: BetterSqlite3.Database,
  lexical: LexicalIndex = createLexicalIndex(sqlite),
  merges: LexicalMerges = createLexicalMerges(lexical),
): ChunkRows & SqliteChunkWrites {
  const deleteForItem = sqlite.prepare("DELETE FROM chunks WHERE item_id = ?");
  const insert = sqlite.prepare("INSERT INTO chunks (item_id, user_id, conversation_id, position, source, content, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
  const countForUser = sqlite.prepare("SELECT count(*) AS n FROM chunks WHERE user_id = ?");
  const itemPieces = sqlite.prepare(
    "SELECT id, position, source, content FROM chunks WHERE item_id = ? AND user_id = ? AND (position, id) > (?, ?) ORDER BY position, id LIMIT ?",
  );
  const exportPage = sqlite.prepare("SELECT id, item_id, position, source, content FROM chunks WHERE user_id = ? AND id > ? ORDER BY id LIMIT ?");
  const deleteUserBatch = sqlite.prepare("DELETE FROM chunks WHERE id IN (SELECT id FROM chunks WHERE user_id = ? LIMIT ?)");
  const detailStatements = new Map<number, BetterSqlite3.Statement>();
  // A batch goes in as one statement: the user's FTS table follows by trigger, and FTS5 flushes its pending terms
  // at every statement savepoint, so row by row each chunk became an FTS segment of its own (merged again later).
  // The rows are first staged, one prepared insert each, in a temporary table of this connection (no triggers, no
  // other connection sees it) and then moved by one INSERT ... SELECT. A JSON array unpacked by json_each did the
  // same in one statement, but parsing it cost 15% more than the whole insert (docs/benchmarks.md).
  sqlite.exec("CREATE TEMP TABLE IF NOT EXISTS chunk_batch (position INTEGER NOT NULL, source TEXT NOT NULL, content TEXT NOT NULL)");
  const stage = sqlite.prepare("INSERT INTO temp.chunk_batch (position, source, content) VALUES (?, ?, ?)");
  const moveStaged = sqlite.prepare(
    `INSERT INTO chunks (item_id, user_id, conversation_id, position, source, content, created_at)
     SELECT ?, ?, ?, position, source, content, ? FROM temp.chunk_batch ORDER BY rowid`,
  );
  const clearStaged = sqlite.prepare("DELETE FROM temp.chunk_batch");
  // Many small items (a batch of mails) are staged with their item columns and moved by one statement too.
  sqlite.exec(
    `CREATE TEMP TABLE IF NOT EXISTS chunk_items_batch (item_id INTEGER NOT NULL, user_id INTEGER NOT NULL, conversation_id INTEGER,
       position INTEGER NOT NULL, source TEXT NOT NULL, content TEXT NOT NULL)`,
  );
  const stageForItem = sqlite.prepare(
    "INSERT INTO temp.chunk_items_batch (item_id, user_id, conversation_id, position, source, content) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const moveStagedItems = sqlite.prepare(
    `INSERT INTO chunks (item_id, user_id, conversation_id, position, source, content, created_at)
     SELECT item_id, user_id, conversation_id, position, source, content, ? FROM temp.chunk_items_batch ORDER BY rowid`,
  );
  const clearStagedItems = sqlite.prepare("DELETE FROM temp.chunk_items_batch");
  const itemExists = sqlite.prepare("SELECT 1 FROM knowledge_items WHERE id = ?").pluck();
  /** Replaces the chunks of items that still exist; answers each one's count, or null for one deleted meanwhile. */
  const insertItemsBatch = sqlite.transaction((entries: Array<{ item: IndexedItem; chunks: ChunkInput[] }>, now: string) => {
    const counts = entries.map(({ item, chunks }) => {
      if (!itemExists.get(item.id)) return null;
      deleteForItem.run(item.id);
      for (const chunk of chunks)
        stageForItem.run(item.id, item.userId, item.conversationId, chunk.position, wellFormed(chunk.source), wellFormed(chunk.content));
      return chunks.length;
    });
    moveStagedItems.run(now);
    clearStagedItems.run();
    return counts;
  });
  // The chunks a batch of small items commits at once, learnt as replaceItemChunks learns its size, and kept from one
  // batch to the next: 400 at once held the server 40-100 ms while a mailbox was read.
  let manySize = FIRST_BATCH;
  const insertBatch = sqlite.transaction((item: IndexedItem, chunks: ChunkInput[], now: string) => {
    for (const chunk of chunks) stage.run(chunk.position, wellFormed(chunk.source), wellFormed(chunk.content));
    moveStaged.run(item.id, item.userId, item.conversationId, now);
    clearStaged.run();
  });

  /**
   * Replaces an item's chunks; returns how many it now has. One transaction for a large document would hold the
   * only SQLite connection (and every other request) for seconds, so batches commit on their own with a yield to
   * the event loop between them. The chunks may come as slices while the document is still being read (an async
   * iterable); they are stored as they come. The item stays queued or processing until ingestion marks it
   * ready, and a job resumed after a crash starts again from the delete.
   */
  async function replaceItemChunks(item: IndexedItem, chunks: ChunkInput[] | AsyncIterable<ChunkInput[]>): Promise<number> {
    lexical.ensure(item.userId);
    const write = merges.beginWrite(item.userId);
    try {
      deleteForItem.run(item.id);
      const now = new Date().toISOString();
      let size = FIRST_BATCH;
      let stored = 0;
      let commits = 0;
      let pending: ChunkInput[] = [];
      const store = async (upTo: number) => {
        let start = 0;
        while (pending.length - start >= upTo) {
          if (stored > 0) await nextTurn();
          const startedAt = performance.now();
          const batch = pending.slice(start, start + size);
          insertBatch(item, batch, now);
          if (++commits === LARGE_ITEM_COMMITS) write.large();
          start += batch.length;
          stored += batch.length;
          size = nextSize(size, batch.length, performance.now() - startedAt);
          upTo = Math.min(upTo, size);
        }
        pending = pending.slice(start);
      };
      for await (const slice of Array.isArray(chunks) ? [chunks] : chunks) {
        pending = pending.length === 0 ? slice : pending.concat(slice);
        await store(size);
      }
      await store(1);
      return stored;
    } finally {
      write.end();
    }
  }

  return {
    replaceItemChunks,

    /**
     * Replaces the chunks of many small items (a batch of mails) a few hundred chunks to a transaction, one
     * statement each: per item, the commits and FTS segments cost more than the text. An item too large for that
     * goes alone, as replaceItemChunks stores it. Answers each item's chunk count, or null for an item deleted
     * meanwhile (nothing is stored for it).
     */
    async replaceItemsChunks(entries: Array<{ item: IndexedItem; chunks: ChunkInput[] }>): Promise<Array<number | null>> {
      const counts: Array<number | null> = [];
      let group: typeof entries = [];
      let groupChunks = 0;
      const commit = async () => {
        if (group.length === 0) return;
        const users = [...new Set(group.map(({ item }) => item.userId))];
        const writes = users.map((userId) => {
          lexical.ensure(userId);
          return merges.beginWrite(userId);
        });
        try {
          if (counts.length > 0) await nextTurn();
          const startedAt = performance.now();
          counts.push(...insertItemsBatch(group, new Date().toISOString()));
          manySize = nextSize(manySize, groupChunks, performance.now() - startedAt);
        } finally {
          for (const write of writes) write.end();
        }
        group = [];
        groupChunks = 0;
      };
      for (const entry of entries) {
        if (entry.chunks.length > manySize) {
          await commit();
          if (counts.length > 0) await nextTurn();
          try {
            counts.push(await replaceItemChunks(entry.item, entry.chunks));
          } catch (error) {
            // Deleted while its batches went in (its rows went with it): as for the others, nothing is stored.
            if (itemExists.get(entry.item.id)) throw error;
            counts.push(null);
          }
          continue;
        }
        if (groupChunks + entry.chunks.length > manySize) await commit();
        group.push(entry);
        groupChunks += entry.chunks.length;
      }
      await commit();
      return counts;
    },

    async removeItemChunks(itemId) {
      deleteForItem.run(itemId);
    },

    itemPieces: async (userId, itemId, after, limit) => itemPieces.all(itemId, userId, after?.position ?? -1, after?.id ?? -1, limit) as ItemPiece[],

    countForUser: async (userId) => (countForUser.get(userId) as { n: number }).n,

    async details(chunkIds) {
      if (chunkIds.length === 0) return [];
      let statement = detailStatements.get(chunkIds.length);
      if (!statement) {
        statement = sqlite.prepare(
          `SELECT c.id AS chunkId, c.item_id AS itemId, c.content, c.source, ki.name AS filename,
                  ki.type AS itemType, ki.mime_type AS mimeType, ki.made_from AS madeFrom
           FROM chunks c JOIN knowledge_items ki ON ki.id = c.item_id
           LEFT JOIN conversations cv ON cv.id = c.conversation_id
           WHERE c.id IN (${chunkIds.map(() => "?").join(",")}) AND cv.deleted_at IS NULL`,
        );
        if (detailStatements.size < 64) detailStatements.set(chunkIds.length, statement);
      }
      const byId = new Map((statement.all(...chunkIds) as ChunkDetails[]).map((row) => [row.chunkId, row]));
      return chunkIds.flatMap((id) => byId.get(id) ?? []);
    },

    exportPage: async (userId, afterId, size) => exportPage.all(userId, afterId, size) as ChunkBackupRow[],

    /** Inserts restored chunks (synchronous, inside the caller's transaction); answers their new ids in order. */
    insertRestored(userId: number, rows: RestoredChunk[]): number[] {
      lexical.ensure(userId);
      merges.changed(userId);
      const now = new Date().toISOString();
      return rows.map((row) => Number(insert.run(row.itemId, userId, row.conversationId, row.position, row.source, row.content, now).lastInsertRowid));
    },

    /**
     * Deletes up to `limit` of the user's chunks (their vectors go by cascade, FTS rows by trigger); answers how
     * many went. A restore empties a user's index this way, a short transaction at a time.
     */
    deleteUserBatch(userId: number, limit: number): number {
      merges.changed(userId);
      return deleteUserBatch.run(userId, limit).changes;
    },

    /**
     * Rebuilds a user's FTS table from their chunks (every user's when no id is given): a table written behind
     * the triggers' back, or one whose totals drifted, starts exact again. Other users' tables are left alone.
     */
    rebuildLexicalIndex(userId?: number): void {
      for (const user of userId === undefined ? lexical.users() : [userId]) {
        lexical.rebuild(user);
        merges.changed(user);
      }
    },
  };
}

/** SQLite's own writes, run inside the backup's synchronous transactions, and its FTS5 upkeep. */
export interface SqliteChunkWrites {
  /** Inserts restored chunks (synchronous, inside the caller's transaction); answers their new ids in order. */
  insertRestored(userId: number, rows: RestoredChunk[]): number[];
  /** Deletes up to `limit` of the user's chunks (synchronous); answers how many went. */
  deleteUserBatch(userId: number, limit: number): number;
  /** Rebuilds a user's FTS table from their chunks (every user's when no id is given). */
  rebuildLexicalIndex(userId?: number): void;
}

export type ChunkStore = ReturnType<typeof createChunkStore>;

/**
 * Lone surrogates as U+FFFD: bound as it is, a lone surrogate is stored as three bytes of invalid UTF-8 (ED B0 80
 * for U+DC00). (String.prototype.toWellFormed is in Node 20; TypeScript's ES2022 library does not declare it.)
 */
const wellFormed = (text: string): string => (text as unknown as { toWellFormed(): string }).toWellFormed();
