import { useMutation, useQueryClient } from "@tanstack/react-query";
import { conversationSchema, type Conversation, type UpdateConversationBody } from "@sage/contracts/conversations";
import { apiRequest } from "@/lib/api-client";
import { conversationQueryKey } from "./get-conversation";
import { conversationsQueryKey } from "./get-conversations";

/** Rename sends whatever is in the input, including an empty name; pin and model change only themselves. */
export function updateConversation({ id, ...change }: { id: number | string } & UpdateConversationBody): Promise<Conversation> {
  return apiRequest(`/api/conversations/${id}`, { method: "PATCH", body: change, schema: conversationSchema });
}

export function useUpdateConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateConversation,
    onSuccess: (conversation) => {
      queryClient.setQueryData(conversationQueryKey(String(conversation.id)), conversation);
      return queryClient.invalidateQueries({ queryKey: conversationsQueryKey, exact: true });
    },
  });
}
