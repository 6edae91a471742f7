import { turnProtocol, type RegenerateRequest, type TurnEvent, type TurnRequest } from "@sage/contracts/chat-turn";
import { fromWireEvent } from "@sage/contracts/stream-event";
import { postEventStream } from "@/lib/api-event-stream";

export type { TurnEvent } from "@sage/contracts/chat-turn";

/** An event of the turn's protocol whose data does not match its contract: what it would have shown is unknown. */
export interface UnreadableTurnEvent {
  type: "unreadable";
  /** The event's name. */
  event: string;
}

/**
 * POST /api/conversations/{id}/turn: the whole turn runs on the server; this reads its events as they come, each
 * parsed with the turn's protocol (`turnEventSchema`). An event whose name the protocol does not have (a newer
 * server) is skipped; one whose data does not match is reported as unreadable, and reading goes on. A refused
 * turn (bad input, unknown conversation) throws ApiError; aborting `signal` (Stop) closes the stream, which stops
 * the turn on the server.
 */
export function runTurn(conversationId: string, body: TurnRequest, signal?: AbortSignal) {
  return streamTurn(`/api/conversations/${encodeURIComponent(conversationId)}/turn`, body, signal);
}

/** Where a turn on a new branch starts (decision 045): an edited message of the user's, or an answer asked again. */
export type BranchStart = { kind: "edit"; messageId: number } | { kind: "regenerate"; messageId: number };

/** POST .../messages/{messageId}/edit or /regenerate: a turn like runTurn's, on a new branch beside the message. */
export function runBranchTurn(conversationId: string, start: BranchStart, body: TurnRequest | RegenerateRequest, signal?: AbortSignal) {
  const url = `/api/conversations/${encodeURIComponent(conversationId)}/messages/${start.messageId}/${start.kind}`;
  return streamTurn(url, body, signal);
}

async function* streamTurn(url: string, body: TurnRequest | RegenerateRequest, signal?: AbortSignal): AsyncGenerator<TurnEvent | UnreadableTurnEvent> {
  const reply = await postEventStream(url, body, signal);
  if (!("events" in reply)) throw new Error("The turn was not streamed");
  for await (const { event, data } of reply.events) {
    const read = fromWireEvent(turnProtocol, event, data);
    if (read.kind === "event") yield read.event;
    else if (read.kind === "malformed") yield { type: "unreadable", event };
  }
}
