import { useQueryClient } from "@tanstack/react-query";
import { DEFAULT_CONVERSATION_NAME, type Conversation, type Message } from "@sage/contracts/conversations";
import { useEffect } from "react";
import { conversationQueryKey } from "../api/get-conversation";

/**
 * The server names a "New Conversation" after its first exchange (decision 035): once a reply is in while the
 * name shown is still the default, read the conversation again so the header shows its new name.
 */
export function useNameAfterExchange(id: string, conversation: Conversation | null | undefined, messages: Message[] | undefined) {
  const queryClient = useQueryClient();
  const stillDefault = conversation?.name === DEFAULT_CONVERSATION_NAME;
  const replies = messages?.filter((message) => message.role === "model").length ?? 0;
  useEffect(() => {
    if (stillDefault && replies > 0) void queryClient.invalidateQueries({ queryKey: conversationQueryKey(id), exact: true });
  }, [queryClient, id, stillDefault, replies]);
}
