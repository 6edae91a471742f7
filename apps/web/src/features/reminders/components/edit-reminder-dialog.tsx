import { toastError } from "@/components/ui/toast-error";
import type { Reminder } from "../api/get-reminders";
import { useUpdateReminder } from "../api/update-reminder";
import { ReminderFormDialog, type ReminderFormValues } from "./reminder-form-dialog";

/** Edits title, description, due date, priority (and type); only changed fields are sent. */
export function EditReminderDialog({ reminder, onClose }: { reminder: Reminder | undefined; onClose: () => void }) {
  const update = useUpdateReminder();

  function save(values: ReminderFormValues) {
    if (!reminder) return;
    const patch = {
      ...(values.title !== reminder.title ? { title: values.title } : {}),
      ...(values.description !== reminder.description ? { description: values.description } : {}),
      ...(values.priority !== reminder.priority ? { priority: values.priority } : {}),
      ...(values.type !== reminder.type ? { type: values.type } : {}),
      ...(values.dueDate && !sameDue(values.dueDate, reminder) ? { dueDate: values.dueDate } : {}),
    };
    if (Object.keys(patch).length === 0) return onClose();
    update.mutate(
      { id: reminder.id, patch },
      {
        // No toast: the changed reminder is on screen (issue 33 item 16).
        onSuccess: () => onClose(),
        onError: (error) => toastError({ title: "Failed to update reminder", error, fallback: "Failed to update reminder", otherErrors: "fallback" }),
      },
    );
  }

  return (
    <ReminderFormDialog
      open={reminder !== undefined}
      onOpenChange={(open) => !open && onClose()}
      heading="Edit Reminder"
      submitLabel="Save Changes"
      validate
      showType
      initial={reminder}
      pending={update.isPending}
      onSubmit={save}
    />
  );
}

function sameDue(dueDate: string, reminder: Reminder): boolean {
  if (reminder.due.allDay || dueDate.length === 10) return dueDate === reminder.dueDate;
  return new Date(dueDate).getTime() === reminder.due.date.getTime();
}
