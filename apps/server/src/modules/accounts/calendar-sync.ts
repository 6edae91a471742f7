import { calendarProblemMessage } from "@sage/contracts/accounts";
import type { CaldavConnection, CaldavServer, CalendarObjectData } from "../../providers/calendar/caldav-client.ts";
import type { ExpandResult } from "../../providers/calendar/expand-calendar.ts";
import type { GraphConnection, GraphServer } from "../../providers/calendar/graph-calendar.ts";
import { ConversionError } from "../../documents/documents.ts";
import type { PrivateAddressRule } from "../../providers/mail/allowed-host.ts";
import { MailConnectionError } from "../../providers/mail/mail-connection-error.ts";
import type { AccountsRepo } from "./accounts.repo.ts";
import type { CalendarEventsRepo } from "./calendar-events.repo.ts";
import { calendarHost, readCalendarSettings, type CalendarSettings } from "./calendar-settings.ts";
import type { CalendarSource, CalendarSourceOf } from "./calendar-source.ts";
import { signInFailure } from "./sign-in-failure.ts";

const DAY_MS = 86_400_000;
/** Occurrences are kept from this long ago... */
export const WINDOW_PAST_DAYS = 90;
/** ...to this far ahead; each sync moves the window on. */
export const WINDOW_FUTURE_DAYS = 365;
/** An ICS subscription is one object: its href. */
const SUBSCRIPTION_HREF = "subscription.ics";

export type ConnectCaldav = (server: CaldavServer, rule: PrivateAddressRule) => Promise<CaldavConnection>;
export type ConnectGraph = (server: GraphServer, rule: PrivateAddressRule) => GraphConnection;

export interface CalendarSyncDeps {
  repo: AccountsRepo;
  calendar: CalendarEventsRepo;
  /** The account's source with its password, ICS address or access token (null: no secret kept). */
  source: CalendarSourceOf;
  rule: PrivateAddressRule;
  connectCaldav: ConnectCaldav;
  connectGraph: ConnectGraph;
  fetchIcs(url: string, rule: PrivateAddressRule): Promise<string>;
  expand(request: { objects: Array<{ id: number; ics: string }>; from: string; to: string; timeZone: string }): Promise<ExpandResult>;
  defaultTimeZone: string;
  now?: () => Date;
  /** Where a sync that stopped on an unexpected error is logged, with its cause and the account's id. */
  warn?(message: string, error?: unknown): void;
}

export const UNEXPECTED_SYNC_FAILURE = "The sync stopped on an unexpected error; it will be tried again at the next sync.";

export function calendarSyncFailure(error: unknown, settings: CalendarSettings): string {
  if (error instanceof MailConnectionError) return calendarProblemMessage(error.problem, calendarHost(settings), Boolean(settings.auth));
  // The calendar reader's own words ("The calendar could not be read: it took longer than 60 s") say what happened.
  if (error instanceof ConversionError) return `${error.message} It will be tried again at the next sync.`;
  return UNEXPECTED_SYNC_FAILURE;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "7 Sep 2026" */
const dayOf = (ms: number) => {
  const date = new Date(ms);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
};

/**
 * What a sync that read the calendar says beside its status: null when all is well. A calendar with events none of
 * which could be read, or none of which fall in the window, is never "Up to date" with nothing to show (issue 52).
 */
export function calendarReadProblem(result: ExpandResult, window: { from: number; to: number }): { status: "ok" | "error"; error: string } | null {
  const { events, unreadableEvents, occurrences } = result;
  if (events === 0 || (unreadableEvents === 0 && occurrences.length > 0)) return null;
  const plural = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "event" : "events"}`;
  if (occurrences.length === 0 && unreadableEvents === events) {
    return {
      status: "error",
      error: `SAGE could not read the ${events === 1 ? "event" : `${plural(events)}`} in this calendar: the file uses a form SAGE does not understand. Check the calendar in the app it comes from.`,
    };
  }
  if (occurrences.length === 0) {
    return {
      status: "error",
      error: `The calendar holds ${plural(events - unreadableEvents)}, none of them between ${dayOf(window.from)} and ${dayOf(window.to)} (the past 90 days and the year ahead, which SAGE shows).${unreadableEvents > 0 ? ` ${plural(unreadableEvents)} could not be read.` : ""}`,
    };
  }
  return { status: "ok", error: `${plural(unreadableEvents)} of ${events.toLocaleString("en-US")} could not be read; the others are shown.` };
}

/**
 * The objects on the other side: every event resource of a CalDAV account, the one text of a subscription, or the
 * window's occurrences of a Microsoft 365 calendar (Graph's calendarView).
 */
async function remoteObjects(deps: CalendarSyncDeps, source: CalendarSource, window: { from: string; to: string }): Promise<CalendarObjectData[]> {
  if (source.kind === "caldav") return (await deps.connectCaldav(source.server, deps.rule)).objects();
  if (source.kind === "graph") return deps.connectGraph(source.server, deps.rule).objects(window);
  return [{ href: SUBSCRIPTION_HREF, calendarUrl: "", etag: null, ics: await deps.fetchIcs(source.url, deps.rule) }];
}

/**
 * One sync of a calendar account: the server's objects replace those stored (new, changed and deleted ones
 * follow), then every object is expanded again over the window (past 90 days, next 365) in the user's time zone,
 * recurring events with their exceptions, and the account's occurrences are replaced in one transaction.
 */
export async function syncCalendarAccount(deps: CalendarSyncDeps, accountId: number): Promise<void> {
  const { repo, calendar } = deps;
  const account = await repo.findById(accountId);
  if (!account || account.kind !== "calendar") return;
  const settings = readCalendarSettings(account);
  const now = (deps.now ?? (() => new Date()))().getTime();
  const window = { from: now - WINDOW_PAST_DAYS * DAY_MS, to: now + WINDOW_FUTURE_DAYS * DAY_MS };
  try {
    const source = await deps.source(account);
    if (!source) {
      await repo.update(accountId, { status: "password-needed", error: null });
      return;
    }
    const remote = await remoteObjects(deps, source, { from: new Date(window.from).toISOString(), to: new Date(window.to).toISOString() });
    if (!(await repo.findById(accountId))) return;
    const stored = await calendar.objectsOf(accountId);
    const seen = new Set(remote.map((object) => object.href));
    await calendar.removeObjects(stored.filter((object) => !seen.has(object.href)).map((object) => object.id));
    const objects: Array<{ id: number; ics: string }> = [];
    for (const object of remote) {
      const id = await calendar.saveObject({ accountId, href: object.href, calendarUrl: object.calendarUrl || null, etag: object.etag, ics: object.ics });
      objects.push({ id, ics: object.ics });
    }
    const result = await deps.expand({
      objects,
      from: new Date(window.from).toISOString(),
      to: new Date(window.to).toISOString(),
      timeZone: (await calendar.timeZone(account.userId)) ?? deps.defaultTimeZone,
    });
    if (!(await repo.findById(accountId))) return;
    await calendar.replaceEvents(accountId, account.userId, result.occurrences);
    const problem = calendarReadProblem(result, window);
    if (result.unreadableEvents > 0) deps.warn?.(`calendar account ${accountId}: ${result.unreadableEvents} of ${result.events} events could not be read`);
    await repo.update(accountId, {
      status: problem?.status ?? "ok",
      error: problem?.error ?? null,
      lastSyncAt: new Date().toISOString(),
      syncProcessed: 0,
      syncTotal: 0,
    });
  } catch (error) {
    const signIn = signInFailure(error, settings.auth?.provider);
    if (await repo.findById(accountId)) await repo.update(accountId, signIn ?? { status: "error", error: calendarSyncFailure(error, settings) });
    if (!(error instanceof MailConnectionError) && !signIn) {
      deps.warn?.(`calendar account ${accountId}: the sync stopped on an unexpected error`, error);
      throw error;
    }
  }
}
