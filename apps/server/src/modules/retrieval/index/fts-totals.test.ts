import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { openStore, type Store } from "../../../store/open-store.ts";
import { createFtsTotals, readVarints, writeVarints } from "./fts-totals.ts";
import { createLexicalIndex, lexicalTable } from "./lexical-index.ts";
import { createLexicalSearch } from "./lexical-search.ts";
import { insertKnowledge } from "../retrieval-test-helpers.ts";

const stores: { store: Store; temp: ReturnType<typeof makeTempDir> }[] = [];
afterEach(async () => {
  for (const { store, temp } of stores.splice(0)) {
    await store.close();
    temp.remove();
  }
});

function freshStore(): Store {
  const temp = makeTempDir();
  const store = openStore({ dataDir: temp.dir });
  store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'demo', 'x', 'x')").run();
  // The user's table exists before the churn, as it does once they have stored anything.
  createLexicalIndex(store.sqlite).ensure(3);
  stores.push({ store, temp });
  return store;
}

const kept = ["the orchard plan: apples, pears and a budget for ladders", "apples again, with notes on the cider press"];

describe("bm25 totals after deletes and renames", () => {
  it("scores the remaining chunks as a store that only ever held them would", () => {
    const churned = freshStore();
    insertKnowledge(churned.sqlite, { userId: 3, name: "orchard.txt", chunks: kept });
    const filler = insertKnowledge(churned.sqlite, {
      userId: 3,
      name: "filler.txt",
      chunks: Array.from({ length: 300 }, (_, index) => `a long unrelated memo number ${index} about quarterly travel and other matters entirely`),
    });
    churned.sqlite.prepare("DELETE FROM knowledge_items WHERE id = ?").run(filler.itemId);
    const item = churned.sqlite.prepare("SELECT id FROM knowledge_items WHERE name = 'orchard.txt'").get() as { id: number };
    // Each rename re-inserts the item's rows into the index.
    for (let round = 0; round < 40; round++) churned.sqlite.prepare("UPDATE knowledge_items SET name = ? WHERE id = ?").run(`orchard-${round}.txt`, item.id);
    churned.sqlite.prepare("UPDATE knowledge_items SET name = 'orchard.txt' WHERE id = ?").run(item.id);

    const clean = freshStore();
    insertKnowledge(clean.sqlite, { userId: 3, name: "orchard.txt", chunks: kept });

    const scores = (store: Store) => createLexicalSearch(store.sqlite)(["apples", "ladders"], { userId: 3 }, 5).map((hit) => hit.score.toFixed(6));
    expect(createFtsTotals(churned.sqlite, lexicalTable(3)).drift()).toBeGreaterThan(300);
    expect(scores(churned)).toEqual(scores(clean));
    expect(createFtsTotals(churned.sqlite, lexicalTable(3)).drift()).toBe(0);
  });

  it("reads and writes SQLite varints", () => {
    for (const values of [[0], [1, 127, 128], [300_000, 2 ** 35 + 7, 16_383, 16_384]]) expect(readVarints(writeVarints(values))).toEqual(values);
  });
});
