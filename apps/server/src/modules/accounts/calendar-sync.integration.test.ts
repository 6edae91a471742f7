import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { calendarProblemMessage } from "@sage/contracts/accounts";
import { calendarText, ENDLESS_FIRST_TUESDAY, singleEvent, weeklyAcrossDst } from "@sage/testkit/calendar-fixtures";
import { RADICALE_MISSING, radicaleInstalled, startRadicale, type RadicaleServer } from "@sage/testkit/radicale-server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatZoned } from "../../providers/calendar/zoned-time.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { rowCount } from "../../test/row-count.ts";

// A real Radicale (Debian's radicale) on a free loopback port, seeded over CalDAV; no mock of CalDAV anywhere.
const installed = radicaleInstalled();
if (!installed) console.warn(RADICALE_MISSING);

const DAY = 86_400_000;

describe.skipIf(!installed)("calendar sync against a real Radicale", () => {
  let radicale: RadicaleServer;
  let calendarUrl: string;
  beforeAll(async () => {
    radicale = await startRadicale();
    calendarUrl = await radicale.makeCalendar("work", "Work");
  });
  afterAll(async () => radicale?.stop());

  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    // The test server is on loopback: allowed by the operator's allow list, as a company's private server would be.
    t = await createTestApp({ env: { SAGE_ACCOUNT_ALLOW_HOSTS: "127.0.0.1", SAGE_TIME_ZONE: "Europe/Prague" } });
    cookie = await t.login();
  });
  afterEach(async () => t.close());

  const api = (method: "GET" | "POST" | "DELETE", url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const account = (password = radicale.password) => ({ kind: "calendar", name: "Work calendar", caldav: { url: radicale.url, user: radicale.user, password } });
  const events = () => t.store.db.selectFrom("calendarEvents").select(["title", "startAt", "endAt", "location"]).orderBy("startAt").execute();

  it("first sync lists the events, a weekly one across the spring change with its moved and cancelled dates; a new event follows the next sync", async () => {
    const weekly = weeklyAcrossDst();
    await radicale.putEvent(calendarUrl, "board-sync.ics", weekly.ics);
    const lunch = new Date(Math.ceil((Date.now() + 3 * DAY) / 3_600_000) * 3_600_000);
    await radicale.putEvent(
      calendarUrl,
      "lunch.ics",
      singleEvent({ uid: "lunch@sage.test", title: "Lunch with the CFO", start: lunch, minutes: 60, location: "Bistro" }),
    );

    const created = await api("POST", "/api/accounts", account());
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ kind: "calendar", status: "syncing", caldav: { url: radicale.url, user: radicale.user }, ics: null });
    const id = created.json().id as number;
    await t.jobs.idle();
    const listed = (await api("GET", "/api/accounts")).json()[0];
    expect(listed).toMatchObject({ id, status: "ok", error: null, counts: { events: 2 } });
    expect(JSON.stringify(listed)).not.toContain(radicale.password);

    const board = (await events()).filter((event) => event.title.startsWith("Board sync"));
    expect(board.map(({ title, startAt, endAt }) => ({ title, startAt, endAt }))).toEqual(weekly.expected);
    expect(await events()).toContainEqual({
      title: "Lunch with the CFO",
      startAt: lunch.toISOString(),
      endAt: new Date(lunch.getTime() + 3_600_000).toISOString(),
      location: "Bistro",
    });

    const review = new Date(lunch.getTime() + DAY);
    await radicale.putEvent(calendarUrl, "review.ics", singleEvent({ uid: "review@sage.test", title: "Budget review", start: review, minutes: 30 }));
    expect((await api("POST", `/api/accounts/${id}/sync`)).statusCode).toBe(202);
    await t.jobs.idle();
    expect((await events()).map((event) => event.title)).toContain("Budget review");
    expect((await api("GET", "/api/accounts")).json()[0].counts).toEqual({ events: 3 });

    expect((await api("DELETE", `/api/accounts/${id}`)).json()).toEqual({ ok: true });
    expect(await events()).toEqual([]);
    expect(await rowCount(t.store.db, "calendar_objects")).toBe(0);
  });

  it("keeps the password sealed, and says in plain words that a wrong password was refused", async () => {
    const test = await api("POST", "/api/accounts/test", account("wrong-password"));
    expect(test.json()).toEqual({ ok: false, problem: "login", message: calendarProblemMessage("login", "127.0.0.1") });
    const good = await api("POST", "/api/accounts/test", account());
    expect(good.json()).toMatchObject({ ok: true, calendars: ["Work"] });

    const id = (await api("POST", "/api/accounts", account("wrong-password"))).json().id;
    await t.jobs.idle();
    expect((await api("GET", "/api/accounts")).json()[0]).toMatchObject({ id, status: "error", error: calendarProblemMessage("login", "127.0.0.1") });
    const row = await t.store.db.selectFrom("accounts").select(["settings", "secrets"]).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain("wrong-password");
  });
});

describe("an ICS subscription served over HTTP", () => {
  let server: Server;
  let body = "";
  let base = "";
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url !== "/calendar/secret-4f1c/basic.ics") return response.writeHead(404).end("not here");
      response.writeHead(200, { "content-type": "text/calendar; charset=utf-8" }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise((resolve) => server.close(resolve)));

  let t: TestApp;
  let cookie: string;
  afterEach(async () => t?.close());

  const api = (method: "GET" | "POST", url: string, payload?: object) => t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

  it("syncs the subscription's events without ever showing its secret address, and names a wrong address in plain words", async () => {
    t = await createTestApp({ env: { SAGE_ACCOUNT_ALLOW_HOSTS: "127.0.0.1", SAGE_TIME_ZONE: "Europe/Prague" } });
    cookie = await t.login();
    body = weeklyAcrossDst().ics;
    const secretUrl = `${base}/calendar/secret-4f1c/basic.ics`;
    const created = await api("POST", "/api/accounts", { kind: "calendar", name: "Google", icsUrl: secretUrl });
    expect(created.statusCode).toBe(201);
    await t.jobs.idle();
    const listed = await api("GET", "/api/accounts");
    expect(listed.json()[0]).toMatchObject({ kind: "calendar", status: "ok", caldav: null, ics: { host: "127.0.0.1" }, counts: { events: 1 } });
    expect(listed.body).not.toContain("secret-4f1c");
    expect(JSON.stringify(await t.store.db.selectFrom("accounts").select(["settings", "secrets"]).executeTakeFirstOrThrow())).not.toContain("secret-4f1c");

    const wrong = await api("POST", "/api/accounts/test", { kind: "calendar", name: "Google", icsUrl: `${base}/calendar/other.ics` });
    expect(wrong.json()).toEqual({ ok: false, problem: "not-found", message: calendarProblemMessage("not-found", "127.0.0.1") });
  });

  it("reads floating times in the user's time zone, and again in a new one as soon as the user changes it", async () => {
    t = await createTestApp({ env: { SAGE_ACCOUNT_ALLOW_HOSTS: "127.0.0.1", SAGE_TIME_ZONE: "Europe/Prague" } });
    cookie = await t.login();
    // The next 2 December (a winter day in both zones), within the synced year ahead.
    const thisYear = new Date().getUTCFullYear();
    const year = Date.UTC(thisYear, 11, 2) > Date.now() ? thisYear : thisYear + 1;
    const day = `${year}1202`;
    body = calendarText(
      "BEGIN:VEVENT",
      "UID:floating@sage.test",
      `DTSTAMP:${day}T000000Z`,
      `DTSTART:${day}T090000`,
      `DTEND:${day}T093000`,
      "SUMMARY:Stand-up",
      "END:VEVENT",
    );
    await api("POST", "/api/accounts", { kind: "calendar", name: "Google", icsUrl: `${base}/calendar/secret-4f1c/basic.ics` });
    await t.jobs.idle();
    const startOf = async () => (await t.store.db.selectFrom("calendarEvents").select("startAt").executeTakeFirstOrThrow()).startAt;
    expect(await startOf()).toBe(`${year}-12-02T08:00:00.000Z`);
    const changed = await t.app.inject({ method: "PUT", url: "/api/calendar/time-zone", headers: { cookie }, payload: { timeZone: "America/New_York" } });
    expect(changed.json()).toEqual({ timeZone: "America/New_York", saved: true });
    await t.jobs.idle();
    expect(await startOf()).toBe(`${year}-12-02T14:00:00.000Z`);
  });

  it("reads an endless first-Tuesday rule as the same file uploaded is read; a file of events that yields none says why (issue 52 item 2)", async () => {
    t = await createTestApp({ env: { SAGE_ACCOUNT_ALLOW_HOSTS: "127.0.0.1", SAGE_TIME_ZONE: "Europe/Zurich" } });
    cookie = await t.login();
    body = ENDLESS_FIRST_TUESDAY;
    const id = (await api("POST", "/api/accounts", { kind: "calendar", name: "Partners", icsUrl: `${base}/calendar/secret-4f1c/basic.ics` })).json().id;
    await t.jobs.idle();
    // Before: 0 events, "ok".
    expect((await api("GET", "/api/accounts")).json()[0]).toMatchObject({ id, status: "ok", error: null, counts: { events: 1 } });
    const starts = (await t.store.db.selectFrom("calendarEvents").select("startAt").execute()).map((row) =>
      formatZoned(Date.parse(row.startAt), "America/Los_Angeles"),
    );
    // The past 90 days and the year ahead hold 14 or 15 first Tuesdays, each at 10:00 in Los Angeles.
    expect(starts.length).toBeGreaterThanOrEqual(14);
    expect(starts.every((start) => start.slice(11, 16) === "10:00")).toBe(true);

    body = calendarText(
      "BEGIN:VEVENT",
      "UID:old@sage.test",
      "DTSTAMP:20120101T000000Z",
      "DTSTART:20120105T090000Z",
      "DTEND:20120105T100000Z",
      "SUMMARY:Old",
      "END:VEVENT",
    );
    await api("POST", `/api/accounts/${id}/sync`);
    await t.jobs.idle();
    const old = (await api("GET", "/api/accounts")).json()[0];
    expect(old).toMatchObject({ status: "error", counts: { events: 0 } });
    expect(old.error).toMatch(
      /^The calendar holds 1 event, none of them between \d+ \w{3} \d{4} and \d+ \w{3} \d{4} \(the past 90 days and the year ahead, which SAGE shows\)\.$/,
    );

    body = calendarText("BEGIN:VEVENT", "UID:broken@sage.test", "DTSTART;TZID=America/Los_Angeles:not-a-date", "SUMMARY:Broken", "END:VEVENT");
    await api("POST", `/api/accounts/${id}/sync`);
    await t.jobs.idle();
    expect((await api("GET", "/api/accounts")).json()[0]).toMatchObject({
      status: "error",
      error: "SAGE could not read the event in this calendar: the file uses a form SAGE does not understand. Check the calendar in the app it comes from.",
    });
  });

  it("refuses a subscription on a private address unless the administrator allows it", async () => {
    t = await createTestApp();
    cookie = await t.login();
    const test = await api("POST", "/api/accounts/test", { kind: "calendar", name: "Google", icsUrl: `${base}/calendar/secret-4f1c/basic.ics` });
    expect(test.json()).toEqual({ ok: false, problem: "blocked", message: calendarProblemMessage("blocked", "127.0.0.1") });
  });
});
