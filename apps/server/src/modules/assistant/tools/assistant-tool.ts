import type { TurnEventOf } from "@sage/contracts/chat-turn";
import type { Citation } from "@sage/contracts/conversations";
import type { Memory } from "@sage/contracts/memories";
import type { Reminder } from "@sage/contracts/reminders";
import type { SearchResult } from "@sage/contracts/retrieval";
import type { WebSource } from "@sage/contracts/assistant";
import type { JsonSchema } from "../../../providers/llm/llm.ts";

/** What a tool run may use besides its arguments. */
export interface ToolContext {
  userId: number;
  /** The conversation of the turn (createReminder links its reminder to it). */
  conversationId: number;
  /** Aborted when the user stops the turn. */
  signal: AbortSignal;
  /** Numbers document passages for this turn, so the model can cite them as [n] and the answer shows them. */
  cite(results: readonly SearchResult[]): Citation[];
  /** Sends an event on the turn's stream (approval-required, while a run waits for the user). */
  emit(event: ToolEvent): void;
}

/**
 * Asks the user to Approve or Decline an action (the chat's card, POST /api/approvals/{id}); the external tools
 * module keeps the waiting calls and passes this in. Declared here, as the consumer needs it, so the two modules'
 * types do not tie into a loop.
 */
export interface ApprovalPort {
  request(
    userId: number,
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    announce: (request: { approvalId: string; name: string; args: Record<string, unknown> }) => void,
  ): Promise<"approved" | "declined" | "timed-out">;
}

/** The turn's events a tool run may send itself. */
export type ToolEvent = TurnEventOf<"approval-required">;

/** What a tool run produced. */
export interface ToolOutcome {
  /** What the model is given back (and the tool-result event carries). */
  result: unknown;
  /** A reminder the run created. */
  reminder?: Reminder;
  /** Web pages found; listed as links under the next answer. */
  sources?: WebSource[];
  /** A memory the run saved. */
  memory?: Memory;
}

/** A user setting a tool depends on: while the user has it off, the tool is neither offered nor run. */
export type ToolFeature = "memory";

/**
 * One tool the model may call. A run may take its time (a later tool may wait for the user's approval); it
 * reports a failure the model should hear about in its result, and throws only when the run itself failed
 * (the loop then gives the model `{ success: false, error }`).
 */
export interface AssistantTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: JsonSchema;
  /** True when running it changes nothing the user owns (a search); false when it acts (creates a reminder). */
  readOnly: boolean;
  feature?: ToolFeature;
  run(args: Record<string, unknown>, context: ToolContext): Promise<ToolOutcome>;
}

/** A read-only tool that takes one text query; a blank query answers `blank` without searching. */
export function queryTool(options: {
  name: string;
  description: string;
  queryDescription: string;
  blank: unknown;
  search(query: string, context: ToolContext): Promise<ToolOutcome>;
}): AssistantTool {
  return {
    name: options.name,
    description: options.description,
    parameters: { type: "object", properties: { query: { type: "string", description: options.queryDescription } }, required: ["query"] },
    readOnly: true,
    async run(args, context) {
      const query = typeof args.query === "string" ? args.query.trim() : "";
      return query ? options.search(query, context) : { result: options.blank };
    },
  };
}
