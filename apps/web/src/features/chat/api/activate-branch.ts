import { messageListSchema, type Message } from "@sage/contracts/conversations";
import { apiRequest } from "@/lib/api-client";

/** Shows another version of a message (decision 045); answers the conversation's messages as then shown. */
export function activateBranch(conversationId: string, messageId: number): Promise<Message[]> {
  return apiRequest(`/api/conversations/${encodeURIComponent(conversationId)}/messages/${messageId}/activate`, {
    method: "POST",
    schema: messageListSchema,
  });
}
