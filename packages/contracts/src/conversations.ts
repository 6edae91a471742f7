import { z } from "zod";

/** A conversation; `name` may be empty (shown as Untitled). */
export const conversationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.string(),
});
export type Conversation = z.infer<typeof conversationSchema>;
export const conversationListSchema = z.array(conversationSchema);

export const MAX_CONVERSATION_NAME = 500;
export const DEFAULT_CONVERSATION_NAME = "New Conversation";

/** POST /api/conversations. Any name is accepted, even empty; the server only bounds its length. */
export const createConversationBodySchema = z.object({
  name: z.string().max(MAX_CONVERSATION_NAME).default(DEFAULT_CONVERSATION_NAME),
});
/** PATCH /api/conversations/{id}: rename sends whatever is in the input, including empty. */
export const updateConversationBodySchema = z.object({
  name: z.string().max(MAX_CONVERSATION_NAME),
});

/** Stored roles; the detail screen shows `model` as `ai`. */
export const messageRoleSchema = z.enum(["user", "model"]);
export type MessageRole = z.infer<typeof messageRoleSchema>;

export const messageSchema = z.object({
  id: z.number().int(),
  conversationId: z.number().int(),
  role: messageRoleSchema,
  content: z.string(),
  createdAt: z.string(),
});
export type Message = z.infer<typeof messageSchema>;
/** Sorted by id ascending. */
export const messageListSchema = z.array(messageSchema);

export const MAX_MESSAGE_LENGTH = 200_000;
/** POST /api/conversations/{id}/messages; the response is the updated message list. */
export const appendMessageBodySchema = z.object({
  content: z.string().min(1, "content must not be empty").max(MAX_MESSAGE_LENGTH),
  role: messageRoleSchema,
});
export type AppendMessageBody = z.infer<typeof appendMessageBodySchema>;
