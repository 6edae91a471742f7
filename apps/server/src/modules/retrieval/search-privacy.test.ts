import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { openStore, type Store } from "../../store/open-store.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { createLexicalSearch } from "./index/lexical-search.ts";
import { insertKnowledge } from "./retrieval-test-helpers.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function app(): Promise<TestApp> {
  const t = await createTestApp();
  cleanups.push(() => t.close());
  return t;
}

describe("search scores depend only on the searching user's knowledge", () => {
  it("gives a user the same scores whether or not another user holds the query's words", async () => {
    const t = await app();
    const owner = await t.login();
    const other = (await t.loginAsNewUser("neighbour")).cookie;
    const call = (cookie: string, method: "POST" | "DELETE", url: string, payload?: object) => t.app.inject({ method, url, payload, headers: { cookie } });
    const addNote = async (cookie: string, content: string) => {
      const response = await call(cookie, "POST", "/api/process-note", { type: "note", content });
      expect(response.json()).toMatchObject({ status: "success" });
      return response.json().file.id as number;
    };
    await addNote(owner, "The zebracorn budget for the orchard, with ladders and a cider press.");
    await addNote(owner, "Hiring plan for the orchard team next spring.");
    await addNote(owner, "Travel: flights to Lisbon on Monday, hotel near the office.");
    await addNote(owner, "Board meeting agenda: results, dividends, risks.");
    await addNote(owner, "Call the bank about the new credit line.");
    await addNote(owner, "Draft reply to the auditors on revenue recognition.");
    const scores = async () =>
      ((await call(owner, "POST", "/api/search", { query: "zebracorn orchard budget" })).json() as { content: string; score: number }[]).map((result) => [
        result.content,
        result.score,
      ]);
    const alone = await scores();
    expect(alone.length).toBe(2);

    // Another user's notes full of the same words: before per-user statistics they lowered the words' idf for everybody.
    const theirs: number[] = [];
    for (let index = 0; index < 12; index++) theirs.push(await addNote(other, `zebracorn orchard budget ${index}, and zebracorn again`));
    expect(await scores()).toEqual(alone);

    for (const id of theirs) expect((await call(other, "DELETE", `/api/files/${id}`)).statusCode).toBe(200);
    expect(await scores()).toEqual(alone);
  });

  // SQLite's FTS5 sample and postings budget; PostgreSQL's index has the same test in pg-lexical-index.integration.test.ts.
  it.skipIf(process.env.SAGE_TEST_ON_POSTGRES)(
    "keeps a large user's scores, word-count sample and postings window the same whatever another user writes between their chunks",
    async () => {
      // 4,500 chunks: past the 2,000 newest rows that word counts are estimated from, and "quarterly" alone is over
      // the 4,000-postings budget, so that query keeps to the user's newest chunks.
      const texts = Array.from({ length: 4_500 }, (_, index) =>
        index % 7 === 0 ? `quarterly revenue note ${index} with the margin forecast` : `meeting minutes ${index} about travel and the quarterly plan`,
      );
      const resultsIn = (store: Store, terms: string[]) => {
        const hits = createLexicalSearch(store.sqlite)(terms, { userId: 3 }, 20);
        const contents = new Map(
          (store.sqlite.prepare("SELECT id, content FROM chunks WHERE user_id = 3").all() as { id: number; content: string }[]).map((row) => [
            row.id,
            row.content,
          ]),
        );
        return hits.map((hit) => [contents.get(hit.chunkId), hit.score.toFixed(9)]);
      };

      const alone = storeWithUsers();
      insertKnowledge(alone.sqlite, { userId: 3, name: "minutes.txt", chunks: texts });
      const shared = storeWithUsers();
      // The other user's chunks are written between the owner's, so the owner's ids are spread apart.
      for (let start = 0; start < texts.length; start += 100) {
        insertKnowledge(shared.sqlite, { userId: 3, name: "minutes.txt", chunks: texts.slice(start, start + 100) });
        insertKnowledge(shared.sqlite, {
          userId: 4,
          name: "their-forecast.txt",
          chunks: Array.from({ length: 60 }, () => "forecast margin forecast quarterly"),
        });
      }
      for (const terms of [["quarterly", "margin", "forecast"], ["quarterly"]]) {
        const own = resultsIn(alone, terms);
        expect(own).toHaveLength(20);
        // Over the budget, only the newest 4,000 of the 4,500 count; ties go to the oldest, so this shows the window.
        if (terms.length === 1) expect(own.every(([content]) => Number(/\d+/.exec(content!)![0]) >= 500)).toBe(true);
        expect(resultsIn(shared, terms)).toEqual(own);
      }
    },
  );
});

function storeWithUsers(): Store {
  const temp = makeTempDir();
  const store = openStore({ dataDir: temp.dir });
  cleanups.push(() => temp.remove());
  cleanups.push(() => store.close());
  store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'demo', 'x', 'x'), (4, 'other', 'x', 'x')").run();
  return store;
}
