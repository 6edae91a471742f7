import { useId, useState, type FormEvent } from "react";
import type { CreateCalendarAccountRequest, TestConnectionResponse } from "@sage/contracts/accounts";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { useCreateAccount, useTestConnection } from "../api/accounts";

const EMPTY = { name: "", source: "ics" as "ics" | "caldav", icsUrl: "", url: "", user: "", password: "" };

/** What Test connection found, in a sentence: "Connection works: Work, Home · 14 events." */
export function calendarTestText(tested: TestConnectionResponse): string {
  if (!tested.ok) return tested.message;
  if (!("calendars" in tested)) return "Connection works.";
  return `Connection works: ${tested.calendars.join(", ")} · ${tested.events.toLocaleString("en-US")} ${tested.events === 1 ? "event" : "events"}.`;
}

/** The form to connect a calendar: a subscription address (read-only) or a CalDAV server (SAGE can add events after you approve). */
export function ConnectCalendarForm() {
  const [form, setForm] = useState(EMPTY);
  const [tested, setTested] = useState<TestConnectionResponse | null>(null);
  const create = useCreateAccount();
  const test = useTestConnection();
  const id = useId();
  const set = (field: keyof typeof EMPTY) => (value: string) => {
    setForm((old) => ({ ...old, [field]: value }));
    setTested(null);
  };
  const request = (): CreateCalendarAccountRequest =>
    form.source === "ics"
      ? { kind: "calendar", name: form.name, icsUrl: form.icsUrl }
      : { kind: "calendar", name: form.name, caldav: { url: form.url, user: form.user, password: form.password } };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(request(), {
      // An emptied form says nothing of what it held: the test's words go with it (issue 52 item 17).
      onSuccess: () => {
        setForm(EMPTY);
        setTested(null);
      },
      onError: (error) => toastError({ error, fallback: "Failed to connect the calendar" }),
    });
  };
  const field = (
    name: "name" | "icsUrl" | "url" | "user" | "password",
    label: string,
    props: { type?: string; autoComplete?: string; placeholder?: string } = {},
  ) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${id}-${name}`} className="text-sm font-medium">
        {label}
      </label>
      <Input id={`${id}-${name}`} value={form[name]} onChange={(event) => set(name)(event.target.value)} required {...props} />
    </div>
  );

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
      {tested && (
        <p role="status" className={`text-sm ${tested.ok ? "text-green-700 dark:text-green-400" : "text-destructive"}`}>
          {calendarTestText(tested)}
        </p>
      )}
      <div className="flex gap-2">
        <Button
          type="button"
          variant="outline"
          disabled={test.isPending}
          onClick={() => test.mutate(request(), { onSuccess: setTested, onError: (error) => toastError({ error, fallback: "Failed to test the connection" }) })}
        >
          {test.isPending ? "Testing..." : "Test connection"}
        </Button>
        <Button type="submit" disabled={create.isPending}>
          Connect
        </Button>
      </div>
    </form>
  );
}
