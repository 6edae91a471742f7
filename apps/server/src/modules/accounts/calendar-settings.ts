import type { CreateCalendarAccountInput } from "@sage/contracts/accounts";
import type { OAuthProviderId } from "@sage/contracts/oauth";
import type { SecretBox } from "../../store/secret-box.ts";
import type { AccountRow } from "../../store/schema.ts";

/**
 * What a calendar account's row keeps in the clear: the CalDAV address and user, or only the host of an ICS
 * address, or Microsoft Graph's address. One that came with a sign-in (`auth`) has no secret of its own: its token
 * is the grant's (Google's CalDAV with the bearer token; Microsoft's Graph).
 */
export type CalendarSettings =
  | { caldav: { url: string; user: string }; ics: null; graph?: undefined; auth?: { provider: OAuthProviderId } | null }
  | { caldav: null; ics: { host: string }; graph?: undefined; auth?: null }
  | { caldav: null; ics: null; graph: { url: string; user: string }; auth: { provider: OAuthProviderId } };

/** What it keeps sealed (decision 037): the CalDAV password, or the whole ICS address (Google's and Outlook's are secret). */
export type CalendarSecrets = { password: string } | { icsUrl: string };

export const readCalendarSettings = (row: Pick<AccountRow, "settings">): CalendarSettings => JSON.parse(row.settings) as CalendarSettings;

export function readCalendarSecrets(box: SecretBox, row: Pick<AccountRow, "secrets">): CalendarSecrets | null {
  if (!row.secrets) return null;
  const plain = box.open(row.secrets);
  return plain === null ? null : (JSON.parse(plain) as CalendarSecrets);
}

export function calendarParts(input: { caldav?: CreateCalendarAccountInput["caldav"]; icsUrl?: string }): {
  settings: CalendarSettings;
  secrets: CalendarSecrets;
} {
  if (input.caldav)
    return { settings: { caldav: { url: input.caldav.url, user: input.caldav.user }, ics: null }, secrets: { password: input.caldav.password } };
  return { settings: { caldav: null, ics: { host: new URL(input.icsUrl!).hostname } }, secrets: { icsUrl: input.icsUrl! } };
}

/** The host the user's words name: never the (secret) address itself. */
export const calendarHost = (settings: CalendarSettings) =>
  settings.caldav ? new URL(settings.caldav.url).hostname : settings.ics ? settings.ics.host : new URL(settings.graph.url).hostname;
