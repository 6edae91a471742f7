import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ACCOUNT_ERRORS, calendarProblemMessage, connectionProblemMessage } from "@sage/contracts/accounts";
import { SECRET_KEY_FILE } from "../../store/secret-box.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

let t: TestApp;
let cookie: string;
beforeEach(async () => {
  t = await createTestApp();
  cookie = await t.login();
});
afterEach(async () => t.close());

const PASSWORD = "very-secret-app-password-7731";
const TOKEN = "ya29.bearer-token-5512";
/** A loopback server: refused, because the test does not allow private addresses. */
const account = {
  kind: "mail",
  name: "Work mail",
  imap: { host: "127.0.0.1", port: 1993, secure: true, user: "anna@example.com", password: PASSWORD },
  smtp: { host: "127.0.0.1", port: 1465, secure: true, user: "anna@example.com", accessToken: TOKEN },
};

function call(method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object, as = cookie) {
  return t.app.inject({ method, url, payload, headers: { cookie: as } });
}

const blocked = connectionProblemMessage("blocked", { host: "127.0.0.1", port: 1993 });

describe("connecting a mail account", () => {
  it("saves it with the defaults, lists it without any secret, and its first sync reports a private server in plain words", async () => {
    const created = await call("POST", "/api/accounts", account);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      kind: "mail",
      name: "Work mail",
      status: "syncing",
      folders: ["INBOX", "Sent"],
      sinceDays: 365,
      imap: { host: "127.0.0.1", port: 1993, secure: true, user: "anna@example.com" },
      counts: { messages: 0 },
    });
    await t.jobs.idle();
    const listed = await call("GET", "/api/accounts");
    expect(listed.json()).toEqual([expect.objectContaining({ id: created.json().id, status: "error", error: blocked, lastSyncAt: null })]);
    for (const response of [created, listed]) {
      expect(response.body).not.toContain(PASSWORD);
      expect(response.body).not.toContain(TOKEN);
      expect(response.body).not.toMatch(/password|accessToken|secret/i);
    }
  });

  it("keeps the password and token encrypted in the database", async () => {
    await call("POST", "/api/accounts", account);
    await t.jobs.idle();
    const row = await t.store.db.selectFrom("accounts").selectAll().executeTakeFirstOrThrow();
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(PASSWORD);
    expect(stored).not.toContain(TOKEN);
    expect(String(row.secrets)).toMatch(/^v1:/);
  });

  // SQLite only: on a shared PostgreSQL database every process needs the same key, so SAGE_SECRET_KEY is required
  // there (createTestApp sets it) and no key file is made.
  it.skipIf(process.env.SAGE_TEST_ON_POSTGRES)("seals them under a key file outside the database, readable by its owner only", async () => {
    await call("POST", "/api/accounts", account);
    await t.jobs.idle();
    const row = await t.store.db.selectFrom("accounts").select("secrets").executeTakeFirstOrThrow();
    expect(String(row.secrets)).toMatch(/^v1:/);
    const keyFile = path.join(t.config.dataDir, SECRET_KEY_FILE);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(keyFile, "utf8").trim(), "base64")).toHaveLength(32);
  });

  it("says a password is needed when the secrets were sealed under another key", async () => {
    const id = (await call("POST", "/api/accounts", account)).json().id;
    await t.jobs.idle();
    await t.store.db.updateTable("accounts").set({ secrets: "v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA==:AAAA" }).where("id", "=", id).execute();
    const synced = await call("POST", `/api/accounts/${id}/sync`);
    expect(synced.statusCode).toBe(202);
    expect(synced.json()).toMatchObject({ id, status: "password-needed" });
  });

  it("answers a clear 400 for a missing password, host or name, and saves nothing", async () => {
    const cases: Array<[object, string]> = [
      [{ ...account, imap: { ...account.imap, password: undefined } }, ACCOUNT_ERRORS.passwordRequired],
      [{ ...account, imap: { ...account.imap, host: " " } }, ACCOUNT_ERRORS.hostRequired],
      [{ ...account, imap: { ...account.imap, port: 70000 } }, ACCOUNT_ERRORS.portInvalid],
      [{ ...account, name: "" }, ACCOUNT_ERRORS.nameRequired],
      [{ ...account, kind: "fax" }, ACCOUNT_ERRORS.kindInvalid],
      [{ kind: "calendar", name: "Work" }, ACCOUNT_ERRORS.calendarSourceRequired],
      [
        { kind: "calendar", name: "Work", icsUrl: "https://a.example/x.ics", caldav: { url: "https://dav.example/", user: "a", password: "p" } },
        ACCOUNT_ERRORS.calendarSourceRequired,
      ],
      [{ kind: "calendar", name: "Work", icsUrl: "ftp://calendar.example/basic.ics" }, ACCOUNT_ERRORS.calendarUrlInvalid],
      [{ kind: "calendar", name: "Work", caldav: { url: "https://dav.example/", user: "anna" } }, ACCOUNT_ERRORS.passwordRequired],
      [{ ...account, sinceDays: 0 }, ACCOUNT_ERRORS.sinceDaysInvalid],
      // With `auth` the body is a sign-in account's, and its failure is told in those words; a null auth is no sign-in.
      [{ kind: "mail", auth: { provider: "yahoo" } }, 'auth.provider must be "google", "microsoft" or "oidc"'],
      // ... even beside a password: a wrong sign-in never falls back to a password account.
      [{ ...account, auth: { provider: "yahoo" } }, 'auth.provider must be "google", "microsoft" or "oidc"'],
      [{ kind: "mail", auth: { provider: "google" }, address: "exec" }, ACCOUNT_ERRORS.addressInvalid],
      [{ ...account, auth: null, name: "" }, ACCOUNT_ERRORS.nameRequired],
    ];
    for (const [body, message] of cases) {
      const response = await call("POST", "/api/accounts", body);
      expect(response.statusCode, message).toBe(400);
      expect(response.json()).toEqual({ error: message, code: "validation_error" });
    }
    expect((await call("GET", "/api/accounts")).json()).toEqual([]);
  });

  it("Test connection names the failed step without saving anything", async () => {
    const response = await call("POST", "/api/accounts/test", account);
    const blockedSmtp = connectionProblemMessage("blocked", { host: "127.0.0.1", port: 1465 });
    expect(response.json()).toEqual({
      ok: false,
      problem: "blocked",
      message: `Receiving: ${blocked} Sending: ${blockedSmtp}`,
      folders: [],
      receiving: { ok: false, problem: "blocked", message: `Receiving: ${blocked}` },
      sending: { ok: false, problem: "blocked", message: `Sending: ${blockedSmtp}` },
    });
    const unknownHost = await call("POST", "/api/accounts/test", {
      ...account,
      imap: { ...account.imap, host: "mail.does-not-exist.invalid" },
      smtp: undefined,
    });
    expect(unknownHost.json()).toEqual({
      ok: false,
      problem: "dns",
      message: "Receiving: the mail server mail.does-not-exist.invalid could not be found. Check the server name.",
      folders: [],
      receiving: { ok: false, problem: "dns", message: "Receiving: the mail server mail.does-not-exist.invalid could not be found. Check the server name." },
      sending: null,
    });
    expect((await call("GET", "/api/accounts")).json()).toEqual([]);
  });
});

describe("connecting a calendar", () => {
  const ics = { kind: "calendar", name: "Google calendar", icsUrl: "webcal://127.0.0.1:8443/calendar/ical/secret-77ab/basic.ics" };

  it("saves an ICS subscription with its address sealed, shows only its host, and reports a private address in plain words", async () => {
    const created = await call("POST", "/api/accounts", ics);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ kind: "calendar", name: "Google calendar", caldav: null, ics: { host: "127.0.0.1" }, counts: { events: 0 } });
    await t.jobs.idle();
    const listed = await call("GET", "/api/accounts");
    expect(listed.json()[0]).toMatchObject({ status: "error", error: calendarProblemMessage("blocked", "127.0.0.1") });
    for (const response of [created, listed]) expect(response.body).not.toContain("secret-77ab");
    expect(JSON.stringify(await t.store.db.selectFrom("accounts").selectAll().executeTakeFirstOrThrow())).not.toContain("secret-77ab");
  });

  it("Test connection refuses a CalDAV server on a private address before any request reaches it", async () => {
    // Port 9 has nothing listening: had any request gone out, the answer would be "network", not "blocked".
    const response = await call("POST", "/api/accounts/test", {
      kind: "calendar",
      name: "Home",
      caldav: { url: "http://127.0.0.1:9/dav/", user: "anna", password: PASSWORD },
    });
    expect(response.json()).toEqual({ ok: false, problem: "blocked", message: calendarProblemMessage("blocked", "127.0.0.1") });
    const unknown = await call("POST", "/api/accounts/test", {
      kind: "calendar",
      name: "Home",
      caldav: { url: "https://dav.does-not-exist.invalid/", user: "anna", password: PASSWORD },
    });
    expect(unknown.json()).toEqual({ ok: false, problem: "dns", message: calendarProblemMessage("dns", "dav.does-not-exist.invalid") });
    expect((await call("GET", "/api/accounts")).json()).toEqual([]);
  });

  it("changes a CalDAV account's address and keeps its password; a mail-only change is refused", async () => {
    const id = (
      await call("POST", "/api/accounts", { kind: "calendar", name: "Fastmail", caldav: { url: "https://127.0.0.1/dav/", user: "anna", password: PASSWORD } })
    ).json().id;
    await t.jobs.idle();
    const patched = await call("PATCH", `/api/accounts/${id}`, { name: "Home", caldav: { url: "https://127.0.0.2/dav/", user: "anna" } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ name: "Home", caldav: { url: "https://127.0.0.2/dav/", user: "anna" } });
    expect(patched.json().status).not.toBe("password-needed");
    expect((await call("PATCH", `/api/accounts/${id}`, { folders: ["INBOX"] })).json()).toEqual({
      error: ACCOUNT_ERRORS.calendarNothingToUpdate,
      code: "validation_error",
    });
    await t.jobs.idle();
  });

  it("syncs calendars not synced for 15 minutes in the background round, and leaves those just synced alone", async () => {
    await call("POST", "/api/accounts", ics);
    await t.jobs.idle();
    await t.store.db
      .updateTable("accounts")
      .set({ updatedAt: new Date(Date.now() - 16 * 60_000).toISOString() })
      .execute();
    expect(await t.syncDueCalendars()).toBe(1);
    expect((await call("GET", "/api/accounts")).json()[0].status).toBe("syncing");
    await t.jobs.idle();
    expect(await t.syncDueCalendars()).toBe(0);
  });
});

describe("GET /api/calendar/events", () => {
  const day = "2026-11-27";
  const ics = { kind: "calendar", name: "Holidays", icsUrl: "https://127.0.0.1/holidays.ics" };
  async function seedEvent(accountId: number, title: string, start: string, end: string, userId = 3) {
    const db = t.store.db;
    const object = await db.insertInto("calendarObjects").values({ accountId, href: title, ics: "BEGIN:VCALENDAR" }).returning("id").executeTakeFirstOrThrow();
    // all_day, time_zone, attendees and busy as their columns' defaults.
    await db
      .insertInto("calendarEvents")
      .values({
        accountId,
        userId,
        objectId: object.id,
        uid: `${title}@test`,
        title,
        location: "Room 4",
        startAt: start,
        endAt: end,
        allDay: 0,
        timeZone: "",
        attendees: "[]",
        busy: 1,
      })
      .execute();
  }

  it("lists the events overlapping the range, earliest first; says whether a calendar is connected", async () => {
    const range = `from=${day}T00:00:00Z&to=${day}T23:59:59Z`;
    expect((await call("GET", `/api/calendar/events?${range}`)).json()).toEqual({ connected: false, events: [] });
    const id = (await call("POST", "/api/accounts", ics)).json().id as number;
    await t.jobs.idle();
    await seedEvent(id, "Board call", `${day}T15:00:00.000Z`, `${day}T16:00:00.000Z`);
    await seedEvent(id, "Breakfast with Anna", `${day}T07:30:00.000Z`, `${day}T08:30:00.000Z`);
    await seedEvent(id, "Tomorrow's review", "2026-11-28T09:00:00.000Z", "2026-11-28T10:00:00.000Z");
    const listed = await call("GET", `/api/calendar/events?${range}`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({
      connected: true,
      events: [
        {
          id: expect.any(Number),
          title: "Breakfast with Anna",
          start: `${day}T07:30:00.000Z`,
          end: `${day}T08:30:00.000Z`,
          allDay: false,
          location: "Room 4",
          calendar: "Holidays",
        },
        {
          id: expect.any(Number),
          title: "Board call",
          start: `${day}T15:00:00.000Z`,
          end: `${day}T16:00:00.000Z`,
          allDay: false,
          location: "Room 4",
          calendar: "Holidays",
        },
      ],
    });
    // Another user sees none of them.
    const other = await t.loginAsNewUser();
    expect((await call("GET", `/api/calendar/events?${range}`, undefined, other.cookie)).json()).toEqual({ connected: false, events: [] });
  });

  it("refuses a range that is missing, backwards or longer than 31 days", async () => {
    for (const query of ["", `from=${day}T10:00:00Z&to=${day}T09:00:00Z`, "from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z", "from=tomorrow&to=later"]) {
      const response = await call("GET", `/api/calendar/events?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toEqual({ error: "from and to must be ISO date-times, from before to, at most 31 days apart", code: "validation_error" });
    }
    expect((await t.app.inject({ method: "GET", url: `/api/calendar/events?from=${day}T00:00:00Z&to=${day}T23:00:00Z` })).statusCode).toBe(401);
  });
});

describe("the mail poll round", () => {
  const touched = (id: number, status: "ok" | "error", secondsAgo: number) =>
    t.store.db
      .updateTable("accounts")
      .set({ status, updatedAt: new Date(Date.now() - secondsAgo * 1000).toISOString() })
      .where("id", "=", id)
      .execute();

  it("syncs mail not synced for 100 seconds, so new mail is in within 2 minutes; a failing account only every 15 minutes", async () => {
    const id = (await call("POST", "/api/accounts", account)).json().id as number;
    await t.jobs.idle();
    await touched(id, "ok", 30);
    expect(await t.syncDueMail()).toBe(0);
    await touched(id, "ok", 101);
    expect(await t.syncDueMail()).toBe(1);
    await t.jobs.idle();
    // The loopback server is refused: the round's sync failed, and says so.
    expect((await call("GET", "/api/accounts")).json()[0]).toMatchObject({ status: "error", error: blocked });
    await touched(id, "error", 5 * 60);
    expect(await t.syncDueMail()).toBe(0);
    await touched(id, "error", 16 * 60);
    expect(await t.syncDueMail()).toBe(1);
    await t.jobs.idle();
  });

  it("leaves alone an account whose password cannot be opened, and the calendars", async () => {
    const id = (await call("POST", "/api/accounts", account)).json().id as number;
    await call("POST", "/api/accounts", { kind: "calendar", name: "Holidays", icsUrl: "https://127.0.0.1/holidays.ics" });
    await t.jobs.idle();
    await t.store.db.updateTable("accounts").set({ secrets: "v1:sealed:with:another-key" }).where("id", "=", id).execute();
    await t.store.db
      .updateTable("accounts")
      .set({ status: "ok", updatedAt: new Date(Date.now() - 3600_000).toISOString() })
      .execute();
    expect(await t.syncDueMail()).toBe(0);
  });
});

describe("changing and removing an account", () => {
  it("renames it and changes its folders, keeping the stored password when none is sent", async () => {
    const id = (await call("POST", "/api/accounts", account)).json().id;
    await t.jobs.idle();
    const secretsOf = async () => (await t.store.db.selectFrom("accounts").select("secrets").where("id", "=", id).executeTakeFirstOrThrow()).secrets;
    const before = await secretsOf();
    const patched = await call("PATCH", `/api/accounts/${id}`, { name: "Board mail", folders: ["INBOX"], imap: { ...account.imap, password: undefined } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ name: "Board mail", folders: ["INBOX"] });
    const after = await secretsOf();
    expect(after).not.toBe(before); // sealed again, with a fresh nonce
    expect((await call("PATCH", `/api/accounts/${id}`, {})).json()).toEqual({ error: ACCOUNT_ERRORS.nothingToUpdate, code: "validation_error" });
    await t.jobs.idle();
  });

  it("deletes it; another user can neither see, change, sync nor delete it", async () => {
    const id = (await call("POST", "/api/accounts", account)).json().id;
    await t.jobs.idle();
    const other = await t.loginAsNewUser();
    expect((await call("GET", "/api/accounts", undefined, other.cookie)).json()).toEqual([]);
    for (const [method, url, body] of [
      ["PATCH", `/api/accounts/${id}`, { name: "Mine now" }],
      ["POST", `/api/accounts/${id}/sync`, undefined],
      ["DELETE", `/api/accounts/${id}`, undefined],
    ] as const) {
      const response = await call(method, url, body, other.cookie);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ error: ACCOUNT_ERRORS.accountNotFound, code: "account_not_found" });
    }
    expect((await call("DELETE", `/api/accounts/${id}`)).json()).toEqual({ ok: true });
    expect((await call("GET", "/api/accounts")).json()).toEqual([]);
  });

  it("answers 401 without a session", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/accounts" })).statusCode).toBe(401);
  });
});
