import { DOVECOT_MISSING, dovecotInstalled, mailMessage, startDovecot, type DovecotServer } from "@sage/testkit/dovecot-server";
import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { singleEvent } from "@sage/testkit/calendar-fixtures";
import { startGraphFake, type GraphCalendarFake } from "@sage/testkit/graph-calendar-fake";
import { startOAuthServer, type OAuthTestServer } from "@sage/testkit/oauth-test-server";
import { RADICALE_MISSING, radicaleInstalled, startRadicale, type RadicaleServer } from "@sage/testkit/radicale-server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { backupClient } from "../../test/backup-client.ts";
import { TEST_CLIENT, TEST_PUBLIC_URL, signInThroughBrowser, testRedirectUris } from "../../test/sign-in-flow.ts";
import { startSmtp } from "../../test/smtp-test-server.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { turnEvents } from "../../test/turn-events.ts";

// "Sign in with Google" and "Sign in with Microsoft" as shipped, their endpoints pointed at local servers
// (SAGE_OAUTH_TEST_ENDPOINTS): a real OpenID Connect server in both providers' place, a real Dovecot for their IMAP,
// Google's CalDAV as a real Radicale behind a proxy that takes only bearer tokens with the Calendar scope, and
// Microsoft's Graph as a strict fake that takes only Graph tokens with a Calendars scope.
const installed = dovecotInstalled() && radicaleInstalled();
if (!dovecotInstalled()) console.warn(DOVECOT_MISSING);
if (!radicaleInstalled()) console.warn(RADICALE_MISSING);

const GOOGLE_MAIL = "https://mail.google.com/";
const GOOGLE_CALENDAR = "https://www.googleapis.com/auth/calendar";
const OUTLOOK = ["https://outlook.office.com/IMAP.AccessAsUser.All", "https://outlook.office.com/SMTP.Send"];
const GRAPH_CALENDARS = "https://graph.microsoft.com/Calendars.ReadWrite";
const HOUR = 3_600_000;
const hourFromNow = (hours: number) => new Date(Math.ceil((Date.now() + hours * HOUR) / HOUR) * HOUR);

describe.skipIf(!installed)("Google's and Microsoft's calendars through their sign-in", () => {
  let oauth: OAuthTestServer;
  let dovecot: DovecotServer;
  let radicale: RadicaleServer;
  let graph: GraphCalendarFake;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let gemini: FakeGemini;
  let googleCalendar: string;
  beforeAll(async () => {
    oauth = await startOAuthServer({
      clients: [{ ...TEST_CLIENT, redirectUris: testRedirectUris("google", "microsoft") }],
      users: [{ login: "exec", email: "exec@example.com", name: "Erika Exec" }],
      resources: {
        "https://www.googleapis.com": [GOOGLE_MAIL, GOOGLE_CALENDAR],
        "https://outlook.office.com": OUTLOOK,
        "https://graph.microsoft.com": [GRAPH_CALENDARS],
      },
    });
    const introspect = (token: string) => oauth.introspect(token);
    [dovecot, radicale, graph, smtp, gemini] = await Promise.all([
      startDovecot({ user: "exec@example.com", oauth2: { introspectionUrl: oauth.introspectionUrl } }),
      startRadicale({ user: "exec@example.com", bearer: { scope: GOOGLE_CALENDAR, introspect } }),
      startGraphFake({ introspect, pageSize: 2 }),
      startSmtp("nobody", "no-password", { checkToken: introspect }),
      startFakeGemini(),
    ]);
    const session = await dovecot.session();
    await session.append(
      "INBOX",
      mailMessage({
        from: "Anna Berg <anna@example.com>",
        to: "exec@example.com",
        subject: "Board pack",
        date: new Date(),
        messageId: "<pack@example.com>",
        body: "Attached.",
      }),
    );
    await session.close();
    googleCalendar = await radicale.makeCalendar("primary", "exec@example.com");
    await radicale.putEvent(
      googleCalendar,
      "lunch.ics",
      singleEvent({ uid: "lunch@google.test", title: "Lunch with the CFO", start: hourFromNow(26), minutes: 60, location: "Bistro" }),
    );
    const board = hourFromNow(50);
    graph.events.push(
      {
        id: "AAMk-board",
        subject: "Board meeting",
        start: board.toISOString(),
        end: new Date(board.getTime() + 2 * HOUR).toISOString(),
        location: "HQ",
        changeKey: "ck-1",
      },
      ...[0, 7, 14].map((days) => {
        const start = new Date(hourFromNow(30).getTime() + days * 24 * HOUR);
        return {
          id: `AAMk-weekly-${days}`,
          subject: "Weekly staff",
          start: start.toISOString(),
          end: new Date(start.getTime() + HOUR).toISOString(),
          seriesMasterId: "AAMk-weekly",
          originalStart: start.toISOString(),
          changeKey: `ck-w${days}`,
          ...(days === 14 ? { isCancelled: true } : {}),
        };
      }),
    );
  });
  afterAll(async () => Promise.all([dovecot?.stop(), radicale?.stop(), graph?.stop(), smtp?.close(), gemini?.close(), oauth?.stop()]));

  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    gemini.reset();
    const here = { host: "127.0.0.1", port: dovecot.port, secure: false };
    const sending = { host: "127.0.0.1", port: smtp.port, secure: false };
    t = await createTestApp({
      env: {
        SAGE_PUBLIC_URL: TEST_PUBLIC_URL,
        SAGE_GOOGLE_CLIENT_ID: TEST_CLIENT.id,
        SAGE_GOOGLE_CLIENT_SECRET: TEST_CLIENT.secret,
        SAGE_MICROSOFT_CLIENT_ID: TEST_CLIENT.id,
        SAGE_MICROSOFT_CLIENT_SECRET: TEST_CLIENT.secret,
        SAGE_OAUTH_TEST_ENDPOINTS: JSON.stringify({
          google: { issuer: oauth.issuer, imap: here, smtp: sending, caldavUrl: radicale.url },
          microsoft: { issuer: oauth.issuer, imap: here, smtp: sending, graphUrl: graph.url },
        }),
        SAGE_ACCOUNT_ALLOW_HOSTS: "127.0.0.1",
        SAGE_TIME_ZONE: "UTC",
        GEMINI_API_KEY: "calendar-key",
        GEMINI_BASE_URL: gemini.baseUrl,
        SAGE_EMBEDDER: "none",
      },
    });
    cookie = await t.login();
  });
  afterEach(async () => t.close());

  const api = (method: "GET" | "POST" | "DELETE", url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const accounts = async () => (await api("GET", "/api/accounts")).json() as Array<Record<string, any>>;
  async function signIn(provider: "google" | "microsoft") {
    const created = await api("POST", "/api/accounts", { kind: "mail", auth: { provider } });
    expect(created.statusCode).toBe(201);
    const { callback } = await signInThroughBrowser(t.app, cookie, created.json().signInUrl, oauth, "exec");
    expect(callback.headers.location).toBe("/settings?section=accounts&signIn=connected");
    await t.jobs.idle();
    return created.json() as { id: number };
  }
  /** A tool call the user approves; answers the tool's result. */
  async function approved(call: { name: string; args: Record<string, unknown> }) {
    const conversationId = (await api("POST", "/api/conversations", { name: "Agenda" })).json().id as number;
    gemini.script({ functionCalls: [call] }, { text: "Done." });
    const turn = api("POST", `/api/conversations/${conversationId}/turn`, { content: "Please do it" });
    // Polled up to the suite's expect.poll limit: a loaded machine may be slow to ask.
    let card: { approvalId: string; risk: string } | undefined;
    await expect.poll(async () => (card = (await api("GET", "/api/approvals")).json().approvals[0]), { message: "no approval was asked for" }).toBeDefined();
    // A card carrying a value read in the calendar (the board meeting's title) asks its second confirmation (issue 47).
    const answer = await api("POST", `/api/approvals/${card!.approvalId}`, {
      approved: true,
      ...(card!.risk === "content-derived" ? { confirm: "content-derived" } : {}),
    });
    expect(answer.statusCode).toBe(200);
    return turnEvents((await turn).body).find(([event]) => event === "tool-result")![1].result;
  }
  const eventsAhead = async () =>
    (await api("GET", `/api/calendar/events?from=${new Date().toISOString()}&to=${new Date(Date.now() + 25 * 24 * HOUR).toISOString()}`)).json()
      .events as Array<{
      title: string;
      start: string;
    }>;

  it("Sign in with Google brings the mail over XOAUTH2 and the calendar over CalDAV with the bearer token", async () => {
    const mail = await signIn("google");
    const [mailAccount, calendar] = await accounts();
    expect(mailAccount).toMatchObject({
      id: mail.id,
      kind: "mail",
      name: "exec@example.com",
      status: "ok",
      address: "exec@example.com",
      displayName: "Erika Exec",
      auth: { provider: "google", user: "exec@example.com" },
      counts: { messages: 1 },
    });
    expect(calendar).toMatchObject({
      kind: "calendar",
      name: "Google calendar",
      status: "ok",
      auth: { provider: "google", user: "exec@example.com" },
      caldav: { url: radicale.url, user: "exec@example.com" },
      counts: { events: 1 },
    });
    expect((await eventsAhead()).map((event) => event.title)).toEqual(["Lunch with the CFO"]);

    // A new event, after Approve, is written over CalDAV with the bearer token, and the next listing shows it.
    const day = hourFromNow(74).toISOString().slice(0, 10);
    const result = await approved({ name: "createEvent", args: { title: "Strategy offsite", start: `${day}T09:00`, end: `${day}T17:00` } });
    expect(result).toMatchObject({ success: true });
    expect(await radicale.calendarText(googleCalendar)).toContain("SUMMARY:Strategy offsite");
    await t.jobs.idle();
    expect((await eventsAhead()).map((event) => event.title)).toContain("Strategy offsite");

    // The mail account goes; the calendar keeps the sign-in, which is revoked only with the last account.
    const revoked = oauth.revocations.length;
    await api("DELETE", `/api/accounts/${mail.id}`);
    expect(oauth.revocations).toHaveLength(revoked);
    await api("DELETE", `/api/accounts/${calendar!.id}`);
    expect(oauth.revocations).toHaveLength(revoked + 1);
  });

  it("Sign in with Microsoft: one token for Outlook's IMAP, another for Graph, whose calendarView fills the agenda", async () => {
    await signIn("microsoft");
    const [mailAccount, calendar] = await accounts();
    expect(mailAccount).toMatchObject({ status: "ok", auth: { provider: "microsoft" }, counts: { messages: 1 }, smtp: { port: smtp.port } });
    expect(calendar).toMatchObject({ kind: "calendar", name: "Microsoft calendar", status: "ok", caldav: null, ics: null, auth: { provider: "microsoft" } });
    // The board meeting and the weekly series (one event, its cancelled date left out), read in two pages of two.
    expect(calendar!.counts.events).toBe(2);
    expect((await eventsAhead()).map((event) => event.title)).toEqual(["Weekly staff", "Board meeting", "Weekly staff"]);
    expect(graph.requests.filter((request) => request.path === "/v1.0/me/calendarView").map((request) => request.status)).toEqual([200, 200]);

    // Two audiences, two tokens: Graph refuses the mail token, as it refuses any token not meant for it.
    const audiences = await Promise.all(oauth.issuedTokens.map(async (token) => ({ token, ...(await oauth.introspect(token)) })));
    const mailToken = audiences.find((entry) => entry.active && entry.aud === "https://outlook.office.com");
    expect(mailToken).toBeDefined();
    expect(audiences.some((entry) => entry.active && entry.aud === "https://graph.microsoft.com")).toBe(true);
    const refused = await fetch(`${graph.url}/me/calendarView?startDateTime=2026-01-01T00:00:00Z&endDateTime=2026-02-01T00:00:00Z`, {
      headers: { authorization: `Bearer ${mailToken!.token}` },
    });
    expect(refused.status).toBe(403);

    // Written through Graph after Approve: a new event (POST), and the board meeting changed (PATCH with If-Match).
    const day = hourFromNow(98).toISOString().slice(0, 10);
    expect(await approved({ name: "createEvent", args: { title: "Investor call", start: `${day}T15:00`, end: `${day}T15:30` } })).toMatchObject({
      success: true,
    });
    expect(graph.events.map((event) => event.subject)).toContain("Investor call");
    const board = await t.store.db.selectFrom("calendarEvents").select("id").where("title", "=", "Board meeting").executeTakeFirstOrThrow();
    const boardDay = hourFromNow(50).toISOString().slice(0, 10);
    const moved = await approved({
      name: "updateEvent",
      args: { id: board.id, title: "Board meeting (extended)", start: `${boardDay}T08:00`, end: `${boardDay}T12:00`, location: "HQ" },
    });
    expect(moved).toMatchObject({ success: true });
    const patch = graph.requests.find((request) => request.method === "PATCH");
    expect(patch).toMatchObject({ path: "/v1.0/me/events/AAMk-board", status: 200 });
    expect(graph.events.find((event) => event.id === "AAMk-board")).toMatchObject({ subject: "Board meeting (extended)", start: `${boardDay}T08:00:00.000Z` });
    // One date of a series is never changed by SAGE.
    const weekly = await t.store.db.selectFrom("calendarEvents").select("id").where("title", "=", "Weekly staff").executeTakeFirstOrThrow();
    const refusedSeries = await approvedOrRefused({
      name: "updateEvent",
      args: { id: weekly.id, title: "Weekly staff (moved)", start: `${day}T10:00`, end: `${day}T11:00` },
    });
    expect(refusedSeries).toMatchObject({ success: false });
    // But one date of it can be cancelled after Approve: Graph's DELETE of that occurrence, the next one stays (decision 067).
    const firstWeekly = await t.store.db
      .selectFrom("calendarEvents")
      .select("id")
      .where("title", "=", "Weekly staff")
      .orderBy("startAt")
      .executeTakeFirstOrThrow();
    expect(await approved({ name: "cancelEvent", args: { id: firstWeekly.id } })).toMatchObject({ success: true });
    expect(graph.requests.filter((request) => request.method === "DELETE").map((request) => [request.path, request.status])).toEqual([
      ["/v1.0/me/events/AAMk-weekly-0", 204],
    ]);
    expect(graph.events.map((event) => event.id)).toContain("AAMk-weekly-7");
    expect((await eventsAhead()).filter((event) => event.title === "Weekly staff")).toHaveLength(1);

    // A backup carries both accounts and no token: restored for another user, they ask to sign in, and can.
    const archive = await backupClient(t, cookie).exportZip();
    const other = await t.loginAsNewUser("restorer");
    expect((await backupClient(t, other.cookie).importZip(archive)).statusCode).toBe(200);
    const restored = (await t.app.inject({ method: "GET", url: "/api/accounts", headers: { cookie: other.cookie } })).json() as Array<Record<string, any>>;
    expect(restored.map(({ kind, status, auth }) => ({ kind, status, provider: auth?.provider }))).toEqual([
      { kind: "mail", status: "sign-in-needed", provider: "microsoft" },
      { kind: "calendar", status: "sign-in-needed", provider: "microsoft" },
    ]);
    const { callback } = await signInThroughBrowser(t.app, other.cookie, restored[0]!.signInUrl, oauth, "exec");
    expect(callback.headers.location).toBe("/settings?section=accounts&signIn=connected");
  });

  /** A tool call that may be refused before any card: its result either way. */
  async function approvedOrRefused(call: { name: string; args: Record<string, unknown> }) {
    const conversationId = (await api("POST", "/api/conversations", { name: "Agenda" })).json().id as number;
    gemini.script({ functionCalls: [call] }, { text: "Done." });
    return turnEvents((await api("POST", `/api/conversations/${conversationId}/turn`, { content: "Please do it" })).body).find(
      ([event]) => event === "tool-result",
    )![1].result;
  }
});
