import { useMutation, useQueryClient } from "@tanstack/react-query";
import { conversationSchema, DEFAULT_CONVERSATION_NAME, type Conversation } from "@sage/contracts/conversations";
import { apiRequest } from "@/lib/api-client";
import { conversationsQueryKey } from "./get-conversations";

export function createConversation(name: string = DEFAULT_CONVERSATION_NAME): Promise<Conversation> {
  return apiRequest("/api/conversations", { method: "POST", body: { name }, schema: conversationSchema });
}

export function useCreateConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => createConversation(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: conversationsQueryKey }),
  });
}
