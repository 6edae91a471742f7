import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/api-client";
import { remindersQueryKey } from "./get-reminders";

/** Completing deletes the reminder; spec 7: the response is not checked. */
export async function completeReminder(id: number): Promise<void> {
  await apiFetch(`/api/reminders/${id}`, { method: "DELETE" });
}

export function useCompleteReminder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeReminder,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: remindersQueryKey }),
  });
}
