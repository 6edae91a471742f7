import type { CalendarEvent } from "@sage/contracts/calendar";
import { addDays, format, isSameDay, startOfDay } from "date-fns";
import { CalendarDays, Bell } from "lucide-react";
import { useMemo } from "react";
import { Link } from "wouter";
import { useCalendarEvents } from "@/features/accounts/api/accounts";
import { VoiceInputButton } from "@/features/chat/components/voice-input-button";
import { AddNotesButton } from "@/features/dossiers/add-notes";
import { DossierLink } from "@/features/dossiers/dossier-link";
import { NeedsReply, useNeedsReply } from "@/features/dossiers/needs-reply";
import { useReminders } from "@/features/reminders/api/get-reminders";
import { useNow } from "@/features/reminders/hooks/use-now";
import { bucketReminders, remindersShownToday, sortReminders } from "@/features/reminders/reminder-buckets";

/** Meetings shown: the next few of today and tomorrow. */
const MEETINGS_SHOWN = 3;

export const TODAY_TEXTS = {
  noMeetings: "No more meetings today or tomorrow.",
  noCalendar: "Connect a calendar in Settings > Accounts to see your meetings here.",
  noReminders: "No reminders for today",
  ended: "Earlier today",
} as const;

/** "Now", "15:00", "Tomorrow 09:00", "All day", "Tomorrow, all day", in the browser's time. */
function when(event: CalendarEvent, now: Date): string {
  const start = new Date(event.start);
  const tomorrow = !isSameDay(start, now) && start > now;
  if (event.allDay) return tomorrow ? "Tomorrow, all day" : "All day";
  if (start <= now) return `Now, until ${format(new Date(event.end), "HH:mm")}`;
  return tomorrow ? `Tomorrow ${format(start, "HH:mm")}` : format(start, "HH:mm");
}

/**
 * Today on the conversations page: the next meetings (synced calendars) and the reminders due today. Hidden when
 * no calendar is connected and nothing is due, so a user without either sees no empty box.
 */
export function TodayPanel() {
  const now = useNow();
  const day = startOfDay(now).getTime();
  const range = useMemo(() => ({ from: new Date(day), to: addDays(new Date(day), 2) }), [day]);
  const events = useCalendarEvents(range.from, range.to);
  const reminders = useReminders();
  const needsReply = useNeedsReply();
  const waitingMail = needsReply.data ?? [];
  const dueToday = useMemo(() => sortReminders(bucketReminders(reminders.data ?? [], now).today, now), [reminders.data, now]);
  const shown = useMemo(() => remindersShownToday(reminders.data ?? [], now), [reminders.data, now]);
  const meetings = (events.data?.events ?? []).filter((event) => new Date(event.end) > now).slice(0, MEETINGS_SHOWN);
  // Meetings that ended today, latest first: "Add notes" files what was said (issue 53).
  const ended = (events.data?.events ?? [])
    .filter((event) => !event.allDay && new Date(event.end) <= now && new Date(event.start).getTime() >= day)
    .reverse()
    .slice(0, MEETINGS_SHOWN);
  const connected = events.data?.connected ?? false;

  if (events.isPending || reminders.isPending) return null;
  if (!connected && dueToday.length === 0 && waitingMail.length === 0) return null;

  return (
    <section aria-labelledby="today-heading" className="rounded-xl border p-4" data-testid="today-panel">
      <h2 id="today-heading" className="font-semibold">
        {`Today, ${format(now, "EEEE d MMMM")}`}
      </h2>
      <div className="mt-2 grid gap-4 sm:grid-cols-2">
        <section aria-labelledby="today-meetings-heading" className="min-w-0">
          <h3 id="today-meetings-heading" className="flex items-center gap-1.5 text-sm font-medium text-muted-foreground">
            <CalendarDays className="size-4" aria-hidden />
            Next meetings
          </h3>
          {events.isError ? (
            <p className="mt-1 text-sm text-destructive">Failed to load your meetings</p>
          ) : !connected ? (
            <p className="mt-1 text-sm text-muted-foreground">
              <Link href="/settings" className="text-primary hover:underline">
                {TODAY_TEXTS.noCalendar}
              </Link>
            </p>
          ) : meetings.length === 0 ? (
            <p className="mt-1 text-sm text-muted-foreground">{TODAY_TEXTS.noMeetings}</p>
          ) : (
            <ul className="mt-1 grid gap-1">
              {meetings.map((event) => (
                // A phone's width holds the whole meeting: the time keeps its width, the title wraps (issue 52 item 15:
                // a fixed 8rem time column and one cut line left half of it unseen), and the dossier link may wrap below.
                <li key={event.id} className="flex flex-wrap items-baseline gap-x-2 text-sm">
                  <span className="shrink-0 text-xs text-muted-foreground tabular-nums sm:w-32">{when(event, now)}</span>
                  <span data-testid="meeting-title" className="min-w-0 flex-1 basis-48 break-words">
                    {event.title}
                    {event.location && <span className="text-muted-foreground">{` · ${event.location}`}</span>}
                  </span>
                  {!event.allDay && <DossierLink eventId={event.id} title={event.title} />}
                </li>
              ))}
            </ul>
          )}
        </section>
        {ended.length > 0 && (
          <section aria-labelledby="today-ended-heading" className="min-w-0">
            <h3 id="today-ended-heading" className="text-sm font-medium text-muted-foreground">
              {TODAY_TEXTS.ended}
            </h3>
            <ul className="mt-1 grid gap-1">
              {ended.map((event) => (
                <li key={event.id} className="flex flex-wrap items-baseline gap-x-2 text-sm">
                  <span className="shrink-0 text-xs text-muted-foreground tabular-nums sm:w-32">{`${format(new Date(event.start), "HH:mm")}–${format(new Date(event.end), "HH:mm")}`}</span>
                  <span className="min-w-0 flex-1 basis-48 break-words">{event.title}</span>
                  <AddNotesButton eventId={event.id} title={event.title} dictate={(append) => <VoiceInputButton onTranscript={append} />} />
                </li>
              ))}
            </ul>
          </section>
        )}
        <section aria-labelledby="today-reminders-heading" className="min-w-0">
          <h3 id="today-reminders-heading" className="flex items-center gap-1.5 text-sm font-medium text-muted-foreground">
            <Bell className="size-4" aria-hidden />
            {`Reminders due today (${dueToday.length})`}
          </h3>
          {reminders.isError ? (
            <p className="mt-1 text-sm text-destructive">Failed to fetch reminders</p>
          ) : dueToday.length === 0 ? (
            <p className="mt-1 text-sm text-muted-foreground">{TODAY_TEXTS.noReminders}</p>
          ) : (
            <ul className="mt-1 grid gap-1">
              {shown.map((reminder) => {
                // The title names the whole line, so a cut one can still be read (the layout audit's rule).
                const line = reminder.due.allDay ? reminder.title : `${format(reminder.due.date, "HH:mm")} ${reminder.title}`;
                return (
                  <li key={reminder.id} className="truncate text-sm" title={line}>
                    {line}
                  </li>
                );
              })}
            </ul>
          )}
        </section>
        {waitingMail.length > 0 && <NeedsReply items={waitingMail} now={now} />}
      </div>
    </section>
  );
}
