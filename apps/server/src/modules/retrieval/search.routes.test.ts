import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NO_SEARCH_QUERY_MESSAGE } from "@sage/contracts/retrieval";
import { knowledgeClient } from "../../test/knowledge-client.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { seedConversation, seedKnowledge } from "./retrieval-test-helpers.ts";

let t: TestApp;
let cookie: string;
const DEMO_USER = 3;

beforeEach(async () => {
  t = await createTestApp();
  cookie = await t.login();
});
afterEach(async () => t.close());

const search = (payload: Record<string, unknown>, headers = { cookie }) => t.app.inject({ method: "POST", url: "/api/search", payload, headers });

async function seedCorpus() {
  await seedKnowledge(t, {
    userId: DEMO_USER,
    name: "buffett-letters.txt",
    chunks: [
      "Warren Buffett argues that investors should buy wonderful businesses at fair prices and hold them for decades.",
      "Berkshire Hathaway's insurance float funds long-term equity investments.",
    ],
  });
  await seedKnowledge(t, {
    userId: DEMO_USER,
    name: "gardening.txt",
    chunks: ["Tomatoes need full sun, regular watering and a trellis to climb."],
  });
  await seedKnowledge(t, {
    userId: DEMO_USER,
    name: "quarterly-report.txt",
    chunks: ["Revenue grew 12% while operating costs stayed flat; investors welcomed the margin expansion."],
  });
}

describe("POST /api/search", () => {
  it("ranks the chunk that matches the query best first, with the documented result shape (content, score, metadata) and scores in 0..1", async () => {
    await seedCorpus();
    const response = await search({ query: "how should investors buy wonderful businesses" });
    expect(response.statusCode).toBe(200);
    const results = response.json();
    expect(results.length).toBeGreaterThanOrEqual(1);
    expect(results[0].content).toContain("wonderful businesses");
    expect(results[0].metadata.filename).toBe("buffett-letters.txt");
    expect(results[0].metadata.source).toBe("buffett-letters.txt/section-1");
    for (const result of results) {
      expect(result.score).toBeGreaterThan(0);
      expect(result.score).toBeLessThanOrEqual(1);
    }
    expect(results.map((result: { score: number }) => result.score)).toEqual(
      [...results.map((result: { score: number }) => result.score)].sort((a, b) => b - a),
    );
    expect(results.some((result: { content: string }) => result.content.includes("Tomatoes"))).toBe(false);
  });

  it("matches word forms (stemming) and the file name", async () => {
    await seedCorpus();
    const stemmed = (await search({ query: "watered tomato" })).json();
    expect(stemmed[0].metadata.filename).toBe("gardening.txt");
    const byName = (await search({ query: "gardening" })).json();
    expect(byName[0].metadata.filename).toBe("gardening.txt");
  });

  it("returns at most 5 results by default and honours a limit", async () => {
    await seedKnowledge(t, {
      userId: DEMO_USER,
      name: "many.txt",
      chunks: Array.from({ length: 8 }, (_, index) => `Note ${index} about dividends and dividend policy.`),
    });
    expect((await search({ query: "dividends" })).json()).toHaveLength(5);
    expect((await search({ query: "dividends", limit: 3 })).json()).toHaveLength(3);
  });

  it("answers a blank query with no results", async () => {
    await seedCorpus();
    for (const query of ["", "   \n\t"]) {
      const response = await search({ query });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
    }
    expect(NO_SEARCH_QUERY_MESSAGE).toBe("No search query provided.");
  });

  it("survives queries full of FTS syntax", async () => {
    await seedCorpus();
    for (const query of ['"unbalanced', "NEAR(a b) OR AND NOT", "col:term*", "^*()"]) {
      const response = await search({ query });
      expect(response.statusCode).toBe(200);
    }
  });

  it("rejects a bad limit with a 400 JSON error", async () => {
    const response = await search({ query: "x", limit: 0 });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/limit/);
  });

  it("scopes a conversation to its own knowledge plus the system knowledge base", async () => {
    const mine = await seedConversation(t.store.db, DEMO_USER, "mine");
    const other = await seedConversation(t.store.db, DEMO_USER, "other");
    await seedKnowledge(t, { userId: DEMO_USER, conversationId: mine, name: "mine.txt", chunks: ["zebra migration notes"] });
    await seedKnowledge(t, { userId: DEMO_USER, conversationId: other, name: "other.txt", chunks: ["zebra stripes notes"] });
    await seedKnowledge(t, { userId: DEMO_USER, name: "system.txt", chunks: ["zebra habitat notes"] });

    const names = async (payload: Record<string, unknown>) =>
      ((await search(payload)).json() as { metadata: { filename: string } }[]).map((result) => result.metadata.filename).sort();
    expect(await names({ query: "zebra", conversation_id: mine })).toEqual(["mine.txt", "system.txt"]);
    expect(await names({ query: "zebra", conversationId: other })).toEqual(["other.txt", "system.txt"]);
    expect(await names({ query: "zebra", conversation_id: 0 })).toEqual(["system.txt"]);
    expect(await names({ query: "zebra" })).toEqual(["mine.txt", "other.txt", "system.txt"]);
  });

  it("never shows one user's chunks to another, and hides another user's conversation behind a 404", async () => {
    await seedCorpus();
    const stranger = await t.loginAsNewUser();
    const theirConversation = await seedConversation(t.store.db, stranger.userId);
    await seedKnowledge(t, { userId: stranger.userId, name: "secret.txt", chunks: ["wonderful businesses secret plan"] });

    const mine = (await search({ query: "wonderful businesses secret" })).json() as { metadata: { filename: string } }[];
    expect(mine.map((result) => result.metadata.filename)).not.toContain("secret.txt");
    const theirs = (await search({ query: "wonderful businesses" }, { cookie: stranger.cookie })).json() as {
      metadata: { filename: string };
    }[];
    expect(theirs.map((result) => result.metadata.filename)).toEqual(["secret.txt"]);

    const probe = await search({ query: "secret", conversation_id: theirConversation });
    expect(probe.statusCode).toBe(404);
    const missing = await search({ query: "secret", conversation_id: 999_999 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe(probe.json().error);
  });

  it("forgets a deleted file's chunks at once", async () => {
    const { itemId } = await seedKnowledge(t, { userId: DEMO_USER, name: "gone.txt", chunks: ["ephemeral aardvark"] });
    expect((await search({ query: "aardvark" })).json()).toHaveLength(1);
    await t.store.db.deleteFrom("knowledgeItems").where("id", "=", itemId).execute();
    expect((await search({ query: "aardvark" })).json()).toEqual([]);
  });

  it("finds a word in a base of one file, and both files once a second with the same words is added (issue 52)", async () => {
    // One file: every word is in every passage, so log((N - n + 0.5) / (n + 0.5)) is negative for each; FTS5 floors
    // it at 1e-6, and the score is the share of that floored weight a passage covers, so the file is still found.
    const files = knowledgeClient(t, cookie);
    const upload = (filename: string, text: string) =>
      files.upload(
        { userId: DEMO_USER, conversationId: 0, parentId: 0, path: "", description: "" },
        { filename, content: Buffer.from(text), type: "text/plain" },
      );
    expect((await upload("zebra-report.txt", "The zebra census for March: 41 zebras counted at the north gate of the park.")).statusCode).toBeLessThan(300);
    await t.jobs.idle();
    const found = async (query: string) =>
      ((await search({ query })).json() as { metadata: { filename: string }; score: number }[]).map((hit) => hit.metadata.filename);
    expect(await found("zebra")).toEqual(["zebra-report.txt"]);
    expect(await found("How many zebras were counted at the north gate?")).toEqual(["zebra-report.txt"]);
    // Two files holding the same words (a report and the memo SAGE wrote from it): both found. Before, the row count
    // read for the search above (kept 5 s) was 1 and "41" was in 2 rows: its idf was NaN, and nothing was found.
    expect((await upload("Zebra memo.txt", "We counted 41 zebras at the north gate. Count again in April.")).statusCode).toBeLessThan(300);
    await t.jobs.idle();
    expect((await found("41 zebras counted at the north gate")).sort()).toEqual(["Zebra memo.txt", "zebra-report.txt"]);
    expect(await found("April")).toEqual(["Zebra memo.txt"]);
  });

  it("requires a session", async () => {
    const response = await t.app.inject({ method: "POST", url: "/api/search", payload: { query: "x" } });
    expect(response.statusCode).toBe(401);
  });
});
