import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { openStore, type Store } from "../../../store/open-store.ts";
import { createLexicalSearch } from "./lexical-search.ts";
import { insertConversation, insertKnowledge } from "../retrieval-test-helpers.ts";

let store: Store;
let temp: ReturnType<typeof makeTempDir>;
afterEach(async () => {
  await store.close();
  temp.remove();
});

function setUp() {
  temp = makeTempDir();
  store = openStore({ dataDir: temp.dir });
  store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (3, 'demo', 'x', 'x'), (4, 'other', 'x', 'x')").run();
  return createLexicalSearch(store.sqlite);
}

describe("lexical search scope", () => {
  it("finds a conversation's weak match even when hundreds of better ones sit outside its scope", () => {
    const search = setUp();
    const busy = insertConversation(store.sqlite, 3, "Busy");
    const quiet = insertConversation(store.sqlite, 3, "Quiet");
    // 300 strong matches elsewhere: more than every ranked window, so the scope join has to decide.
    insertKnowledge(store.sqlite, {
      userId: 3,
      conversationId: busy,
      name: "busy.txt",
      chunks: Array.from({ length: 300 }, (_, index) => `zephyrine zephyrine note ${index}`),
    });
    insertKnowledge(store.sqlite, { userId: 4, name: "foreign.txt", chunks: Array.from({ length: 50 }, () => "zephyrine zephyrine zephyrine") });
    const own = insertKnowledge(store.sqlite, {
      userId: 3,
      conversationId: quiet,
      name: "quiet.txt",
      chunks: ["a long passage about budgets and hiring that mentions zephyrine once among many other words"],
    });
    const system = insertKnowledge(store.sqlite, { userId: 3, name: "system.txt", chunks: ["zephyrine in the system knowledge base, among other words"] });

    const hits = search(["zephyrine"], { userId: 3, conversationId: quiet }, 5);
    expect(hits.map((hit) => hit.chunkId).sort()).toEqual([own.chunkIds[0], system.chunkIds[0]].sort());

    const systemOnly = search(["zephyrine"], { userId: 3, conversationId: null }, 1);
    expect(systemOnly.map((hit) => hit.chunkId)).toEqual(system.chunkIds);
  });

  it("returns the best in-scope matches first, and all of them when there are fewer than asked for", () => {
    const search = setUp();
    const conversation = insertConversation(store.sqlite, 3);
    insertKnowledge(store.sqlite, {
      userId: 3,
      conversationId: conversation,
      name: "a.txt",
      chunks: ["quokka quokka quokka quokka", "quokka and other animals of the island"],
    });
    insertKnowledge(store.sqlite, { userId: 4, name: "b.txt", chunks: ["quokka quokka quokka quokka quokka"] });
    const hits = search(["quokka"], { userId: 3 }, 10);
    expect(hits).toHaveLength(2);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(hits.every((hit) => hit.score > 0 && hit.score <= 1)).toBe(true);
  });
});
