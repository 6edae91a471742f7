import { describe, expect, it } from "vitest";
import type { AccountRow } from "../../store/schema.ts";
import type { AccountsRepo } from "./accounts.repo.ts";
import type { CalendarEventsRepo } from "./calendar-events.repo.ts";
import { calendarReadProblem, syncCalendarAccount, UNEXPECTED_SYNC_FAILURE, type CalendarSyncDeps } from "./calendar-sync.ts";

/** A subscription account (id 41) over fakes of the store: only what one sync touches. */
function subscription(expand: CalendarSyncDeps["expand"]) {
  const account = {
    id: 41,
    userId: 3,
    kind: "calendar",
    settings: JSON.stringify({ caldav: null, ics: { host: "calendar.example" } }),
    secrets: "sealed",
  } as AccountRow;
  const updates: Array<Partial<AccountRow>> = [];
  const logged: Array<{ message: string; error?: unknown }> = [];
  const deps: CalendarSyncDeps = {
    repo: { findById: async () => account, update: async (_id: number, patch: Partial<AccountRow>) => void updates.push(patch) } as unknown as AccountsRepo,
    calendar: {
      objectsOf: async () => [],
      removeObjects: async () => undefined,
      saveObject: async () => 7,
      replaceEvents: async () => undefined,
      timeZone: async () => "Europe/Zurich",
    } as unknown as CalendarEventsRepo,
    source: async () => ({ kind: "ics", url: "https://calendar.example/secret.ics" }),
    rule: { allowPrivate: false, allowHosts: [] },
    connectCaldav: async () => {
      throw new Error("not CalDAV");
    },
    connectGraph: () => {
      throw new Error("not Graph");
    },
    fetchIcs: async () => "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",
    expand,
    defaultTimeZone: "UTC",
    warn: (message, error) => void logged.push({ message, error }),
  };
  return { deps, updates, logged };
}

describe("a calendar sync that stops on an unexpected error (issue 52 item 3)", () => {
  it("is logged with its cause and the account's id, and the account says the sync stopped", async () => {
    const cause = new TypeError("Cannot read properties of undefined (reading 'tzid')");
    const { deps, updates, logged } = subscription(async () => Promise.reject(cause));
    await expect(syncCalendarAccount(deps, 41)).rejects.toBe(cause);
    // Before: the account said "The sync stopped on an unexpected error" and the log said nothing.
    expect(logged).toEqual([{ message: expect.stringContaining("calendar account 41"), error: cause }]);
    expect(updates.at(-1)).toEqual({ status: "error", error: UNEXPECTED_SYNC_FAILURE });
  });

  it("says in words which events could not be read, and is never Up to date with nothing from a file of events (item 2)", () => {
    const window = { from: Date.parse("2026-09-07T10:00:00Z"), to: Date.parse("2027-12-06T10:00:00Z") };
    const none = { occurrences: [], unreadable: [], events: 2, unreadableEvents: 0 };
    expect(calendarReadProblem(none, window)).toEqual({
      status: "error",
      error: "The calendar holds 2 events, none of them between 7 Sep 2026 and 6 Dec 2027 (the past 90 days and the year ahead, which SAGE shows).",
    });
    expect(calendarReadProblem({ ...none, events: 1, unreadableEvents: 1, unreadable: [7] }, window)).toEqual({
      status: "error",
      error: "SAGE could not read the event in this calendar: the file uses a form SAGE does not understand. Check the calendar in the app it comes from.",
    });
    expect(calendarReadProblem({ ...none, events: 0 }, window)).toBeNull();
  });
});
