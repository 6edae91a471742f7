import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { openStore, type Store } from "../../../store/open-store.ts";
import { insertKnowledge } from "../retrieval-test-helpers.ts";
import { createChunkStore } from "./chunk-store.ts";
import { createLexicalIndex, lexicalTable } from "./lexical-index.ts";
import { createLexicalMerges } from "./lexical-merges.ts";
import { createMergeConnection } from "./merge-connection.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setUp(dataDir?: string) {
  const temp = dataDir ? null : makeTempDir();
  const store: Store = openStore({ dataDir: dataDir ?? temp!.dir });
  cleanups.push(
    () => temp?.remove(),
    () => store.close(),
  );
  if (!dataDir) store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'demo', 'x', 'x')").run();
  const lexical = createLexicalIndex(store.sqlite);
  const merges = createLexicalMerges(lexical);
  cleanups.push(() => merges.stop());
  const chunks = createChunkStore(store.sqlite, lexical, merges);
  const table = lexicalTable(3);
  return {
    store,
    lexical,
    merges,
    chunks,
    dataDir: dataDir ?? temp!.dir,
    // Each FTS5 segment has rows in the table's _idx; their count is how many segments a query reads.
    segments: () => store.sqlite.prepare(`SELECT count(DISTINCT segid) FROM ${table}_idx`).pluck().get() as number,
    found: (query: string) => store.sqlite.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid`).pluck().all(query) as number[],
    config: (key: string) => store.sqlite.prepare(`SELECT v FROM ${table}_config WHERE k = ?`).pluck().get(key),
    item: (name: string) => ({ id: insertKnowledge(store.sqlite, { userId: 3, name, chunks: [] }).itemId, userId: 3, conversationId: null }),
  };
}
const noteChunks = (index: number) =>
  Array.from({ length: 20 }, (_, position) => ({ position, source: "", content: `note ${index} part ${position} harbour` }));

describe("full-text merges in idle time", () => {
  it("a write pays no merges; once nothing is being written the table is merged, and finds the same chunks", async () => {
    const { chunks, merges, segments, found, item } = setUp();
    for (let index = 0; index < 12; index++) await chunks.replaceItemChunks(item(`note ${index}`), noteChunks(index));
    const before = found("harbour");

    expect(segments()).toBe(12);
    await merges.idle();
    expect(segments()).toBeLessThan(8);
    expect(found("harbour")).toEqual(before);
    expect(before).toHaveLength(240);
  });

  it("waits while an item is being written", async () => {
    const { chunks, merges, segments, item } = setUp();
    for (let index = 0; index < 9; index++) await chunks.replaceItemChunks(item(`note ${index}`), noteChunks(index));
    const write = merges.beginWrite(3);
    for (let turn = 0; turn < 20; turn++) await nextTurn();
    await merges.idle();
    expect(segments()).toBe(9);

    write.end();
    await merges.idle();
    expect(segments()).toBeLessThan(8);
  });

  it("a large item pays its own merges while it is written, and automerge is off again after it", async () => {
    const { chunks, lexical, config, segments, item } = setUp();
    lexical.ensure(3);
    expect(config("automerge")).toBe(0);
    let duringLargeWrite: unknown;
    async function* slices() {
      for (let slice = 0; slice < 60; slice++) {
        if (slice === 59) duringLargeWrite = config("automerge");
        yield Array.from({ length: 100 }, (_, index) => ({ position: slice * 100 + index, source: "", content: `slice ${slice} line ${index} ledger` }));
      }
    }
    expect(await chunks.replaceItemChunks(item("ledger.txt"), slices())).toBe(6_000);

    expect(duringLargeWrite).toBe(8);
    expect(config("automerge")).toBe(0);
    expect(segments()).toBeLessThan(16);
  });

  it("a table made before this policy (or left with automerge on by a crash) takes it at start-up", async () => {
    const first = setUp();
    await first.chunks.replaceItemChunks(first.item("a.txt"), noteChunks(1));
    first.store.sqlite.exec(`INSERT INTO ${lexicalTable(3)}(${lexicalTable(3)}, rank) VALUES ('automerge', 4)`);
    expect(first.config("automerge")).toBe(4);

    createLexicalIndex(first.store.sqlite);
    expect(first.config("automerge")).toBe(0);
    expect(first.config("usermerge")).toBe(8);
  });

  it("after stop, no further merge runs", async () => {
    const { chunks, merges, segments, item } = setUp();
    const write = merges.beginWrite(3);
    for (let index = 0; index < 9; index++) await chunks.replaceItemChunks(item(`note ${index}`), noteChunks(index));
    await merges.stop();
    write.end();
    for (let turn = 0; turn < 20; turn++) await nextTurn();
    expect(segments()).toBe(9);
  });

  it("on a connection of its own, merges leave the serving connection's change count alone", async () => {
    const { store, lexical, segments, found, item, dataDir } = setUp();
    const connection = createMergeConnection(path.join(dataDir, "sage.db"));
    cleanups.push(() => connection.close());
    const merges = createLexicalMerges({ mergeStep: connection.mergeStep, mergeWhileWriting: lexical.mergeWhileWriting });
    const chunks = createChunkStore(store.sqlite, lexical, merges);
    const write = merges.beginWrite(3); // held, so the notes' merges wait for the count below
    for (let index = 0; index < 10; index++) await chunks.replaceItemChunks(item(`note ${index}`), noteChunks(index));
    expect(segments()).toBe(10);
    const changes = () => store.sqlite.prepare("SELECT total_changes()").pluck().get();
    const before = changes();

    merges.changed(99); // a user without a table: nothing to merge
    write.end();
    await merges.idle();
    expect(segments()).toBeLessThan(8);
    expect(found("harbour")).toHaveLength(200);
    expect(changes()).toBe(before);
  });
});
