import { z } from "zod";
import { toolOutputSchema } from "./external-tools.ts";
import { approvalRiskSchema, callProvenanceSchema, contentSourceSchema } from "./provenance.ts";

/** A conversation; `name` may be empty (shown as Untitled). */
export const conversationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.string(),
  /** Pinned to the top of the list (absent when not). */
  pinned: z.boolean().optional(),
  /** The model the user chose for this conversation (absent: the server's default chat model). */
  model: z.string().optional(),
});
export type Conversation = z.infer<typeof conversationSchema>;
/**
 * GET /api/conversations: each item carries the first line of its last message when it has one, and `unread`
 * when a scheduled run wrote into it since the user last opened it (decision 041).
 */
export const conversationListItemSchema = conversationSchema.extend({ lastMessage: z.string().optional(), unread: z.literal(true).optional() });
export type ConversationListItem = z.infer<typeof conversationListItemSchema>;
export const conversationListSchema = z.array(conversationListItemSchema);

/** Days a deleted conversation, with its messages, files and reminders, can still be restored (decision 035). */
export const DELETED_CONVERSATION_DAYS = 30;
/** GET /api/conversations/deleted: the user's deleted conversations, most recently deleted first. */
export const deletedConversationSchema = conversationSchema.extend({
  deletedAt: z.string(),
  /** When the purge deletes it for good. */
  purgeAt: z.string(),
  reminderCount: z.number().int(),
  fileCount: z.number().int(),
});
export type DeletedConversation = z.infer<typeof deletedConversationSchema>;
export const deletedConversationListSchema = z.array(deletedConversationSchema);

export const MAX_CONVERSATION_NAME = 500;
export const DEFAULT_CONVERSATION_NAME = "New Conversation";

/** POST /api/conversations. Any name is accepted, even empty; the server only bounds its length. */
export const createConversationBodySchema = z.object({
  name: z.string().max(MAX_CONVERSATION_NAME).default(DEFAULT_CONVERSATION_NAME),
});
/**
 * PATCH /api/conversations/{id}: rename sends whatever is in the input, including empty; `pinned` pins it to the top
 * of the list or unpins it; `model` picks one of the allowed models for its turns (null: the default again).
 */
export const updateConversationBodySchema = z
  .object({
    name: z.string().max(MAX_CONVERSATION_NAME).optional(),
    pinned: z.boolean().optional(),
    model: z.string().trim().min(1).max(200).nullable().optional(),
  })
  .refine((body) => body.name !== undefined || body.pinned !== undefined || body.model !== undefined, "Send a name, pinned or model");
export type UpdateConversationBody = z.infer<typeof updateConversationBodySchema>;

/** Stored roles; the detail screen shows `model` as `ai`. */
export const messageRoleSchema = z.enum(["user", "model"]);
export type MessageRole = z.infer<typeof messageRoleSchema>;

/**
 * A passage of the user's documents that the model was given in a turn, numbered as the model saw it ([n]).
 * `source` is where in the file it came from (its last path segment is shown as the page or section).
 */
export const citationSchema = z.object({
  n: z.number().int().positive(),
  /** The cited knowledge item; 0 for a source that is not a file (`kind` says what it is). */
  fileId: z.number().int(),
  filename: z.string(),
  source: z.string(),
  score: z.number(),
  content: z.string(),
  /**
   * What the chip points at when it is not a file passage (the morning briefing's lines, decision 041): a calendar
   * event, a reminder, a conversation's message, a web page. Absent for a file.
   */
  kind: z.enum(["file", "event", "reminder", "message", "url", "resource", "contact", "person"]).optional(),
  /** Where the chip opens: an https URL (a web page) or a path in SAGE (/conversations/12). */
  href: z.string().optional(),
  /**
   * On a line SAGE wrote without a turn (a meeting dossier): the untrusted content whose words the line quotes ("the
   * mail from Anna Berg of 3 Dec"). Later turns count the message as content from there (issue 47).
   */
  from: contentSourceSchema.optional(),
});
export type Citation = z.infer<typeof citationSchema>;

/**
 * A tool the assistant ran during a turn: what the model asked for and what it was given back; `approval` when the
 * call waited for the user (why, and the answer).
 */
export const toolCallRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
  result: z.unknown(),
  approval: z
    .object({
      reason: z.string().optional(),
      kind: z.enum(["tool", "memory"]).optional(),
      risk: approvalRiskSchema.optional(),
      answer: z.enum(["approved", "declined", "timed-out"]),
    })
    .optional(),
  /** Where each argument's value came from, as decided when the call was made (issue 47); carded or not. */
  provenance: callProvenanceSchema.optional(),
  /**
   * The untrusted content the call's result gave the model (a mail, a document, a web page): later turns count the
   * answers written after it as content-derived (issue 47). Absent when it read nothing someone else wrote.
   */
  readFrom: z.array(contentSourceSchema).optional(),
  /** An external tool's structured data and resource links, as the chat shows them (decision 080). */
  output: toolOutputSchema.optional(),
});
export type ToolCallRecord = z.infer<typeof toolCallRecordSchema>;

/** A file the user attached to a message (issue 32): an item of the conversation's knowledge. */
export const messageAttachmentSchema = z.object({
  fileId: z.number().int().positive(),
  name: z.string(),
  mimeType: z.string().nullable(),
});
export type MessageAttachment = z.infer<typeof messageAttachmentSchema>;

/**
 * A saved message. Messages saved by an assistant turn carry more, each field present only when not empty:
 * a model message its `citations` (the document passages its answer drew on) and `toolCalls` (the tools its
 * reply ran); a user message its `context` (the knowledge snippets the model saw beside it) and `attachments`.
 */
export const messageSchema = z.object({
  id: z.number().int(),
  conversationId: z.number().int(),
  role: messageRoleSchema,
  content: z.string(),
  createdAt: z.string(),
  citations: z.array(citationSchema).optional(),
  toolCalls: z.array(toolCallRecordSchema).optional(),
  context: z.array(citationSchema).optional(),
  attachments: z.array(messageAttachmentSchema).optional(),
  /**
   * The message's branches, itself included, oldest first (decision 045): present when an edit or a regenerated
   * answer made more than one. POST .../messages/{messageId}/activate shows another.
   */
  siblings: z.array(z.number().int()).optional(),
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

/** GET /api/conversations/search?q=: the user's messages that hold every word of q, however accented or cased. */
export const MAX_MESSAGE_SEARCH_HITS = 50;
export const messageSearchQuerySchema = z.object({
  q: z.string().trim().min(1, "Type something to search for").max(500),
  limit: z.coerce.number().int().min(1).max(MAX_MESSAGE_SEARCH_HITS).default(20),
});
export const messageSearchHitSchema = z.object({
  conversationId: z.number().int(),
  name: z.string(),
  messageId: z.number().int(),
  role: messageRoleSchema,
  createdAt: z.string(),
  /** A few words around the first match, with "…" where the message goes on. */
  snippet: z.string(),
});
export type MessageSearchHit = z.infer<typeof messageSearchHitSchema>;
export const messageSearchResponseSchema = z.array(messageSearchHitSchema);
