import { sql, type InsertObject } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../store/schema.ts";
import { createTestApp, type TestApp } from "../test/test-app.ts";
import { storeChanges } from "../test/store-changes.ts";

/**
 * Isolation between accounts, swept over the route table so new routes are covered as they land:
 * no session -> 401; a `userId` that is not yours -> 403; another user's ids -> 404 with nothing changed.
 */
let t: TestApp;
let owner: string;
let intruder: string;
const ids = { conversation: 0, reminder: 0, folder: 0, note: 0, memory: 0, account: 0, schedule: 0, person: 0 };

// A body each id-bearing route would accept from its owner, so only ownership can refuse it.
const VALID_BODIES: Record<string, unknown> = {
  "PATCH /api/conversations/:id": { name: "Taken over" },
  "POST /api/conversations/:id/messages": { role: "user", content: "hello" },
  "POST /api/conversations/:id/turn": { content: "hello" },
  "POST /api/conversations/:id/messages/:messageId/edit": { content: "hello" },
  "PATCH /api/reminders/:id": { priority: "low" },
  "PATCH /api/files/:id": { name: "Taken over" },
  "PATCH /api/memories/:id": { content: "Taken over" },
  "PATCH /api/accounts/:id": { name: "Taken over" },
  "PATCH /api/schedules/:id": { title: "Taken over" },
  "PATCH /api/people/:id": { name: "Taken over" },
  "POST /api/people/:id/merge": { otherId: 987653 },
  "PATCH /api/tools/servers/:serverId": { trusted: true },
  "POST /api/elicitations/:elicitationId": { action: "decline" },
  "PATCH /api/channels/:id": { allowGroup: true },
  // Waiting approvals live only while their turn runs; answering another user's is covered in external-tools.routes.test.ts.
  "POST /api/approvals/:approvalId": { approved: true },
};

const totalChanges = () => storeChanges(t.store);

/** Inserts one row of the owner's data and returns its id. */
async function insertId<T extends keyof Database & string>(table: T, values: InsertObject<Database, T>): Promise<number> {
  const row = await t.store.db
    .insertInto(table)
    .values(values as never)
    .returning(sql<number>`id`.as("id"))
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  t = await createTestApp({ env: { SAGE_LOGIN_RATE_LIMIT: "100000" } });
  owner = await t.login();
  intruder = (await t.loginAsNewUser("intruder")).cookie;
  const db = t.store.db;
  const now = new Date().toISOString();
  const stamps = { createdAt: now, updatedAt: now };
  ids.conversation = await insertId("conversations", { userId: 3, name: "Private", ...stamps });
  await db.insertInto("messages").values({ conversationId: ids.conversation, role: "user", content: "secret plan", createdAt: now }).execute();
  ids.reminder = await insertId("reminders", { userId: 3, conversationId: ids.conversation, title: "Secret", dueDate: now, ...stamps });
  ids.memory = await insertId("memories", { userId: 3, content: "Secret: the Zebracorn deal", source: "user", ...stamps });
  ids.account = await insertId("accounts", {
    userId: 3,
    kind: "mail",
    name: "Private mail",
    settings: JSON.stringify({ imap: { host: "imap.example.com", port: 993, secure: true, user: "ceo" }, smtp: null, folders: ["INBOX"], sinceDays: 365 }),
    ...stamps,
  });
  ids.schedule = await insertId("schedules", {
    userId: 3,
    title: "Board brief",
    prompt: "Secret: brief me on Zebracorn",
    rrule: "DTSTART;TZID=Europe/Zurich:20260701T070000\nRRULE:FREQ=DAILY",
    timezone: "Europe/Zurich",
    conversationId: ids.conversation,
    nextRunAt: "2099-01-01T06:00:00.000Z",
    ...stamps,
  });
  ids.person = await insertId("people", { userId: 3, name: "Zebracorn's CEO", ...stamps });
  ids.folder = await insertId("knowledgeItems", { userId: 3, type: "folder", name: "Board", path: "Board", ...stamps });
  ids.note = await insertId("knowledgeItems", {
    userId: 3,
    conversationId: ids.conversation,
    parentId: ids.folder,
    type: "note",
    name: "Zebracorn memo",
    path: "Board/Zebracorn memo",
    ...stamps,
  });
  await db.insertInto("knowledgeItemTexts").values({ itemId: ids.note, content: "zebracorn acquisition terms" }).execute();
  // Through the search index, so the owner's words are searchable on either engine.
  await t.knowledgeIndex.indexItem({ id: ids.note, userId: 3, conversationId: ids.conversation }, [
    { position: 0, source: "Zebracorn memo", content: "zebracorn acquisition terms" },
  ]);
});
afterAll(async () => t?.close());

const apiRoutes = () => t.routes.filter((route) => route.url.startsWith("/api/"));

function ownersIdFor(url: string): number {
  if (url.startsWith("/api/conversations/")) return ids.conversation;
  if (url.startsWith("/api/reminders/")) return ids.reminder;
  if (url.startsWith("/api/files/")) return ids.note;
  if (url.startsWith("/api/memories/")) return ids.memory;
  if (url.startsWith("/api/accounts/")) return ids.account;
  if (url.startsWith("/api/schedules/")) return ids.schedule;
  if (url.startsWith("/api/people/")) return ids.person;
  return ids.conversation;
}

describe("without a session", () => {
  it("every /api route except login, health, SAGE's OAuth client document, Slack's signed events and webhooks answers 401 JSON", async () => {
    // The client metadata document's address is SAGE's OAuth client id: authorization servers fetch it (decision 080).
    // Slack's events carry no session: the route checks each one's signature (decision 077; slack-channel tests).
    // A webhook schedule's secret address is its key: another service calls it (decision 105; schedule-triggers tests).
    const open = new Set([
      "POST /api/auth/login",
      "GET /api/health",
      "GET /api/tools/oauth/client-metadata.json",
      "POST /api/channels/:id/slack-events",
      "POST /api/hooks/:secret",
    ]);
    for (const route of apiRoutes()) {
      if (open.has(`${route.method} ${route.url}`)) continue;
      const url = route.url.replace(/:(\w+)/g, "1");
      const response = await t.app.inject({ method: route.method as "GET", url, payload: ["GET", "DELETE"].includes(route.method) ? undefined : {} });
      expect(response.statusCode, `${route.method} ${url}`).toBe(401);
      expect(response.json().error).toBe("Not logged in");
    }
  });
});

describe("with another user's session", () => {
  it("every id-bearing route answers 404 for the owner's ids, exactly as for an id that does not exist, and changes nothing", async () => {
    // A provider's name (google, microsoft, oidc) is no one's record: an unknown one is a 400.
    const idRoutes = apiRoutes().filter((route) => route.url.includes(":") && !route.url.includes(":provider"));
    expect(idRoutes.length).toBeGreaterThan(3);
    for (const route of idRoutes) {
      const key = `${route.method} ${route.url}`;
      const payload = ["GET", "DELETE"].includes(route.method) ? undefined : (VALID_BODIES[key] ?? {});
      const request = (id: number) =>
        t.app.inject({ method: route.method as "GET", url: route.url.replace(/:(\w+)/g, String(id)), headers: { cookie: intruder }, payload });
      const before = await totalChanges();
      const theirs = await request(ownersIdFor(route.url));
      const missing = await request(987654);
      expect(theirs.statusCode, key).toBe(404);
      expect(theirs.body, `${key}: same reply as a missing id`).toBe(missing.body);
      expect(await totalChanges(), `${key} changed the owner's data`).toBe(before);
    }
    // The owner still has everything.
    const messages = await t.app.inject({ method: "GET", url: `/api/conversations/${ids.conversation}/messages`, headers: { cookie: owner } });
    expect(messages.json().map((message: { content: string }) => message.content)).toEqual(["secret plan"]);
  });

  it("lists never include the owner's data", async () => {
    for (const url of ["/api/conversations", "/api/reminders", "/api/files", "/api/folders", "/api/memories", "/api/accounts"]) {
      if (!apiRoutes().some((route) => route.method === "GET" && route.url === url)) continue;
      const response = await t.app.inject({ method: "GET", url, headers: { cookie: intruder } });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).not.toMatch(/Private|Secret|Zebracorn|Board/);
    }
  });

  it("search never returns another user's chunks", async () => {
    if (!apiRoutes().some((route) => route.url === "/api/search")) return;
    const mine = await t.app.inject({ method: "POST", url: "/api/search", headers: { cookie: owner }, payload: { query: "zebracorn" } });
    expect(JSON.stringify(mine.json())).toContain("zebracorn");
    const theirs = await t.app.inject({ method: "POST", url: "/api/search", headers: { cookie: intruder }, payload: { query: "zebracorn" } });
    expect(theirs.statusCode).toBe(200);
    expect(JSON.stringify(theirs.json())).not.toContain("zebracorn");
  });
});

describe("userId that is not the session's user", () => {
  it("is refused with 403 on every GET route", async () => {
    for (const route of apiRoutes().filter((item) => item.method === "GET" && !item.url.includes(":"))) {
      const response = await t.app.inject({ method: "GET", url: `${route.url}?userId=999`, headers: { cookie: owner } });
      expect(response.statusCode, route.url).toBe(403);
    }
  });
});
