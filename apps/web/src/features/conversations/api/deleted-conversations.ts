import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { conversationSchema, deletedConversationListSchema, type DeletedConversation } from "@sage/contracts/conversations";
import { apiRequest, getJson } from "@/lib/api-client";
import { conversationsQueryKey } from "./get-conversations";

export const deletedConversationsQueryKey = ["conversations", "deleted"] as const;

export async function getDeletedConversations(): Promise<DeletedConversation[]> {
  return (await getJson("/api/conversations/deleted", deletedConversationListSchema)) ?? [];
}

export const deletedConversationsQueryOptions = () =>
  queryOptions({ queryKey: deletedConversationsQueryKey, queryFn: getDeletedConversations, staleTime: 0, refetchOnMount: "always" });

export const useDeletedConversations = (enabled = true) => useQuery({ ...deletedConversationsQueryOptions(), enabled });

export const restoreConversation = (id: number) => apiRequest(`/api/conversations/${id}/restore`, { method: "POST", schema: conversationSchema });

/** Restoring brings the conversation back to the list with its reminders and files. */
export function useRestoreConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreConversation,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: conversationsQueryKey }),
        queryClient.invalidateQueries({ queryKey: ["reminders"] }),
        queryClient.invalidateQueries({ queryKey: ["knowledge"] }),
      ]),
  });
}
