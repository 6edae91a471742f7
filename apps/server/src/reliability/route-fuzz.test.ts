import { mkdirSync, writeFileSync } from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/test-app.ts";
import { storeChanges } from "../test/store-changes.ts";

/**
 * Property-based sweep of every registered /api route: hostile params, queries and bodies (wrong types,
 * missing fields, huge strings, invalid JSON, JSON nested thousands deep, wrong content types, multipart without
 * a boundary, unicode edge cases). Never a 5xx, and a
 * rejected request (4xx) changes nothing in the store: SQLite's total_changes() on the app's own
 * connection counts every row written, triggers included.
 */
const RUNS = Number(process.env.SAGE_FUZZ_RUNS ?? 40);
// Logging out would end the session the sweep uses; the login route is swept by its own tests.
const SKIP = new Set(["POST /api/auth/logout"]);

const KNOWN_FIELDS = [
  "name",
  "content",
  "role",
  "title",
  "description",
  "dueDate",
  "priority",
  "type",
  "status",
  "conversationId",
  "parentId",
  "path",
  "url",
  "query",
  "limit",
  "messages",
  "model",
  "systemInstruction",
  "tools",
  "functionResponse",
  "fileId",
  "conversation_id",
  "query_text",
  "username",
  "password",
  "stream",
  "items",
  "id",
];

const hugeString = fc.integer({ min: 100_000, max: 300_000 }).map((length) => "x".repeat(length));
const edgeStrings = fc.constantFrom(
  "",
  " ",
  "\u0000",
  "\u202e",
  "🙂".repeat(50),
  "\ud800",
  "../../etc/passwd",
  "C:\\windows",
  "null",
  "1e309",
  "<script>alert(1)</script>",
  "%00",
  "\n\r\t",
);
const scalar = fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), edgeStrings, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const value = fc.oneof(
  { weight: 5, arbitrary: scalar },
  { weight: 1, arbitrary: hugeString },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  { weight: 2, arbitrary: fc.dictionary(fc.string(), scalar, { maxKeys: 3 }) },
);
const knownRecord = fc.dictionary(fc.constantFrom(...KNOWN_FIELDS), value, { maxKeys: 6 });
const paramValue = fc.oneof(
  fc.integer({ min: -3, max: 5 }).map(String),
  fc.constantFrom("0", "abc", "1.5", "1e3", "99999999999999999999999", "１", "-0", " 1"),
  fc.string({ minLength: 1 }),
);

type Body = { payload?: string; contentType?: string };
const body: fc.Arbitrary<Body> = fc.oneof(
  knownRecord.map((record) => ({ payload: JSON.stringify(record), contentType: "application/json" })),
  fc.jsonValue().map((json) => ({ payload: JSON.stringify(json), contentType: "application/json" })),
  fc.string().map((text) => ({ payload: `{${text}`, contentType: "application/json" })),
  fc.string().map((text) => ({ payload: text, contentType: "text/plain" })),
  fc.string().map((text) => ({ payload: text, contentType: "application/x-www-form-urlencoded" })),
  fc.string().map((text) => ({ payload: `--x\r\n${text}`, contentType: "multipart/form-data; boundary=x" })),
  fc.string().map((text) => ({ payload: `--x\r\n${text}`, contentType: "multipart/form-data" })),
  // Nesting deeper than validation can recurse through (arrays, objects, or inside a known field).
  fc.tuple(fc.integer({ min: 65, max: 3000 }), fc.constantFrom(...KNOWN_FIELDS)).map(([depth, field]) => ({
    payload: `{"${field}":${'{"items":'.repeat(depth)}1${"}".repeat(depth)}}`,
    contentType: "application/json",
  })),
  fc.integer({ min: 65, max: 3000 }).map((depth) => ({ payload: "[".repeat(depth) + "]".repeat(depth), contentType: "application/json" })),
  fc.string().map((text) => ({ payload: text, contentType: "application/octet-stream" })),
  fc.constant({}),
);
const query = fc.dictionary(
  fc.oneof(fc.constantFrom("userId", "conversationId", "limit", "q", "query", "parentId"), fc.string()),
  fc.oneof(paramValue, edgeStrings),
  { maxKeys: 3 },
);

let t: TestApp;
let cookie: string;
const report: Record<string, { requests: number; statuses: Record<string, number> }> = {};

beforeAll(async () => {
  t = await createTestApp({ env: { SAGE_LOGIN_RATE_LIMIT: "100000" } });
  cookie = await t.login();
  // Some rows to aim at, so id-bearing routes reach their real code paths.
  // On a fresh store (either engine) the first rows get ids 1 and 2, which the fuzzed paths aim at.
  const db = t.store.db;
  const now = new Date().toISOString();
  const stamps = { createdAt: now, updatedAt: now };
  const seeded = [
    (
      await db
        .insertInto("conversations")
        .values({ userId: 3, name: "Seed", ...stamps })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id,
    (
      await db
        .insertInto("reminders")
        .values({ userId: 3, conversationId: 1, title: "Call", dueDate: now, ...stamps })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id,
    (
      await db
        .insertInto("knowledgeItems")
        .values({ userId: 3, type: "folder", name: "Folder", path: "Folder", ...stamps })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id,
    (
      await db
        .insertInto("knowledgeItems")
        .values({ userId: 3, parentId: 1, type: "note", name: "Note", path: "Folder/Note", ...stamps })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id,
  ];
  expect(seeded).toEqual([1, 1, 1, 2]);
  await db.insertInto("messages").values({ conversationId: 1, role: "user", content: "hello", createdAt: now }).execute();
  // The count the sweep compares sees a write (on PostgreSQL it starts at the first count).
  const counted = await storeChanges(t.store);
  await db.insertInto("knowledgeItemTexts").values({ itemId: 2, content: "budget" }).execute();
  expect(await storeChanges(t.store)).toBeGreaterThan(counted);
});

afterAll(async () => {
  mkdirSync("reports", { recursive: true });
  writeFileSync("reports/fuzz-report.json", JSON.stringify({ runsPerRoute: RUNS, routes: report }, null, 2));
  console.log(`fuzz report: ${process.cwd()}/reports/fuzz-report.json`);
  await t?.close();
});

const totalChanges = () => storeChanges(t.store);

describe("every /api route under hostile input", () => {
  it("never answers 5xx, and a rejected request changes nothing", async () => {
    const routes = t.routes.filter((route) => route.url.startsWith("/api/") && !SKIP.has(`${route.method} ${route.url}`));
    expect(routes.length).toBeGreaterThan(3);
    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      const entry = (report[key] = { requests: 0, statuses: {} as Record<string, number> });
      const paramNames = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]);
      await fc.assert(
        fc.asyncProperty(
          fc.array(paramValue, { minLength: paramNames.length, maxLength: paramNames.length }),
          query,
          body,
          async (params, queryRecord, requestBody) => {
            let url = route.url;
            paramNames.forEach((name, index) => (url = url.replace(`:${name}`, encodeURIComponent(params[index]!))));
            const search = new URLSearchParams(queryRecord as Record<string, string>).toString();
            await t.jobs.idle();
            const before = await totalChanges();
            const hasBody = !["GET", "DELETE"].includes(route.method) || requestBody.payload !== undefined;
            const response = await t.app.inject({
              method: route.method as "GET",
              url: search ? `${url}?${search}` : url,
              headers: { cookie, ...(hasBody && requestBody.contentType ? { "content-type": requestBody.contentType } : {}) },
              payload: hasBody ? requestBody.payload : undefined,
            });
            entry.requests += 1;
            entry.statuses[response.statusCode] = (entry.statuses[response.statusCode] ?? 0) + 1;
            expect(response.statusCode, `${key} -> ${url}?${search} ${response.body.slice(0, 300)}`).toBeLessThan(500);
            if (response.statusCode >= 400) {
              expect(response.json(), `${key}: error replies are JSON`).toHaveProperty("error");
              expect(await totalChanges(), `${key} was rejected (${response.statusCode}) but changed the store`).toBe(before);
            }
          },
        ),
        { numRuns: RUNS, seed: 20261122 },
      );
    }
  });
});
