import { cpSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { openStore, type Store } from "../../../store/open-store.ts";
import { insertKnowledge } from "../retrieval-test-helpers.ts";
import { createChunkStore } from "./chunk-store.ts";
import { createLexicalIndex, lexicalTable } from "./lexical-index.ts";
import { createLexicalSearch } from "./lexical-search.ts";
import { queryTerms } from "./query-terms.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function open(migrationsDir?: string, dataDir?: string): Store {
  const dir = dataDir ?? tempDir();
  const store = openStore({ dataDir: dir, migrationsDir });
  cleanups.push(() => store.close());
  return store;
}
function tempDir(): string {
  const temp = makeTempDir();
  cleanups.push(() => temp.remove());
  return temp.dir;
}
function addUsers(store: Store) {
  store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'demo', 'x', 'x'), (4, 'other', 'x', 'x')").run();
}
const matches = (store: Store, userId: number, query: string) =>
  (
    store.sqlite.prepare(`SELECT rowid FROM ${lexicalTable(userId)} WHERE ${lexicalTable(userId)} MATCH ? ORDER BY rowid`).all(query) as { rowid: number }[]
  ).map((row) => row.rowid);

describe("per-user full-text index", () => {
  it("keeps each user's table in step with their chunks: insert, rename, cascade delete", async () => {
    const store = open();
    addUsers(store);
    const index = createLexicalIndex(store.sqlite);
    index.ensure(3);
    index.ensure(4);
    const mine = insertKnowledge(store.sqlite, { userId: 3, name: "Budget plan", chunks: ["quarterly revenue forecasts"] });
    const theirs = insertKnowledge(store.sqlite, { userId: 4, name: "Budget notes", chunks: ["revenue forecast for the shop"] });
    expect(matches(store, 3, "forecast")).toEqual(mine.chunkIds); // porter stemming; the other user's row is elsewhere
    expect(matches(store, 4, "forecast")).toEqual(theirs.chunkIds);
    expect(matches(store, 3, "title:budget")).toEqual(mine.chunkIds);
    store.sqlite.prepare("UPDATE knowledge_items SET name = 'Hiring plan' WHERE id = ?").run(mine.itemId);
    expect(matches(store, 3, "title:budget")).toEqual([]);
    expect(matches(store, 3, "title:hiring")).toEqual(mine.chunkIds);
    expect(matches(store, 4, "title:budget")).toEqual(theirs.chunkIds);
    store.sqlite.prepare("DELETE FROM knowledge_items WHERE id = ?").run(mine.itemId);
    expect(matches(store, 3, "forecast")).toEqual([]);
    expect(matches(store, 4, "forecast")).toEqual(theirs.chunkIds);
  });

  it("indexes chunks written before their user had a table, before that user's next search", async () => {
    const store = open();
    addUsers(store);
    const early = insertKnowledge(store.sqlite, { userId: 3, name: "early.txt", chunks: ["kumquat harvest", "kumquat jam"] });
    const gone = insertKnowledge(store.sqlite, { userId: 3, name: "gone.txt", chunks: ["kumquat tart"] });
    store.sqlite.prepare("DELETE FROM knowledge_items WHERE id = ?").run(gone.itemId);
    expect(store.sqlite.prepare("SELECT count(*) FROM lexical_pending").pluck().get()).toBe(2);
    const hits = createLexicalSearch(store.sqlite)(["kumquat"], { userId: 3 }, 10);
    expect(hits.map((hit) => hit.chunkId).sort()).toEqual(early.chunkIds);
    expect(store.sqlite.prepare("SELECT count(*) FROM lexical_pending").pluck().get()).toBe(0);
    expect(createLexicalSearch(store.sqlite)(["kumquat"], { userId: 4 }, 10)).toEqual([]);
  });

  it("rebuilds one user's table without touching another's", async () => {
    const store = open();
    addUsers(store);
    const chunks = createChunkStore(store.sqlite);
    const mine = insertKnowledge(store.sqlite, { userId: 3, name: "a.txt", chunks: [] });
    const theirs = insertKnowledge(store.sqlite, { userId: 4, name: "b.txt", chunks: [] });
    await chunks.replaceItemChunks({ id: mine.itemId, userId: 3, conversationId: null }, [{ position: 0, source: "", content: "plum orchard" }]);
    await chunks.replaceItemChunks({ id: theirs.itemId, userId: 4, conversationId: null }, [{ position: 0, source: "", content: "plum pudding" }]);
    const before = store.sqlite
      .prepare(`SELECT count(*) FROM ${lexicalTable(4)}_data`)
      .pluck()
      .get();
    // Written behind the index's back (the trigger dropped), so only a rebuild can find it.
    store.sqlite.exec(`DROP TRIGGER ${lexicalTable(3)}_insert`);
    insertKnowledge(store.sqlite, { userId: 3, name: "c.txt", chunks: ["plum brandy"] });
    expect(matches(store, 3, "plum")).toHaveLength(1);
    chunks.rebuildLexicalIndex(3);
    expect(matches(store, 3, "plum")).toHaveLength(2);
    expect(
      store.sqlite
        .prepare(`SELECT count(*) FROM ${lexicalTable(4)}_data`)
        .pluck()
        .get(),
    ).toBe(before);
    expect(matches(store, 4, "plum")).toHaveLength(1);
  });

  it("stores a long document's chunks in order, each findable under its item's name, whatever characters they hold", async () => {
    const store = open();
    addUsers(store);
    const chunks = createChunkStore(store.sqlite);
    const item = insertKnowledge(store.sqlite, { userId: 3, name: "Board minutes", chunks: [] });
    const texts = Array.from({ length: 1_200 }, (_, position) => `Paragraph ${position}: the board met on day ${position} of the year.`);
    texts[7] = 'Příliš žluťoučký kůň — "quoted", a back\\slash, a tab\tand emoji 🦊';
    texts[8] = "A broken pair \uD83D here stays readable";
    await chunks.replaceItemChunks(
      { id: item.itemId, userId: 3, conversationId: null },
      texts.map((content, position) => ({ position, source: `part ${Math.floor(position / 100) + 1}`, content })),
    );
    const stored = store.sqlite.prepare("SELECT id, position, source, content FROM chunks WHERE item_id = ? ORDER BY id").all(item.itemId) as {
      id: number;
      position: number;
      source: string;
      content: string;
    }[];
    expect(stored.map((row) => row.position)).toEqual(texts.map((_, position) => position));
    expect(stored[250]!.source).toBe("part 3");
    expect(stored[7]!.content).toBe(texts[7]);
    expect(stored[8]!.content).toBe("A broken pair \uFFFD here stays readable");
    expect(matches(store, 3, "žluťoučký")).toEqual([stored[7]!.id]);
    expect(matches(store, 3, "readable")).toEqual([stored[8]!.id]);
    expect(matches(store, 3, "title:minutes")).toHaveLength(1_200);
  });

  it("stores a document's chunks as the reader hands them over, before it has finished, and fails with the reader", async () => {
    const store = open();
    addUsers(store);
    const chunks = createChunkStore(store.sqlite);
    const item = insertKnowledge(store.sqlite, { userId: 3, name: "Long report", chunks: [] });
    const count = () => store.sqlite.prepare("SELECT count(*) FROM chunks WHERE item_id = ?").pluck().get(item.itemId) as number;
    const slice = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, index) => ({ position: from + index, source: "", content: `finding number ${from + index}` }));

    let readRest!: () => void;
    const restRead = new Promise<void>((resolve) => (readRest = resolve));
    async function* reader() {
      yield slice(0, 500);
      await restRead;
      yield slice(500, 730);
    }
    const storing = chunks.replaceItemChunks({ id: item.itemId, userId: 3, conversationId: null }, reader());
    // Stored while the rest is still being read: the slice's full batches (at least the first, of 100); what is left
    // under a batch's size waits for the next slice, and batch sizes follow the machine's pace (a loaded CI left 37).
    await expect.poll(count).toBeGreaterThanOrEqual(100);
    expect(count()).toBeLessThanOrEqual(500);
    readRest();
    await expect(storing).resolves.toBe(730);
    const positions = store.sqlite.prepare("SELECT position FROM chunks WHERE item_id = ? ORDER BY id").pluck().all(item.itemId);
    expect(positions).toEqual(slice(0, 730).map((chunk) => chunk.position));

    async function* failingReader() {
      yield slice(0, 50);
      throw new Error("The document took too long to process");
    }
    const again = chunks.replaceItemChunks({ id: item.itemId, userId: 3, conversationId: null }, failingReader());
    await expect(again).rejects.toThrow("The document took too long to process");
  });

  it("moves a store from the shared index to per-user tables when it is upgraded, keeping every chunk findable", async () => {
    const dataDir = tempDir();
    const allMigrations = fileURLToPath(new URL("../../../store/migrations/", import.meta.url));
    const older = path.join(tempDir(), "migrations");
    mkdirSync(older);
    for (const file of readdirSync(allMigrations).filter((name) => name < "0750")) cpSync(path.join(allMigrations, file), path.join(older, file));
    const before = openStore({ dataDir, migrationsDir: older });
    addUsers(before);
    const mine = insertKnowledge(before.sqlite, { userId: 3, name: "mine.txt", chunks: ["persimmon orchard", "persimmon cake"] });
    insertKnowledge(before.sqlite, { userId: 4, name: "theirs.txt", chunks: ["persimmon pudding"] });
    expect(before.sqlite.prepare("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'persimmon'").pluck().get()).toBe(3);
    await before.close();

    const after = open(undefined, dataDir);
    expect(after.sqlite.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'chunks_fts'").pluck().get()).toBe(0);
    expect(createLexicalIndex(after.sqlite).indexAllPending()).toBe(2);
    expect(matches(after, 3, "persimmon")).toEqual(mine.chunkIds);
    expect(matches(after, 4, "persimmon")).toHaveLength(1);
  });

  it("makes a table that holds the text as written again at start-up, so accents and CJK are found, without losing a chunk", async () => {
    const dataDir = tempDir();
    const allMigrations = fileURLToPath(new URL("../../../store/migrations/", import.meta.url));
    const older = path.join(tempDir(), "migrations");
    mkdirSync(older);
    for (const file of readdirSync(allMigrations).filter((name) => name < "0920")) cpSync(path.join(allMigrations, file), path.join(older, file));
    const before = openStore({ dataDir, migrationsDir: older });
    addUsers(before);
    // User 3's table as the index made it until text form 2: the text as written, marks splitting words.
    const table = lexicalTable(3);
    before.sqlite.exec(`
      CREATE VIRTUAL TABLE ${table} USING fts5(title, content, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE ${table}_vocab USING fts5vocab(${table}, 'row');
      CREATE TRIGGER ${table}_insert AFTER INSERT ON chunks WHEN new.user_id = 3 BEGIN
        INSERT INTO ${table}(rowid, title, content) SELECT new.id, ki.name, new.content FROM knowledge_items ki WHERE ki.id = new.item_id;
      END;
      CREATE TRIGGER ${table}_delete AFTER DELETE ON chunks WHEN old.user_id = 3 BEGIN
        DELETE FROM ${table} WHERE rowid = old.id;
      END;
      CREATE TRIGGER ${table}_rename AFTER UPDATE OF name ON knowledge_items WHEN new.user_id = 3 AND new.name IS NOT old.name BEGIN
        DELETE FROM ${table} WHERE rowid IN (SELECT id FROM chunks WHERE item_id = new.id);
        INSERT INTO ${table}(rowid, title, content) SELECT id, new.name, content FROM chunks WHERE item_id = new.id;
      END;
      INSERT INTO lexical_users (user_id) VALUES (3);
    `);
    const german = insertKnowledge(before.sqlite, { userId: 3, name: "Maße.txt", chunks: ["Die Größe des Grundstücks", "plain English text"] });
    const japanese = insertKnowledge(before.sqlite, { userId: 3, name: "occupation.txt", chunks: ["ＧＨＱの占領政策と戦後の改革"] });
    const theirs = insertKnowledge(before.sqlite, { userId: 4, name: "b.txt", chunks: ["Die Größe der Wohnung"] });
    expect(matches(before, 3, "grosse")).toEqual([]);
    await before.close();

    const after = open(undefined, dataDir);
    const search = createLexicalSearch(after.sqlite);
    const found = (userId: number, query: string) => search(queryTerms(query), { userId }, 10).map((hit) => hit.chunkId);
    expect(after.sqlite.prepare("SELECT user_id, text_form FROM lexical_users ORDER BY user_id").raw().all()).toEqual([[3, 2]]);
    expect(after.sqlite.prepare("SELECT count(*) FROM chunks").pluck().get()).toBe(4);
    expect(found(3, "Grösse")).toEqual([german.chunkIds[0]]);
    expect(found(3, "Größe")).toEqual([german.chunkIds[0]]);
    expect(found(3, "english")).toEqual([german.chunkIds[1]]);
    expect(found(3, "GHQ 占領")).toEqual(japanese.chunkIds);
    expect(found(3, "masse").sort()).toEqual(german.chunkIds); // the item's name is folded as its text is
    expect(found(4, "grosse")).toEqual(theirs.chunkIds); // user 4's table, made now, is in the current form
    after.sqlite.prepare("UPDATE knowledge_items SET name = 'Übersicht.txt' WHERE id = ?").run(japanese.itemId);
    expect(found(3, "ubersicht")).toEqual(japanese.chunkIds);
  });
});
