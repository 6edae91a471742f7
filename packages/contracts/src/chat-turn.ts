import { z } from "zod";
import { MAX_MESSAGE_LENGTH, citationSchema, messageSchema } from "./conversations.ts";
import { documentCreatedSchema } from "./documents-out.ts";
import { streamErrorSchema } from "./errors.ts";
import { elicitationRequiredEventSchema } from "./elicitation.ts";
import { approvalRequiredEventSchema, readResourceRequestSchema, toolOutputSchema, toolProgressSchema } from "./external-tools.ts";
import { memorySchema } from "./memories.ts";
import { reminderSchema } from "./reminders.ts";
import type { StreamProtocol } from "./stream-event.ts";

/** Files one message may carry. */
export const MAX_ATTACHMENTS = 10;

/** POST /api/conversations/{id}/turn: one whole assistant turn, run on the server (the events: `turnEventSchema`). */
export const turnRequestSchema = z.object({
  content: z
    .string()
    .max(MAX_MESSAGE_LENGTH)
    .refine((value) => value.trim() !== "", "content must not be empty"),
  /** One of the models the server allows; the server's default chat model when omitted. */
  model: z.string().max(200).optional(),
  /** Files uploaded to the conversation that go with the message: images as pictures, other files as their text. */
  attachments: z.array(z.number().int().positive()).max(MAX_ATTACHMENTS, `At most ${MAX_ATTACHMENTS} files can go with one message`).optional(),
  /** The composer's Research action: the message is a topic SAGE researches and writes a cited report on (decision 046). */
  research: z.boolean().optional(),
  /** Resources of connected tool servers that go with the message, read as untrusted context (decision 080). */
  resources: z.array(readResourceRequestSchema).max(MAX_ATTACHMENTS, `At most ${MAX_ATTACHMENTS} resources can go with one message`).optional(),
});
export type TurnRequest = z.infer<typeof turnRequestSchema>;

/**
 * POST /api/conversations/{id}/messages/{messageId}/edit: the user's message, edited, sent again as a new branch
 * beside the old one (decision 045); the answer is a turn's event stream, like /turn's.
 */
export const editMessageRequestSchema = turnRequestSchema;
/** POST /api/conversations/{id}/messages/{messageId}/regenerate: a new answer beside SAGE's answer, streamed like a turn. */
export const regenerateRequestSchema = turnRequestSchema.pick({ model: true });
export type RegenerateRequest = z.infer<typeof regenerateRequestSchema>;

/**
 * One step of a research run (decision 046), as the chat shows it live: the questions planned, a search run (on the
 * web or in the user's documents), a page being read, the report being written, or the gathering stopped by the time
 * limit (a user's Stop closes the stream: it has no event).
 */
export const researchStepSchema = z.discriminatedUnion("step", [
  z.object({ step: z.literal("planned"), questions: z.array(z.string()) }),
  z.object({ step: z.literal("searching"), query: z.string(), where: z.enum(["web", "documents"]) }),
  z.object({ step: z.literal("reading"), url: z.string(), title: z.string().optional() }),
  z.object({ step: z.literal("writing"), sources: z.number().int().nonnegative() }),
  /** The time limit ended the gathering; the report is written from what was found. */
  z.object({ step: z.literal("stopped"), reason: z.literal("time") }),
]);
export type ResearchStep = z.infer<typeof researchStepSchema>;

const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) => z.object({ type: z.literal(type), ...shape });

/**
 * The turn's protocol. Bad input, an unknown conversation or a model the server does not allow are plain 4xx JSON
 * answers; otherwise the answer is `text/event-stream` with these events (written as `stream-event.ts` says: the
 * `type` is the event's name, the other fields its JSON data), in this order:
 *   user-message      the saved user message
 *   citations         document passages the answer being written draws on
 *   text-delta        text of the answer being written, as it comes (a note SAGE adds to it, such as the
 *                     length-limit one, comes the same way, so the live answer reads as the saved one)
 *   tool-call         a tool the model asked for (only the first call of a reply runs)
 *   approval-required a call waits for the user's answer (POST /api/approvals/{approvalId}): an external tool
 *                     the user asks before, or any call that could carry data out after the turn read text the
 *                     user did not type (`reason` names its source), or a memory proposed after such text
 *                     (`kind` "memory": Keep / Discard); decision 031
 *   tool-progress     how far a running external tool got, as its server reports it
 *   elicitation-required  the tool's server asks the user something (POST /api/elicitations/{elicitationId}):
 *                     a form to fill, or a page of the server to open (decision 080)
 *   tool-result       what the tool gave back to the model (`output`: an external tool's structured data and links)
 *   reminder-created  a reminder the assistant created
 *   memory-saved      a memory the assistant saved (saveMemory); the chat offers Undo
 *   document-created  a file the assistant made (createDocument), saved in the conversation's knowledge
 *   research-step     a step of a research run (planned, searching, reading, writing, stopped; decision 046)
 *   notice            a reply that is not from the model (no model configured); never saved
 *   error             a failure (the status a JSON reply would have had; `provider` when the model's call failed);
 *                     the turn goes on to save its fallback text
 *   done              the saved model messages; last event of every turn
 * A text-delta after a tool-call starts the next model message. Closing the request (Stop, a closed tab) aborts
 * the model call; the partial answer is saved. A client skips an event whose name it does not know.
 */
export const turnEventSchema = z.discriminatedUnion("type", [
  event("user-message", { message: messageSchema }),
  event("citations", { items: z.array(citationSchema) }),
  event("text-delta", { text: z.string() }),
  event("tool-call", { id: z.string(), name: z.string(), args: z.record(z.string(), z.unknown()) }),
  event("approval-required", approvalRequiredEventSchema.shape),
  event("tool-progress", toolProgressSchema.shape),
  event("elicitation-required", elicitationRequiredEventSchema.shape),
  event("tool-result", { id: z.string(), name: z.string(), result: z.unknown(), output: toolOutputSchema.optional() }),
  event("reminder-created", { reminder: reminderSchema }),
  event("memory-saved", { memory: memorySchema }),
  event("document-created", documentCreatedSchema.shape),
  event("research-step", { item: researchStepSchema }),
  event("notice", { text: z.string() }),
  // `reason`: why a model call failed (MODEL_FAILURE_REASONS below), for the toast's plain words.
  event("error", {
    ...streamErrorSchema.shape,
    provider: z.string().optional(),
    reason: z.enum(["timeout", "quota", "refused", "unreachable", "failed"]).optional(),
  }),
  event("done", { messages: z.array(messageSchema) }),
]);
export type TurnEvent = z.infer<typeof turnEventSchema>;
export type TurnEventOf<T extends TurnEvent["type"]> = Extract<TurnEvent, { type: T }>;
export const turnProtocol: StreamProtocol<TurnEvent> = {
  schema: turnEventSchema,
  names: new Set(turnEventSchema.options.map((option) => option.shape.type.value)),
};

/** The turn's fixed texts: what the server saves and the chat shows when the model gives nothing usable. */
export const CHAT_TEXTS = {
  noResponse: "No response generated",
  sendFailed: "I'm having trouble processing your request right now. Your reminder has been created successfully, but I couldn't generate a detailed response.",
  modelFailed: "Sorry, the model failed to answer this time. Nothing you typed was lost: your message is saved above, so you can try again.",
  invalidConversationId: "Invalid conversationId provided",
  noSearchQuery: "No search query provided.",
  noDocuments: "No relevant documents found for this query.",
  unknownError: "Unknown error",
  webSearchDone: "Search completed successfully",
  reminderToastTitle: "New reminder created",
  reminderToastDescription: "A new reminder was created by SAGE",
  defaultSource: "Knowledge Base",
  /** Added to an answer the model stopped because it reached its length limit (finish reason "length"). */
  cutOff: "This answer was cut off because it reached the model's length limit. Ask me to continue if you want the rest.",
  /** Before a turn whose attached pictures the model cannot see: it is given the text read from them instead. */
  imagesAsText: "This model cannot see pictures, so SAGE gave it the text read from your pictures instead.",
  /** A triggered schedule's run: the citation of the mail, event or web call that set it off. */
  triggerSource: "what set off this run",
} as const;

/**
 * Why a model call failed, in words (issue 52 item 13, decision 094): the saved answer of a turn whose model failed
 * says it, and the chat shows such an answer as an error with Retry, also after a reload.
 */
export const MODEL_FAILURE_REASONS = {
  timeout: "it did not answer in time",
  quota: "the model service's quota is used up or it is too busy",
  refused: "the model service refused the request",
  unreachable: "SAGE could not reach the model service",
  failed: "the model service had an error",
} as const;
export type ModelFailureReason = keyof typeof MODEL_FAILURE_REASONS;

const MODEL_FAILED_HEAD = "Sorry, the model failed to answer this time";
const MODEL_FAILED_TAIL = CHAT_TEXTS.modelFailed.slice(CHAT_TEXTS.modelFailed.indexOf(". ") + 2);

/** "Sorry, the model failed to answer this time: it did not answer in time. Nothing you typed was lost: ..." */
export const modelFailedText = (reason: ModelFailureReason) => `${MODEL_FAILED_HEAD}: ${MODEL_FAILURE_REASONS[reason]}. ${MODEL_FAILED_TAIL}`;

/**
 * Whether a saved answer is a failed model call, and why: one of the texts above exactly (never an answer that only
 * quotes one); `unknown` for the text saved before reasons were given.
 */
export function modelFailureOf(content: string): ModelFailureReason | "unknown" | undefined {
  if (content === CHAT_TEXTS.modelFailed) return "unknown";
  if (!content.startsWith(MODEL_FAILED_HEAD)) return undefined;
  return (Object.keys(MODEL_FAILURE_REASONS) as ModelFailureReason[]).find((reason) => content === modelFailedText(reason));
}

/** 400 for a turn naming a file that is not one of the conversation's files. */
/** What a research run says in the chat (decision 046). */
export const RESEARCH_TEXTS = {
  action: "Research",
  actionHint: "Research this topic: SAGE searches the web and your documents, reads the best pages and writes a cited report",
  title: "Research",
  planned: "Planned questions",
  searchingWeb: (query: string) => `Searching the web: ${query}`,
  searchingDocuments: (query: string) => `Searching your documents: ${query}`,
  reading: (label: string) => `Reading ${label}`,
  writing: (sources: number) => `Writing the report from ${sources} source${sources === 1 ? "" : "s"}`,
  stoppedByTime: "Time limit reached: writing up what was found",
  noModel: "Research needs a language model.",
  /** The saved answer of a run stopped before its report was written (the chat shows it at once, then the saved one). */
  stopped: "Research stopped before the report was written.",
  stoppedBeforeReport: (found: number) =>
    `Research stopped before the report was written. ${found > 0 ? "Sources found so far:" : "No sources had been found yet."}`,
} as const;

export const attachmentNotFound = (fileId: number) => `File ${fileId} is not one of this conversation's files`;

/**
 * The chat's toast for a turn whose model call failed: the spec's text when the model is Gemini, the same words
 * without a vendor's name for any other provider (an OpenAI-compatible server is not Gemini).
 */
export const chatApiError = (status: number, statusText: string, provider: string) =>
  `${provider === "gemini" ? "Gemini" : "Model"} API error: ${status} ${statusText}`;
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
