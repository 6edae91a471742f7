import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { remindersQueryKey } from "../api/get-reminders";
import { REMINDER_CREATED_EVENT } from "@/lib/reminder-created-event";

/**
 * Refetches every reminder list when the assistant reports a new reminder. The toast
 * ('New reminder created') is the chat's, which fires the event.
 */
export function useReminderCreatedListener() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const refetch = () => void queryClient.invalidateQueries({ queryKey: remindersQueryKey });
    window.addEventListener(REMINDER_CREATED_EVENT, refetch);
    return () => window.removeEventListener(REMINDER_CREATED_EVENT, refetch);
  }, [queryClient]);
}
