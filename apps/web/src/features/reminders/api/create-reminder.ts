import { useMutation, useQueryClient } from "@tanstack/react-query";
import { reminderSchema, type CreateReminderRequest } from "@sage/contracts/reminders";
import { apiRequest } from "@/lib/api-client";
import { remindersQueryKey, toReminder, type Reminder } from "./get-reminders";

export async function createReminder(body: CreateReminderRequest): Promise<Reminder> {
  return toReminder(await apiRequest("/api/reminders", { method: "POST", body, schema: reminderSchema }));
}

export function useCreateReminder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReminder,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: remindersQueryKey }),
  });
}
