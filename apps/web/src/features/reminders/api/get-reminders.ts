import { queryOptions, useQuery } from "@tanstack/react-query";
import { reminderListSchema, type Reminder as ReminderRecord } from "@sage/contracts/reminders";
import { getJson } from "@/lib/api-client";
import { parseDueDate, type DueDate } from "../due-date";

/** A reminder as the UI uses it: the API record plus its due date read as a local date. */
export type Reminder = ReminderRecord & { due: DueDate };

export const toReminder = (record: ReminderRecord): Reminder => ({ ...record, due: parseDueDate(record.dueDate) });

export const remindersQueryKey = ["reminders"] as const;

export async function getReminders(conversationId?: number): Promise<Reminder[]> {
  const path = conversationId === undefined ? "/api/reminders" : `/api/reminders?conversationId=${conversationId}`;
  return ((await getJson(path, reminderListSchema)) ?? []).map(toReminder);
}

export function remindersQueryOptions(conversationId?: number) {
  return queryOptions({
    queryKey: conversationId === undefined ? remindersQueryKey : [...remindersQueryKey, { conversationId }],
    queryFn: () => getReminders(conversationId),
  });
}

export function useReminders(conversationId?: number) {
  return useQuery(remindersQueryOptions(conversationId));
}

export function unreadReminderCount(reminders: readonly Pick<Reminder, "status">[] | undefined): number {
  return reminders?.filter((reminder) => reminder.status === "unread").length ?? 0;
}
