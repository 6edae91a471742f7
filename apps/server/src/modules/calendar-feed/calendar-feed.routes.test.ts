import ICAL from "ical.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CALENDAR_FEED_ERRORS, REMINDERS_FEED_NAME } from "@sage/contracts/calendar";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

let t: TestApp;
let cookie: string;
beforeEach(async () => {
  t = await createTestApp();
  cookie = await t.login();
});
afterEach(async () => t.close());

const call = (method: "GET" | "POST" | "PUT", url: string, payload?: object, as: string | null = cookie) =>
  t.app.inject({ method, url, payload, headers: as ? { cookie: as } : {} });
const pathOf = (url: string) => new URL(url).pathname;

describe("reminders as a calendar feed", () => {
  it("gives a secret address on first use, the same one after, and serves the reminders without a session as a valid calendar", async () => {
    await call("POST", "/api/reminders", { title: "Board pack, final", dueDate: "2026-12-03", priority: "high", description: "Slides; budget" });
    await call("POST", "/api/reminders", { title: "Call Anna", dueDate: "2026-12-02T14:30:00.000+01:00" });
    const first = await call("GET", "/api/calendar/feed");
    expect(first.statusCode).toBe(200);
    const { url } = first.json();
    expect(url).toMatch(/^http:\/\/localhost(:\d+)?\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect((await call("GET", "/api/calendar/feed")).json()).toEqual({ url });

    const feed = await call("GET", pathOf(url), undefined, null);
    expect(feed.statusCode).toBe(200);
    expect(feed.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    const calendar = new ICAL.Component(ICAL.parse(feed.body));
    expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe(REMINDERS_FEED_NAME);
    const events = calendar.getAllSubcomponents("vevent").map((component) => new ICAL.Event(component));
    expect(events.map((event) => event.summary)).toEqual(["Call Anna", "Board pack, final"]);
    expect(events[0]!.startDate.toJSDate().toISOString()).toBe("2026-12-02T13:30:00.000Z");
    expect(events[1]!.startDate.isDate).toBe(true);
    expect(events[1]!.startDate.toString()).toBe("2026-12-03");
    expect(events[1]!.description).toBe("Slides; budget");
    // The address, not the token, stays secret: neither appears in the feed.
    expect(feed.body).not.toContain(pathOf(url).split("/").pop()!.replace(".ics", ""));
  });

  it("answers 404 for a wrong token, and the old address stops working once rotated", async () => {
    const { url } = (await call("GET", "/api/calendar/feed")).json();
    const wrong = await call("GET", `/api/calendar/${"A".repeat(43)}.ics`, undefined, null);
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json()).toEqual({ error: CALENDAR_FEED_ERRORS.feedNotFound, code: "feed_not_found" });
    expect((await call("GET", "/api/calendar/short.ics", undefined, null)).statusCode).toBe(404);

    const rotated = await call("POST", "/api/calendar/feed/rotate");
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().url).not.toBe(url);
    expect((await call("GET", pathOf(url), undefined, null)).statusCode).toBe(404);
    expect((await call("GET", pathOf(rotated.json().url), undefined, null)).statusCode).toBe(200);
    expect((await call("GET", "/api/calendar/feed")).json()).toEqual(rotated.json());
  });

  it("keeps each user's feed their own, and the feed's settings need a session", async () => {
    const mine = (await call("GET", "/api/calendar/feed")).json().url;
    const other = await t.loginAsNewUser();
    await call("POST", "/api/reminders", { title: "Private reminder", dueDate: "2026-12-03" });
    const theirs = (await call("GET", "/api/calendar/feed", undefined, other.cookie)).json().url;
    expect(theirs).not.toBe(mine);
    expect((await call("GET", pathOf(theirs), undefined, null)).body).not.toContain("Private reminder");
    expect((await call("GET", "/api/calendar/feed", undefined, null)).statusCode).toBe(401);
    expect((await call("POST", "/api/calendar/feed/rotate", undefined, null)).statusCode).toBe(401);
    const row = await t.store.db.selectFrom("calendarPreferences").select("feedToken").where("userId", "=", 1).executeTakeFirst();
    expect(row?.feedToken ?? "").not.toContain(pathOf(mine).split("/").pop()!.replace(".ics", ""));
  });
});

describe("the user's time zone", () => {
  it("is the server's until the user saves one; a name that is no zone is a clear 400 and changes nothing", async () => {
    expect((await call("GET", "/api/calendar/time-zone")).json()).toEqual({ timeZone: t.config.defaultTimeZone, saved: false });
    const saved = await call("PUT", "/api/calendar/time-zone", { timeZone: "America/New_York" });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ timeZone: "America/New_York", saved: true });
    for (const timeZone of ["Mars/Olympus", "", 42]) {
      const bad = await call("PUT", "/api/calendar/time-zone", { timeZone });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ error: CALENDAR_FEED_ERRORS.timeZoneInvalid, code: "validation_error" });
    }
    expect((await call("GET", "/api/calendar/time-zone")).json()).toEqual({ timeZone: "America/New_York", saved: true });
    const other = await t.loginAsNewUser();
    expect((await call("GET", "/api/calendar/time-zone", undefined, other.cookie)).json().saved).toBe(false);
  });
});
