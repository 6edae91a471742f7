import { useMutation, useQueryClient } from "@tanstack/react-query";
import { reminderSchema, type UpdateReminderRequest } from "@sage/contracts/reminders";
import { apiRequest } from "@/lib/api-client";
import { remindersQueryKey, toReminder, type Reminder } from "./get-reminders";

export async function updateReminder(id: number, patch: UpdateReminderRequest): Promise<Reminder> {
  return toReminder(await apiRequest(`/api/reminders/${id}`, { method: "PATCH", body: patch, schema: reminderSchema }));
}

export function useUpdateReminder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: number; patch: UpdateReminderRequest }) => updateReminder(id, patch),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: remindersQueryKey }),
  });
}

/** Marks the given reminders read (opening the sheet); one PATCH each, then one refetch. */
export function useMarkRemindersRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => Promise.all(ids.map((id) => updateReminder(id, { status: "read" }))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: remindersQueryKey }),
  });
}
