import type { ReactNode } from "react";
import type { Reminder } from "../api/get-reminders";
import { ReminderRow } from "./reminder-row";

export function ReminderList({
  reminders,
  empty,
  completingIds,
  onComplete,
  onEdit,
  showViewChat,
}: {
  reminders: readonly Reminder[];
  empty: ReactNode;
  completingIds: ReadonlySet<number>;
  onComplete: (reminder: Reminder) => void;
  onEdit: (reminder: Reminder) => void;
  showViewChat?: boolean;
}) {
  if (reminders.length === 0) return <p className="py-6 text-center text-sm text-muted-foreground">{empty}</p>;
  return (
    <ul className="grid gap-2">
      {reminders.map((reminder) => (
        <ReminderRow
          key={reminder.id}
          reminder={reminder}
          isCompleting={completingIds.has(reminder.id)}
          onComplete={onComplete}
          onEdit={onEdit}
          showViewChat={showViewChat}
        />
      ))}
    </ul>
  );
}
