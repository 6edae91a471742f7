import { toastError } from "@/components/ui/toast-error";
import { toast } from "@/components/ui/use-toast";
import { useCreateReminder } from "../api/create-reminder";
import { ReminderFormDialog, type ReminderFormValues } from "./reminder-form-dialog";

/** The sheet's create form checks nothing itself: the server's error text becomes the toast. */
export function CreateReminderFromSheetDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateReminder();

  function submit(values: ReminderFormValues) {
    create.mutate(
      {
        title: values.title,
        description: values.description,
        priority: values.priority,
        dueDate: values.dueDate,
        status: "unread",
        type: "reminder",
      },
      {
        onSuccess: () => {
          toast({ title: "Reminder created", description: "Your new reminder has been added." });
          onOpenChange(false);
        },
        onError: (error) => toastError({ title: "Failed to create reminder", error, fallback: "Failed to create reminder", otherErrors: "fallback" }),
      },
    );
  }

  return (
    <ReminderFormDialog
      open={open}
      onOpenChange={onOpenChange}
      heading="Create New Reminder"
      submitLabel="Create Reminder"
      validate={false}
      pending={create.isPending}
      onSubmit={submit}
    />
  );
}
