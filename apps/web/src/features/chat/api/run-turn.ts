import {
  citationsEventSchema,
  doneEventSchema,
  memorySavedEventSchema,
  noticeEventSchema,
  reminderCreatedEventSchema,
  textDeltaEventSchema,
  toolCallEventSchema,
  toolResultEventSchema,
  turnErrorEventSchema,
  type TurnRequest,
} from "@sage/contracts/chat-turn";
import { approvalRequiredEventSchema, type ApprovalRequest } from "@sage/contracts/external-tools";
import { messageSchema, type Citation, type Message } from "@sage/contracts/conversations";
import type { Memory } from "@sage/contracts/memories";
import type { Reminder } from "@sage/contracts/reminders";
import type { z } from "zod";
import { postEventStream } from "@/lib/api-event-stream";

/** One event of a server-run turn, parsed with its contract. */
export type TurnEvent =
  | { type: "user-message"; message: Message }
  | { type: "citations"; items: Citation[] }
  | { type: "text-delta"; text: string }
  | { type: "tool-call"; id: string; name: string; args: Record<string, unknown> }
  | { type: "tool-result"; id: string; name: string; result: unknown }
  | { type: "reminder-created"; reminder: Reminder }
  | { type: "memory-saved"; memory: Memory }
  | { type: "notice"; text: string }
  | ({ type: "approval-required" } & ApprovalRequest)
  | ({ type: "error" } & z.infer<typeof turnErrorEventSchema>)
  | { type: "done"; messages: Message[] };

const schemas = {
  "user-message": messageSchema.transform((message) => ({ message })),
  citations: citationsEventSchema,
  "text-delta": textDeltaEventSchema,
  "tool-call": toolCallEventSchema,
  "tool-result": toolResultEventSchema,
  "reminder-created": reminderCreatedEventSchema,
  "memory-saved": memorySavedEventSchema,
  notice: noticeEventSchema,
  "approval-required": approvalRequiredEventSchema,
  error: turnErrorEventSchema,
  done: doneEventSchema,
} as const;

/**
 * POST /api/conversations/{id}/turn: the whole turn runs on the server; this reads its events as they come.
 * Events this client does not know are skipped. A refused turn (bad input, unknown conversation) throws ApiError;
 * aborting `signal` (Stop) closes the stream, which stops the turn on the server.
 */
export async function* runTurn(conversationId: string, body: TurnRequest, signal?: AbortSignal): AsyncGenerator<TurnEvent> {
  const reply = await postEventStream(`/api/conversations/${encodeURIComponent(conversationId)}/turn`, body, signal);
  if (!("events" in reply)) throw new Error("The turn was not streamed");
  for await (const { event, data } of reply.events) {
    const schema = schemas[event as keyof typeof schemas];
    if (!schema) continue;
    yield { type: event, ...schema.parse(data) } as TurnEvent;
  }
}
