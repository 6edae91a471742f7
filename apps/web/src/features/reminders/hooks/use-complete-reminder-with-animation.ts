import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "@/components/ui/use-toast";
import { completeReminder } from "../api/complete-reminder";
import { remindersQueryKey, type Reminder } from "../api/get-reminders";

const ANIMATION_MS = 500;

/** Completing fades and strikes the row through, deletes the reminder, then toasts and refreshes. */
export function useCompleteReminderWithAnimation() {
  const queryClient = useQueryClient();
  const [completingIds, setCompletingIds] = useState<ReadonlySet<number>>(new Set());

  const setCompleting = (id: number, completing: boolean) =>
    setCompletingIds((current) => {
      const next = new Set(current);
      if (completing) next.add(id);
      else next.delete(id);
      return next;
    });

  async function complete(reminder: Reminder) {
    setCompleting(reminder.id, true);
    try {
      await Promise.all([completeReminder(reminder.id), new Promise((resolve) => setTimeout(resolve, ANIMATION_MS))]);
      toast({ title: "Reminder completed", description: "The reminder has been removed." });
      await queryClient.invalidateQueries({ queryKey: remindersQueryKey });
    } catch {
      // A failed delete is not reported: the row simply comes back.
    } finally {
      setCompleting(reminder.id, false);
    }
  }

  return { completingIds, complete };
}
