import { isSameDay, isSameMonth, isSameWeek } from "date-fns";
import type { DueDate } from "./due-date";
import { lastMomentOf } from "./due-date";

export type ReminderBucket = "today" | "week" | "month" | "overdue";

export interface Bucketable {
  due: DueDate;
  priority: "high" | "medium" | "low";
}

const PRIORITY_RANK = { high: 0, medium: 1, low: 2 } as const;

/**
 * Each rule on its own: overdue = due in the past; today = due today; this week = this week and
 * not today or overdue; this month = this month and not this week, today or overdue.
 * A reminder due earlier today is therefore both Today and Overdue. All in local time;
 * weeks start on Sunday (date-fns' default). A whole-day reminder is overdue once its day is over.
 */
export function bucketsOf(due: DueDate, now: Date): Set<ReminderBucket> {
  const buckets = new Set<ReminderBucket>();
  const overdue = lastMomentOf(due).getTime() < now.getTime();
  const today = isSameDay(due.date, now);
  const week = isSameWeek(due.date, now);
  if (overdue) buckets.add("overdue");
  if (today) buckets.add("today");
  if (week && !today && !overdue) buckets.add("week");
  if (isSameMonth(due.date, now) && !week && !today && !overdue) buckets.add("month");
  return buckets;
}

/** Nearest due date first by absolute distance to now, ties high > medium > low. */
export function sortReminders<T extends Bucketable>(reminders: readonly T[], now: Date): T[] {
  const distance = (reminder: T) => Math.abs(reminder.due.date.getTime() - now.getTime());
  return [...reminders].sort((a, b) => distance(a) - distance(b) || PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority]);
}

export type ReminderBuckets<T> = Record<ReminderBucket, T[]>;

export function bucketReminders<T extends Bucketable>(reminders: readonly T[], now: Date): ReminderBuckets<T> {
  const result: ReminderBuckets<T> = { today: [], week: [], month: [], overdue: [] };
  for (const reminder of sortReminders(reminders, now)) {
    for (const bucket of bucketsOf(reminder.due, now)) result[bucket].push(reminder);
  }
  return result;
}

/** How many of the reminders due today the Today panel lists. */
export const TODAY_REMINDERS_SHOWN = 5;

/** The reminders the Today panel lists: due today, nearest first; the Upcoming widget leaves them out (issue 52 item 16). */
export function remindersShownToday<T extends Bucketable>(reminders: readonly T[], now: Date): T[] {
  return sortReminders(bucketReminders(reminders, now).today, now).slice(0, TODAY_REMINDERS_SHOWN);
}
