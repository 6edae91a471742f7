import { afterEach, describe, expect, it } from "vitest";
import { createFakeEmbedder } from "../../providers/embedder/fake.ts";
import { createProviders } from "../../providers/registry.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { sql } from "kysely";
import { insertKnowledgeRows, reindexKnowledge, seedConversation } from "./retrieval-test-helpers.ts";

let t: TestApp;
afterEach(async () => t.close());
const DEMO_USER = 3;

async function start(embedder = createFakeEmbedder({ related: [["automobile", "car", "vehicle"]] })) {
  t = await createTestApp({ providers: (config) => ({ ...createProviders(config), embedder }) });
  return { embedder, cookie: await t.login() };
}

const names = (body: { metadata: { filename: string } }[]) => body.map((result) => result.metadata.filename);

describe("hybrid search", () => {
  it("finds by meaning what BM25 alone misses once the item is vectorised", async () => {
    const { cookie, embedder } = await start();
    const { itemId } = await insertKnowledgeRows(t.store.db, { userId: DEMO_USER, name: "garage.txt", chunks: ["The car needs new tyres before winter."] });
    await insertKnowledgeRows(t.store.db, { userId: DEMO_USER, name: "kitchen.txt", chunks: ["Bake the bread at 220 degrees."] });
    const search = () => t.app.inject({ method: "POST", url: "/api/search", headers: { cookie }, payload: { query: "automobile" } });

    expect((await search()).json()).toEqual([]);
    await reindexKnowledge(t, itemId);
    expect(embedder.calls.at(-1)?.kind).toBe("document");
    const results = (await search()).json();
    expect(names(results)[0]).toBe("garage.txt");
    expect(results[0].score).toBeGreaterThan(0.4);
    expect(results[0].score).toBeLessThanOrEqual(1);
    expect(embedder.calls.at(-1)).toEqual({ texts: ["automobile"], kind: "query" });
  });

  it("never returns a deleted chunk from the vector index and keeps scopes apart", async () => {
    const { cookie } = await start();
    const conversation = await seedConversation(t.store.db, DEMO_USER);
    const other = await seedConversation(t.store.db, DEMO_USER);
    const inConversation = await insertKnowledgeRows(t.store.db, {
      userId: DEMO_USER,
      conversationId: conversation,
      name: "a.txt",
      chunks: ["vehicle maintenance log"],
    });
    const elsewhere = await insertKnowledgeRows(t.store.db, { userId: DEMO_USER, conversationId: other, name: "b.txt", chunks: ["vehicle insurance papers"] });
    for (const item of [inConversation, elsewhere]) await reindexKnowledge(t, item.itemId);
    const search = async (payload: object) =>
      names((await t.app.inject({ method: "POST", url: "/api/search", headers: { cookie }, payload: { query: "automobile", ...payload } })).json());

    expect(await search({ conversation_id: conversation })).toEqual(["a.txt"]);
    await t.store.db.deleteFrom("conversations").where("id", "=", conversation).execute();
    expect(await search({})).toEqual(["b.txt"]);
    expect(Number((await sql<{ n: number }>`SELECT count(*) AS n FROM chunk_vectors`.execute(t.store.db)).rows[0]!.n)).toBe(1);
  });

  it("answers from BM25 alone when the query cannot be embedded", async () => {
    const failing = createFakeEmbedder();
    const { cookie } = await start(failing);
    const { itemId } = await insertKnowledgeRows(t.store.db, { userId: DEMO_USER, name: "notes.txt", chunks: ["quarterly dividend policy"] });
    await reindexKnowledge(t, itemId);
    failing.embed = async () => {
      throw new Error("embedder down");
    };
    const response = await t.app.inject({ method: "POST", url: "/api/search", headers: { cookie }, payload: { query: "dividend policy" } });
    expect(response.statusCode).toBe(200);
    expect(names(response.json())).toEqual(["notes.txt"]);
  });
});
