import { chatApiError, type TurnEventOf } from "@sage/contracts/chat-turn";
import type { Citation } from "@sage/contracts/conversations";
import type { TurnEvent } from "./api/run-turn";

/** A model message of the turn in progress, as it streams in. */
export interface LiveMessage {
  content: string;
  citations: Citation[];
}

/** What the chat shows of a turn while it runs: its model messages so far. */
export interface LiveTurn {
  messages: LiveMessage[];
  /** Citations that arrived before the message they belong to. */
  waitingCitations: Citation[];
  /** A tool ran: the next text starts the next message. */
  startNew: boolean;
}

export const EMPTY_LIVE_TURN: LiveTurn = { messages: [], waitingCitations: [], startNew: false };

/** The turn after one event; events that change nothing shown leave it as it is. */
export function applyTurnEvent(turn: LiveTurn, event: TurnEvent): LiveTurn {
  if (event.type === "text-delta") {
    const last = turn.messages.at(-1);
    if (!last || turn.startNew) {
      return { messages: [...turn.messages, { content: event.text, citations: turn.waitingCitations }], waitingCitations: [], startNew: false };
    }
    return { ...turn, messages: [...turn.messages.slice(0, -1), { ...last, content: last.content + event.text }] };
  }
  if (event.type === "tool-call") return { ...turn, startNew: true };
  if (event.type === "citations") {
    const last = turn.messages.at(-1);
    if (!last || turn.startNew) return { ...turn, waitingCitations: [...turn.waitingCitations, ...event.items] };
    return { ...turn, messages: [...turn.messages.slice(0, -1), { ...last, citations: [...last.citations, ...event.items] }] };
  }
  return turn;
}

/** A tool's failure the user should hear about: a result with `success: false` and an `error` text. */
export function toolFailure(result: unknown): string | undefined {
  if (!result || typeof result !== "object") return undefined;
  const { success, error } = result as { success?: unknown; error?: unknown };
  return success === false && typeof error === "string" && error ? error : undefined;
}

/**
 * What the chat says about a failed turn: a failed model call names its provider ('Gemini API error: 502 Bad
 * Gateway', the spec's text, or 'Model API error: ...' for another provider); any other failure says what it was.
 */
export function turnFailureText(event: TurnEventOf<"error">): string {
  return event.provider ? chatApiError(event.status, event.statusText, event.provider) : event.error;
}

/**
 * A failed model call's toast title in plain words (decision 038); the spec's "Gemini API error: 502 Bad Gateway"
 * stays as the toast's text beneath it, for whoever needs the detail. Other failures keep the title "Error".
 */
export function turnFailureTitle(event: TurnEventOf<"error">): string | undefined {
  if (!event.provider) return undefined;
  // The server's reason (decision 094) where it gives one: the status of a model failure is always 502.
  if (event.reason === "timeout") return "The model did not answer in time";
  if (event.reason === "quota") return "The model service is busy or over its quota: try again in a minute";
  if (event.reason === "refused") return "The model service refused the request";
  if (event.reason === "unreachable") return "SAGE could not reach the model service";
  if (event.status === 429) return "The model service is busy: try again in a minute";
  if (event.status === 401 || event.status === 403) return "The model service refused SAGE's key";
  return event.status >= 500 ? "The model service did not answer" : "The model service could not answer";
}
