import { z } from "zod";
import { MAX_MESSAGE_LENGTH, citationSchema, messageSchema } from "./conversations.ts";
import { memorySchema } from "./memories.ts";
import { reminderSchema } from "./reminders.ts";

/**
 * POST /api/conversations/{id}/turn: one whole assistant turn, run on the server. Bad input, an unknown
 * conversation or a model the server does not allow are plain 4xx JSON answers; otherwise the answer is
 * `text/event-stream`, each event an `event:` name and one JSON `data:` line, in this order:
 *   user-message      the saved user message (a Message)
 *   citations         { items: Citation[] }        document passages the answer being written draws on
 *   text-delta        { text }                     reply text as the model produces it
 *   tool-call         { id, name, args }           a tool the model asked for (only the first call of a reply runs)
 *   tool-result       { id, name, result }         what the tool gave back to the model
 *   reminder-created  { reminder }                 a reminder the assistant created
 *   memory-saved      { memory }                   a memory the assistant saved (saveMemory); the chat offers Undo
 *   approval-required { approvalId, name, args }   an external tool waits for the user's answer (POST /api/approvals/{approvalId})
 *   notice            { text }                     a reply that is not from the model (no model configured); never saved
 *   error             { error, code, status, statusText }  a failure (the status a JSON reply would have had)
 *   done              { messages }                 the saved model messages; last event of every turn that saved
 * A text-delta after a tool-call starts the next model message. Closing the request (Stop, a closed tab) aborts
 * the model call; the partial answer is saved.
 */
export const turnRequestSchema = z.object({
  content: z
    .string()
    .max(MAX_MESSAGE_LENGTH)
    .refine((value) => value.trim() !== "", "content must not be empty"),
  /** One of the models the server allows; the server's default chat model when omitted. */
  model: z.string().max(200).optional(),
});
export type TurnRequest = z.infer<typeof turnRequestSchema>;

export const citationsEventSchema = z.object({ items: z.array(citationSchema) });
export const textDeltaEventSchema = z.object({ text: z.string() });
export const toolCallEventSchema = z.object({ id: z.string(), name: z.string(), args: z.record(z.string(), z.unknown()) });
export const toolResultEventSchema = z.object({ id: z.string(), name: z.string(), result: z.unknown() });
export const reminderCreatedEventSchema = z.object({ reminder: reminderSchema });
export const memorySavedEventSchema = z.object({ memory: memorySchema });
export { approvalRequiredEventSchema } from "./external-tools.ts";
export const noticeEventSchema = z.object({ text: z.string() });
export const turnErrorEventSchema = z.object({ error: z.string(), code: z.string().optional(), status: z.number().optional(), statusText: z.string().optional() });
export const doneEventSchema = z.object({ messages: z.array(messageSchema) });

/** The turn's fixed texts: what the server saves and the chat shows when the model gives nothing usable. */
export const CHAT_TEXTS = {
  noResponse: "No response generated",
  sendFailed:
    "I'm having trouble processing your request right now. Your reminder has been created successfully, but I couldn't generate a detailed response.",
  modelFailed: "Sorry, the model failed to answer this time. Nothing you typed was lost: your message is saved above, so you can try again.",
  invalidConversationId: "Invalid conversationId provided",
  noSearchQuery: "No search query provided.",
  noDocuments: "No relevant documents found for this query.",
  unknownError: "Unknown error",
  webSearchDone: "Search completed successfully",
  reminderToastTitle: "New reminder created",
  reminderToastDescription: "A new reminder was created by SAGE",
  defaultSource: "Knowledge Base",
} as const;

export const chatApiError = (status: number, statusText: string) => `Gemini API error: ${status} ${statusText}`;
export const reminderFailed = (status: number, statusText: string, body: string) => `Failed to create reminder: ${status} ${statusText} - ${body}`;
export const searchHttpError = (status: number, statusText: string) => `Search error: ${status} ${statusText}`;
export const searchException = (message: string) => `Search error: ${message}`;
export const foundDocuments = (count: number) => `Found ${count} relevant document(s).`;
export const webSearchHttpError = (status: number, statusText: string) => `Web search error: ${status} ${statusText}`;
export const followUpFailed = (functionName: string) => `I've completed your request to ${functionNameInWords(functionName)}.`;
export const followUpException = (functionName: string) =>
  `I've processed your request, but encountered an issue with the follow-up response. The ${functionNameInWords(functionName)} operation was completed successfully.`;
export const emptyFollowUp = (functionName: string) => `${functionName} completed successfully`;
export const stepLimitReached = (steps: number) =>
  `I stopped here: this request needed more than the ${steps} steps I may take in one turn. Ask me to continue if you want me to go on.`;

/** createReminder -> "create reminder". */
export function functionNameInWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase()
    .trim();
}

/** "reports/q3.pdf/page 4" -> "page 4": the page or section a passage came from. */
export function citationSection(source: string): string {
  const segments = source.split("/").filter((segment) => segment.trim() !== "");
  return segments.at(-1) ?? source;
}
