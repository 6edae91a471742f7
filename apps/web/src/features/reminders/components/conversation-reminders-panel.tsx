import { PlusIcon } from "lucide-react";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/error-message";
import { useCreateReminder } from "../api/create-reminder";
import { useReminders, type Reminder } from "../api/get-reminders";
import { useCompleteReminderWithAnimation } from "../hooks/use-complete-reminder-with-animation";
import { useNow } from "../hooks/use-now";
import { sortReminders } from "../reminder-buckets";
import { EditReminderDialog } from "./edit-reminder-dialog";
import { ReminderFormDialog, type ReminderFormValues } from "./reminder-form-dialog";
import { ReminderList } from "./reminder-list";

/** The conversation detail's right-panel Reminders: this conversation's reminders, nearest first. */
export function ConversationRemindersPanel({ conversationId }: { conversationId: number }) {
  const reminders = useReminders(conversationId);
  const now = useNow();
  const sorted = useMemo(() => sortReminders(reminders.data ?? [], now), [reminders.data, now]);
  const { completingIds, complete } = useCompleteReminderWithAnimation();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Reminder>();
  const create = useCreateReminder();
  const [createError, setCreateError] = useState<string>();

  function openCreate(open: boolean) {
    setCreating(open);
    setCreateError(undefined);
  }

  function submit(values: ReminderFormValues) {
    setCreateError(undefined);
    create.mutate(
      { ...values, conversationId, status: "unread" },
      {
        onSuccess: () => {
          toast({ title: "Reminder created", description: "Your new reminder has been added." });
          openCreate(false);
        },
        onError: (error) => setCreateError(errorMessage(error, { fallback: "Failed to create reminder", otherErrors: "fallback" })),
      },
    );
  }

  return (
    <section aria-labelledby="conversation-reminders-heading" className="grid gap-3" data-testid="conversation-reminders">
      <div className="flex items-center justify-between gap-2">
        <h2 id="conversation-reminders-heading" className="text-sm font-semibold">
          Reminders
        </h2>
        <Button type="button" size="sm" variant="outline" onClick={() => openCreate(true)}>
          <PlusIcon aria-hidden />
          Add Reminder
        </Button>
      </div>
      {reminders.isError ? (
        <p role="alert" className="text-sm text-destructive">
          Failed to fetch reminders
        </p>
      ) : (
        <ReminderList
          reminders={sorted}
          empty={reminders.isPending ? "Loading..." : "No reminders for this conversation"}
          completingIds={completingIds}
          onComplete={complete}
          onEdit={setEditing}
          showViewChat={false}
        />
      )}
      <ReminderFormDialog
        open={creating}
        onOpenChange={openCreate}
        heading="Create Reminder"
        submitLabel="Create Reminder"
        validate
        showType
        pending={create.isPending}
        error={createError}
        onSubmit={submit}
      />
      <EditReminderDialog reminder={editing} onClose={() => setEditing(undefined)} />
    </section>
  );
}
