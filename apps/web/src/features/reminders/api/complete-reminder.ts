import { apiFetch } from "@/lib/api-client";

/** Completing deletes the reminder; the reply carries nothing the list needs, so it is not read. */
export async function completeReminder(id: number): Promise<void> {
  await apiFetch(`/api/reminders/${id}`, { method: "DELETE" });
}
