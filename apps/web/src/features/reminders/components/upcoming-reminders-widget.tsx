import { format } from "date-fns";
import { useMemo } from "react";
import { Link } from "wouter";
import { cn } from "@/lib/cn";
import { useReminders } from "../api/get-reminders";
import { useNow } from "../hooks/use-now";
import { bucketReminders, remindersShownToday, sortReminders } from "../reminder-buckets";
import { OVERDUE_TEXT_CLASS, PRIORITY_TEXT_CLASS, TYPE_ICON } from "../reminder-style";

const SHOWN = 3;

/**
 * The conversation list's reminders widget: today's and overdue counts and the nearest few reminders, leaving out
 * those the Today panel above already lists (issue 52 item 16: each reminder once on the page).
 */
export function UpcomingRemindersWidget() {
  const reminders = useReminders();
  const now = useNow();
  const { buckets, nearest } = useMemo(() => {
    const list = reminders.data ?? [];
    const inToday = new Set(remindersShownToday(list, now));
    return {
      buckets: bucketReminders(list, now),
      nearest: sortReminders(list, now)
        .filter((reminder) => !inToday.has(reminder))
        .slice(0, SHOWN),
    };
  }, [reminders.data, now]);

  if (reminders.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        Failed to fetch reminders
      </p>
    );
  }
  return (
    <section aria-labelledby="upcoming-reminders-heading" className="rounded-xl border p-4" data-testid="upcoming-reminders">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="upcoming-reminders-heading" className="font-semibold">
          Upcoming Reminders
        </h2>
        <p className="text-sm text-muted-foreground">
          {`${buckets.today.length} due today`}
          {" · "}
          <span className={cn(buckets.overdue.length > 0 && OVERDUE_TEXT_CLASS)}>{`${buckets.overdue.length} overdue`}</span>
        </p>
      </div>
      {nearest.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">{reminders.isPending ? "Loading reminders..." : "No upcoming reminders"}</p>
      ) : (
        <ul className="mt-2 grid grid-cols-1 gap-1">
          {nearest.map((reminder) => {
            const Icon = TYPE_ICON[reminder.type];
            return (
              <li key={reminder.id} className="flex items-center gap-2 text-sm">
                <Icon aria-hidden className={cn("size-4 shrink-0", PRIORITY_TEXT_CLASS[reminder.priority])} />
                <span className="min-w-0 flex-1 truncate" title={reminder.title}>
                  {reminder.title}
                </span>
                <span className="shrink-0 text-xs text-muted-foreground">{`Due ${format(reminder.due.date, "MMM d")}`}</span>
                {reminder.conversationId !== null && (
                  <Link href={`/conversations/${reminder.conversationId}`} className="shrink-0 text-xs text-primary hover:underline">
                    View Chat
                  </Link>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
