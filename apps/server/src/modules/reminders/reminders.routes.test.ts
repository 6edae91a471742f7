import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

let t: TestApp;
let cookie: string;
beforeEach(async () => {
  t = await createTestApp();
  cookie = await t.login();
});
afterEach(async () => t.close());

const valid = { title: "Send the board deck", description: "Q3 numbers", dueDate: "2026-03-05T09:00:00.000+01:00", priority: "high" };

function call(method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object, as = cookie) {
  return t.app.inject({ method, url, payload, headers: { cookie: as } });
}

/** Conversations belong to issue 3's module; tests create them in the store directly. */
async function insertConversation(userId = 3): Promise<number> {
  const now = new Date().toISOString();
  const row = await t.store.db
    .insertInto("conversations")
    .values({ userId, name: "Board prep", createdAt: now, updatedAt: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

const listAll = async (as = cookie) => (await call("GET", "/api/reminders", undefined, as)).json();

describe("creating a reminder", () => {
  it("stores it unread with type reminder, returns it with 201 and lists it", async () => {
    const response = await call("POST", "/api/reminders", { ...valid, status: "read" });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toMatchObject({
      title: "Send the board deck",
      description: "Q3 numbers",
      dueDate: "2026-03-05T08:00:00.000Z",
      priority: "high",
      type: "reminder",
      status: "unread",
      conversationId: null,
    });
    expect(await listAll()).toEqual([created]);
  });

  it("defaults priority to medium, type to reminder and description to empty", async () => {
    const created = (await call("POST", "/api/reminders", { title: "Call Ana", dueDate: "2026-03-05T09:00:00.000Z" })).json();
    expect(created).toMatchObject({ priority: "medium", type: "reminder", description: "" });
  });

  it("keeps the assistant's YYYY-MM-DD as a whole-day date and accepts a numeric-string conversationId", async () => {
    const conversationId = await insertConversation();
    const response = await call("POST", "/api/reminders", {
      title: "Renew passport",
      dueDate: "2026-12-31",
      priority: "low",
      type: "task",
      conversationId: String(conversationId),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ dueDate: "2026-12-31", type: "task", conversationId });
  });

  const rejected: Array<[string, object, string]> = [
    ["a missing title", { dueDate: valid.dueDate }, "Title is required"],
    ["a blank title", { ...valid, title: "   " }, "Title is required"],
    ["a title that is not text", { ...valid, title: 42 }, "Title is required"],
    ["a title over 200 characters", { ...valid, title: "x".repeat(201) }, "Title must be at most 200 characters"],
    ["a description that is not text", { ...valid, description: ["x"] }, "Description must be text of at most 5000 characters"],
    ["a missing due date", { title: "x" }, "Due date is required"],
    ["an empty due date", { title: "x", dueDate: "" }, "Due date is required"],
    [
      "a date-time without offset",
      { title: "x", dueDate: "2026-03-05T09:00:00" },
      expect.stringMatching(/^Due date must be a date and time with a time zone offset/),
    ],
    ["an impossible date", { title: "x", dueDate: "2026-02-30" }, expect.stringMatching(/^Due date must be/)],
    ["a due date that is a number", { title: "x", dueDate: 1767225600000 }, expect.stringMatching(/^Due date must be/)],
    ["an unknown priority", { ...valid, priority: "urgent" }, "Priority must be high, medium or low"],
    ["an unknown type", { ...valid, type: "meeting" }, "Type must be task, alert or reminder"],
    ["an unknown status", { ...valid, status: "done" }, "Status must be unread or read"],
    ["a conversationId that is not a number", { ...valid, conversationId: "abc" }, "conversationId must be a conversation id"],
    ["a negative conversationId", { ...valid, conversationId: -4 }, "conversationId must be a conversation id"],
  ] as const as Array<[string, object, string]>;

  it.each(rejected)("refuses %s with a clear 400 and stores nothing", async (_name, payload, message) => {
    const response = await call("POST", "/api/reminders", payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual(message);
    expect(await listAll()).toEqual([]);
  });

  it("refuses a body that is not JSON", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/reminders",
      headers: { cookie, "content-type": "application/json" },
      payload: "{title",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe("Request body is not valid JSON");
  });

  it("answers 404 for a conversation that does not exist or is another user's, storing nothing", async () => {
    const other = await t.loginAsNewUser();
    const theirs = await insertConversation(other.userId);
    for (const conversationId of [theirs, 999_999]) {
      const response = await call("POST", "/api/reminders", { ...valid, conversationId });
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe("Conversation not found");
    }
    expect(await listAll()).toEqual([]);
    expect(await listAll(other.cookie)).toEqual([]);
  });

  it("needs a session", async () => {
    const response = await t.app.inject({ method: "POST", url: "/api/reminders", payload: valid });
    expect(response.statusCode).toBe(401);
  });
});

describe("listing", () => {
  it("lists only the user's own reminders, all or those of one conversation", async () => {
    const conversationId = await insertConversation();
    const other = await t.loginAsNewUser();
    await call("POST", "/api/reminders", { ...valid, title: "Mine, loose" });
    await call("POST", "/api/reminders", { ...valid, title: "Mine, linked", conversationId });
    await call("POST", "/api/reminders", { ...valid, title: "Theirs" }, other.cookie);

    expect((await listAll()).map((reminder: { title: string }) => reminder.title).sort()).toEqual(["Mine, linked", "Mine, loose"]);
    const linked = (await call("GET", `/api/reminders?conversationId=${conversationId}`)).json();
    expect(linked.map((reminder: { title: string }) => reminder.title)).toEqual(["Mine, linked"]);
    expect((await listAll(other.cookie)).map((reminder: { title: string }) => reminder.title)).toEqual(["Theirs"]);
  });

  it("answers 404 for another user's conversation and 400 for a malformed conversationId", async () => {
    const other = await t.loginAsNewUser();
    const theirs = await insertConversation(other.userId);
    await call("POST", "/api/reminders", { ...valid, conversationId: theirs }, other.cookie);
    const response = await call("GET", `/api/reminders?conversationId=${theirs}`);
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe("Conversation not found");
    const malformed = await call("GET", "/api/reminders?conversationId=1;DROP");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toBe("conversationId must be a conversation id");
  });
});

describe("updating", () => {
  async function createRead() {
    const created = (await call("POST", "/api/reminders", valid)).json();
    const read = await call("PATCH", `/api/reminders/${created.id}`, { status: "read" });
    expect(read.json().status).toBe("read");
    return created;
  }

  it("changes the priority without touching the status", async () => {
    const created = await createRead();
    const response = await call("PATCH", `/api/reminders/${created.id}`, { priority: "low" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ priority: "low", status: "read", dueDate: created.dueDate });
  });

  it("makes the reminder unread again when the due date changes, even if the patch says read", async () => {
    const created = await createRead();
    const response = await call("PATCH", `/api/reminders/${created.id}`, { dueDate: "2026-04-01T10:30:00.000-04:00", status: "read" });
    expect(response.json()).toMatchObject({ dueDate: "2026-04-01T14:30:00.000Z", status: "unread" });
    expect((await listAll())[0].status).toBe("unread");
  });

  it("keeps it read when the same due date is sent again", async () => {
    const created = await createRead();
    const response = await call("PATCH", `/api/reminders/${created.id}`, { dueDate: "2026-03-05T08:00:00.000Z" });
    expect(response.json().status).toBe("read");
  });

  it("edits title and description", async () => {
    const created = await createRead();
    const response = await call("PATCH", `/api/reminders/${created.id}`, { title: " Board deck v2 ", description: "" });
    expect(response.json()).toMatchObject({ title: "Board deck v2", description: "" });
  });

  it("refuses bad values and empty patches with 400, changing nothing", async () => {
    const created = await createRead();
    const cases: Array<[object, string]> = [
      [{ priority: "urgent" }, "Priority must be high, medium or low"],
      [{ status: "done" }, "Status must be unread or read"],
      [{ title: "" }, "Title is required"],
      [{ dueDate: "tomorrow" }, "Due date must be a date and time with a time zone offset (2025-03-05T09:00:00.000+01:00) or a date (2025-03-05)"],
      [{}, "Nothing to update: send title, description, dueDate, priority, type or status"],
    ];
    for (const [payload, message] of cases) {
      const response = await call("PATCH", `/api/reminders/${created.id}`, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe(message);
    }
    expect((await listAll())[0]).toMatchObject({ priority: "high", status: "read", title: valid.title });
  });
});

describe("another user's reminder", () => {
  it("cannot be read, changed or completed: 404 with no hint it exists", async () => {
    const other = await t.loginAsNewUser();
    const theirs = (await call("POST", "/api/reminders", valid, other.cookie)).json();
    const patch = await call("PATCH", `/api/reminders/${theirs.id}`, { priority: "low" });
    expect(patch.statusCode).toBe(404);
    expect(patch.json().error).toBe("Reminder not found");
    const missing = await call("PATCH", "/api/reminders/999999", { priority: "low" });
    expect(missing.json()).toEqual(patch.json());
    const remove = await call("DELETE", `/api/reminders/${theirs.id}`);
    expect(remove.statusCode).toBe(404);
    expect(remove.json().error).toBe("Reminder not found");
    expect(await listAll(other.cookie)).toEqual([theirs]);
  });

  it("a userId in the body that is not the session's is refused", async () => {
    const response = await call("POST", "/api/reminders", { ...valid, userId: 99 });
    expect(response.statusCode).toBe(403);
    expect(await listAll()).toEqual([]);
  });
});

describe("completing", () => {
  it("deletes the reminder; a second completion is 404; a malformed id is 404", async () => {
    const created = (await call("POST", "/api/reminders", valid)).json();
    const response = await call("DELETE", `/api/reminders/${created.id}`);
    expect(response.statusCode).toBe(200);
    expect(await listAll()).toEqual([]);
    expect((await call("DELETE", `/api/reminders/${created.id}`)).statusCode).toBe(404);
    expect((await call("DELETE", "/api/reminders/abc")).statusCode).toBe(404);
  });
});

describe("when its conversation is deleted", () => {
  it("DELETE /api/conversations/{id} hides the conversation's reminders with it; others stay", async () => {
    const conversation = await call("POST", "/api/conversations", { name: "Board prep" });
    expect(conversation.statusCode).toBeLessThan(300);
    const conversationId: number = conversation.json().id;
    const otherConversationId = await insertConversation();
    await call("POST", "/api/reminders", { ...valid, title: "Linked", conversationId });
    await call("POST", "/api/reminders", { ...valid, title: "Other chat", conversationId: otherConversationId });
    await call("POST", "/api/reminders", { ...valid, title: "Loose" });

    const deleted = await call("DELETE", `/api/conversations/${conversationId}`);
    expect(deleted.statusCode).toBeLessThan(300);
    expect((await listAll()).map((reminder: { title: string }) => reminder.title).sort()).toEqual(["Loose", "Other chat"]);
    expect((await call("GET", `/api/reminders?conversationId=${conversationId}`)).statusCode).toBe(404);
  });
});
