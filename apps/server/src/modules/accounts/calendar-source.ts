import type { CaldavServer } from "../../providers/calendar/caldav-client.ts";
import type { GraphServer } from "../../providers/calendar/graph-calendar.ts";
import type { AccountRow } from "../../store/schema.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import { SignInNeededError, type SignInPort } from "../sign-in/sign-in.module.ts";
import { readCalendarSecrets, readCalendarSettings } from "./calendar-settings.ts";

/** Where a calendar account's events come from, with what logs in there. */
export type CalendarSource = { kind: "caldav"; server: CaldavServer } | { kind: "ics"; url: string } | { kind: "graph"; server: GraphServer };

/**
 * A calendar account's source: its sealed password or ICS address, or, for one that came with a sign-in, a working
 * access token (Google's CalDAV, Microsoft's Graph). null when no secret is kept ("password needed"); the sign-in's
 * errors when it ended or cannot be reached.
 */
export function createCalendarSource(deps: { box: SecretBox; signIn: SignInPort }) {
  return async (row: AccountRow): Promise<CalendarSource | null> => {
    const settings = readCalendarSettings(row);
    if (settings.auth) {
      if (row.grantId === null) throw new SignInNeededError(0);
      const accessToken = await deps.signIn.accessToken(row.grantId, "calendar");
      if (settings.graph) return { kind: "graph", server: { url: settings.graph.url, accessToken } };
      if (settings.caldav) return { kind: "caldav", server: { ...settings.caldav, accessToken } };
      return null;
    }
    const secrets = readCalendarSecrets(deps.box, row);
    if (!secrets) return null;
    if (settings.caldav && "password" in secrets) return { kind: "caldav", server: { ...settings.caldav, password: secrets.password } };
    if ("icsUrl" in secrets) return { kind: "ics", url: secrets.icsUrl };
    return null;
  };
}

export type CalendarSourceOf = ReturnType<typeof createCalendarSource>;
