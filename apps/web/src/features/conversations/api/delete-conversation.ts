import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import { conversationsQueryKey } from "./get-conversations";

export async function deleteConversation(id: number): Promise<void> {
  await apiRequest(`/api/conversations/${id}`, { method: "DELETE" });
}

/**
 * After a delete the list cache, the conversation's messages and files caches are dropped and
 * reminders are refreshed. Any cached query whose key names this conversation id goes (the files cache
 * belongs to the knowledge feature, so it is matched by id rather than imported).
 */
export async function dropConversationCaches(queryClient: QueryClient, id: number) {
  queryClient.removeQueries({ queryKey: ["conversations", String(id)] });
  queryClient.removeQueries({
    predicate: (query) => query.queryKey.length > 1 && query.queryKey.some((part) => part === id || part === String(id)),
  });
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: conversationsQueryKey, exact: true }),
    queryClient.invalidateQueries({ queryKey: ["reminders"] }),
  ]);
}

export function useDeleteConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteConversation,
    onSuccess: (_data, id) => dropConversationCaches(queryClient, id),
  });
}
