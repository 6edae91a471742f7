import type BetterSqlite3 from "better-sqlite3";
import { registerSearchText, SEARCH_TEXT_FUNCTION as TEXT } from "./search-text.ts";

/**
 * FTS5 merges a level's segments once it holds this many (the default is 4; each commit adds a segment). 8 wrote
 * less in batched ingestion than 4 and 16 (docs/benchmarks.md).
 */
const MERGE_FANOUT = 8;
/**
 * automerge off: a write pays no merges, so a short note after a large file no longer pays the file's (it took
 * twice as long for them). FTS5's crisis merge (a level at 16 segments) still bounds the segments a query reads.
 */
const IDLE_AUTOMERGE = 0;
/**
 * How a user's table holds text; `lexical_users.text_form` records it. 1: the text as written, split by unicode61
 * (an accent typed in a query split the word, CJK runs were one token). 2: searchText's form (search-text.ts), and
 * combining marks are word characters (Devanagari and Thai words are not cut at their vowel signs).
 */
const TEXT_FORM = 2;
const TOKENIZE = "porter unicode61 remove_diacritics 2 categories ''L* N* Co M*''";

/**
 * One FTS5 table per user, so BM25's statistics (row count, average length, each term's document count) are
 * counted over that user's chunks alone: a user's scores never depend on what another user holds (migration 0750).
 * `chunks` stays the one source of truth; each user's table follows it by triggers that fire only for that user's
 * rows, made with the table. A chunk written before its user's table existed waits in `lexical_pending` and is
 * indexed by `prepare` (before a search) or `ensure` (before a write).
 */
export function createLexicalIndex(sqlite: BetterSqlite3.Database) {
  registerSearchText(sqlite);
  const known = new Set((sqlite.prepare("SELECT user_id AS userId FROM lexical_users").all() as { userId: number }[]).map((row) => row.userId));
  const hasPending = sqlite.prepare("SELECT 1 FROM lexical_pending WHERE user_id = ? LIMIT 1").pluck();
  const pendingUsers = sqlite.prepare("SELECT DISTINCT user_id FROM lexical_pending").pluck();
  const clearPending = sqlite.prepare("DELETE FROM lexical_pending WHERE user_id = ?");
  const register = sqlite.prepare(`INSERT INTO lexical_users (user_id, text_form) VALUES (?, ${TEXT_FORM})`);
  const registered = sqlite.prepare("SELECT 1 FROM lexical_users WHERE user_id = ?").pluck();
  const totalChanges = sqlite.prepare("SELECT total_changes()").pluck();

  const outdated = sqlite.prepare(`SELECT user_id FROM lexical_users WHERE text_form <> ${TEXT_FORM} ORDER BY user_id`).pluck();
  const markCurrent = sqlite.prepare(`UPDATE lexical_users SET text_form = ${TEXT_FORM} WHERE user_id = ?`);

  function createTable(userId: number) {
    const table = lexicalTable(userId);
    sqlite.exec(`
      CREATE VIRTUAL TABLE ${table} USING fts5(
        title, content, content = '', contentless_delete = 1, tokenize = '${TOKENIZE}'
      );
      INSERT INTO ${table}(${table}, rank) VALUES ('automerge', ${IDLE_AUTOMERGE});
      INSERT INTO ${table}(${table}, rank) VALUES ('usermerge', ${MERGE_FANOUT});
      CREATE VIRTUAL TABLE ${table}_vocab USING fts5vocab(${table}, 'row');
      CREATE TRIGGER ${table}_insert AFTER INSERT ON chunks WHEN new.user_id = ${userId} BEGIN
        INSERT INTO ${table}(rowid, title, content) SELECT new.id, ${TEXT}(ki.name), ${TEXT}(new.content) FROM knowledge_items ki WHERE ki.id = new.item_id;
      END;
      CREATE TRIGGER ${table}_delete AFTER DELETE ON chunks WHEN old.user_id = ${userId} BEGIN
        DELETE FROM ${table} WHERE rowid = old.id;
      END;
      CREATE TRIGGER ${table}_rename AFTER UPDATE OF name ON knowledge_items WHEN new.user_id = ${userId} AND new.name IS NOT old.name BEGIN
        DELETE FROM ${table} WHERE rowid IN (SELECT id FROM chunks WHERE item_id = new.id);
        INSERT INTO ${table}(rowid, title, content) SELECT id, ${TEXT}(new.name), ${TEXT}(content) FROM chunks WHERE item_id = new.id;
      END;
    `);
  }

  const create = sqlite.transaction((userId: number) => {
    // Another connection or instance may have made it since this one started.
    if (registered.get(userId) !== undefined) return;
    createTable(userId);
    register.run(userId);
    indexPendingOf(userId);
  });

  /**
   * A table made before its text form changed is made again and filled from the user's chunks, in one transaction:
   * `chunks` is the index's source, so nothing a user saved is touched, and a crash part-way leaves the old table.
   */
  const remake = sqlite.transaction((userId: number) => {
    const table = lexicalTable(userId);
    sqlite.exec(`
      DROP TRIGGER IF EXISTS ${table}_insert;
      DROP TRIGGER IF EXISTS ${table}_delete;
      DROP TRIGGER IF EXISTS ${table}_rename;
      DROP TABLE IF EXISTS ${table}_vocab;
      DROP TABLE IF EXISTS ${table};
    `);
    createTable(userId);
    fill(userId);
    clearPending.run(userId);
    markCurrent.run(userId);
  });

  function fill(userId: number) {
    const table = lexicalTable(userId);
    sqlite
      .prepare(
        `INSERT INTO ${table}(rowid, title, content)
         SELECT c.id, ${TEXT}(ki.name), ${TEXT}(c.content) FROM chunks c JOIN knowledge_items ki ON ki.id = c.item_id WHERE c.user_id = ? ORDER BY c.id`,
      )
      .run(userId);
  }

  function indexPendingOf(userId: number) {
    const table = lexicalTable(userId);
    sqlite
      .prepare(
        `INSERT INTO ${table}(rowid, title, content)
         SELECT c.id, ${TEXT}(ki.name), ${TEXT}(c.content) FROM lexical_pending p
         JOIN chunks c ON c.id = p.chunk_id JOIN knowledge_items ki ON ki.id = c.item_id
         WHERE p.user_id = ? ORDER BY c.id`,
      )
      .run(userId);
    clearPending.run(userId);
  }

  const catchUp = sqlite.transaction((userId: number) => indexPendingOf(userId));

  function ensure(userId: number): string {
    if (!known.has(userId)) {
      create(userId);
      known.add(userId);
    }
    return lexicalTable(userId);
  }

  function exists(userId: number): boolean {
    if (!known.has(userId) && registered.get(userId) !== undefined) known.add(userId);
    return known.has(userId);
  }

  function setConfig(userId: number, key: "automerge" | "usermerge", value: number) {
    const table = lexicalTable(userId);
    const current = sqlite.prepare(`SELECT v FROM ${table}_config WHERE k = ?`).pluck().get(key);
    if (current !== value) sqlite.prepare(`INSERT INTO ${table}(${table}, rank) VALUES ('${key}', ${value})`).run();
  }
  // Tables made before the text form changed are made again (on the first connection that opens the store).
  for (const userId of outdated.all() as number[]) remake(userId);
  // Tables made before merges moved out of the writes (or left mid-way by a crash) take the idle policy.
  for (const userId of known) {
    setConfig(userId, "automerge", IDLE_AUTOMERGE);
    setConfig(userId, "usermerge", MERGE_FANOUT);
  }

  return {
    ensure,

    /**
     * FTS5's automerge for the user's table: on while a large item is written (its own writes pay its merges as it
     * goes), off otherwise (merges wait for `mergeStep` in idle time; see lexical-merges.ts).
     */
    mergeWhileWriting(userId: number, on: boolean): void {
      if (exists(userId)) setConfig(userId, "automerge", on ? MERGE_FANOUT : IDLE_AUTOMERGE);
    },

    /**
     * One step of the merges automerge would make: a merge under way, or one of a level that holds MERGE_FANOUT
     * segments; at most `pages` leaf pages written. Answers whether there was work (a step that finds none
     * changes fewer than 2 rows, as FTS5 documents).
     */
    mergeStep(userId: number, pages = 64): boolean {
      if (!exists(userId)) return false;
      const table = lexicalTable(userId);
      const before = totalChanges.get() as number;
      sqlite.prepare(`INSERT INTO ${table}(${table}, rank) VALUES ('merge', ${Math.max(1, Math.floor(pages))})`).run();
      return (totalChanges.get() as number) - before >= 2;
    },

    /** The user's table, brought up to date, before a search; null when the user has never had a chunk. */
    prepare(userId: number): string | null {
      if (hasPending.get(userId) !== undefined) {
        if (exists(userId)) catchUp(userId);
        else ensure(userId);
      }
      return exists(userId) ? lexicalTable(userId) : null;
    },

    /** Indexes every waiting chunk: at start-up, this takes in what migration 0750 moved out of the shared table. */
    indexAllPending(): number {
      const users = pendingUsers.all() as number[];
      for (const userId of users) {
        if (exists(userId)) catchUp(userId);
        else ensure(userId);
      }
      return users.length;
    },

    /**
     * Empties the user's table and fills it again from their chunks: the row count and average lengths a
     * contentless_delete table keeps (fts-totals.ts) start exact again. Synchronous, for the caller's transaction.
     */
    rebuild(userId: number): void {
      const table = ensure(userId);
      sqlite.prepare(`INSERT INTO ${table}(${table}) VALUES ('delete-all')`).run();
      fill(userId);
    },

    /** Users with a table of their own. */
    users(): number[] {
      return [...known].sort((a, b) => a - b);
    },
  };
}

export type LexicalIndex = ReturnType<typeof createLexicalIndex>;

/** The user's FTS5 table; the id goes into SQL text, so it must be a plain whole number. */
export function lexicalTable(userId: number): string {
  if (!Number.isSafeInteger(userId) || userId < 0) throw new Error(`not a user id: ${userId}`);
  return `chunks_fts_${userId}`;
}
