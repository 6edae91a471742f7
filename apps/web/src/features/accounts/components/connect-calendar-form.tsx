import type { CreateCalendarAccountRequest, TestConnectionResponse } from "@sage/contracts/accounts";
import { useConnectForm } from "./use-connect-form";

const EMPTY: { name: string; source: "ics" | "caldav"; icsUrl: string; url: string; user: string; password: string } = {
  name: "",
  source: "ics",
  icsUrl: "",
  url: "",
  user: "",
  password: "",
};

/** What Test connection found, in a sentence: "Connection works: Work, Home · 14 events." */
export function calendarTestText(tested: TestConnectionResponse): string {
  if (!tested.ok) return tested.message;
  if (!("calendars" in tested)) return "Connection works.";
  return `Connection works: ${tested.calendars.join(", ")} · ${tested.events.toLocaleString("en-US")} ${tested.events === 1 ? "event" : "events"}.`;
}

/** The form to connect a calendar: a subscription address (read-only) or a CalDAV server (SAGE can add events after you approve). */
export function ConnectCalendarForm() {
  const { form, set, id, field, submit, footer } = useConnectForm({
    empty: EMPTY,
    request: (form): CreateCalendarAccountRequest =>
      form.source === "ics"
        ? { kind: "calendar", name: form.name, icsUrl: form.icsUrl }
        : { kind: "calendar", name: form.name, caldav: { url: form.url, user: form.user, password: form.password } },
    failure: "Failed to connect the calendar",
    testText: calendarTestText,
    required: true,
  });

  return (
    <form onSubmit={submit} aria-label="Connect a calendar" className="flex flex-col gap-3 rounded-lg border p-3">
      <h3 className="font-semibold">Connect a calendar</h3>
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="sr-only">Kind of calendar</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name={`${id}-source`} checked={form.source === "ics"} onChange={() => set("source")("ics")} />
          Subscription address (ICS)
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name={`${id}-source`} checked={form.source === "caldav"} onChange={() => set("source")("caldav")} />
          CalDAV server
        </label>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        {field("name", "Calendar name")}
        {form.source === "ics" ? (
          field("icsUrl", "Secret address in iCal format", { type: "url", placeholder: "https://calendar.google.com/calendar/ical/.../basic.ics" })
        ) : (
          <>
            {field("url", "CalDAV server address", { type: "url", placeholder: "https://caldav.fastmail.com/" })}
            {field("user", "User name", { autoComplete: "username" })}
            {field("password", "Password or app password", { type: "password", autoComplete: "current-password" })}
          </>
        )}
      </div>
      <p className="text-sm text-muted-foreground">
        {form.source === "ics"
          ? "Google Calendar: Settings > your calendar > Secret address in iCal format. Outlook: Settings > Calendar > Shared calendars > Publish a calendar, then copy the ICS link. SAGE only reads it."
          : "SAGE reads your events and adds or changes one only after you approve it. iCloud and Fastmail need an app password."}
      </p>
      {footer}
    </form>
  );
}
