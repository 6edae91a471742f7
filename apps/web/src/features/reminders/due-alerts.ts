import type { Reminder } from "./api/get-reminders";

/** A reminder is announced once per due date: rescheduling it makes it announceable again. */
export const alertKey = (reminder: Pick<Reminder, "id" | "dueDate">) => `${reminder.id}@${reminder.dueDate}`;

/**
 * The reminders that fell due while the app was open (after `openedAt`, and after they were
 * created) and have not been announced yet. A whole-day reminder falls due when its day starts.
 */
export function remindersFallenDue(reminders: readonly Reminder[], options: { now: Date; openedAt: Date; announced: ReadonlySet<string> }): Reminder[] {
  const { now, openedAt, announced } = options;
  return reminders.filter((reminder) => {
    const due = reminder.due.date.getTime();
    return due <= now.getTime() && due > openedAt.getTime() && due > new Date(reminder.createdAt).getTime() && !announced.has(alertKey(reminder));
  });
}

/** Milliseconds until the next reminder falls due after `now`, or undefined if none will. */
export function msUntilNextDue(reminders: readonly Reminder[], now: Date): number | undefined {
  const upcoming = reminders.map((reminder) => reminder.due.date.getTime() - now.getTime()).filter((ms) => ms > 0);
  return upcoming.length ? Math.min(...upcoming) : undefined;
}
