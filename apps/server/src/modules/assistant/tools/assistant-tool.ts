import type { ResearchStep, TurnEventOf } from "@sage/contracts/chat-turn";
import type { ToolOutput } from "@sage/contracts/external-tools";
import type { Citation } from "@sage/contracts/conversations";
import type { DocumentCreated } from "@sage/contracts/documents-out";
import type { Memory } from "@sage/contracts/memories";
import type { CallProvenance } from "@sage/contracts/provenance";
import type { Reminder } from "@sage/contracts/reminders";
import type { SearchResult } from "@sage/contracts/retrieval";
import type { WebSource } from "@sage/contracts/assistant";
import type { JsonSchema } from "../../../providers/llm/llm.ts";
import type { ArgumentRole, ContentEntry } from "../provenance/turn-provenance.ts";

/** What a tool run may use besides its arguments. */
export interface ToolContext {
  userId: number;
  /** The conversation of the turn (createReminder links its reminder to it). */
  conversationId: number;
  /** Aborted when the user stops the turn. */
  signal: AbortSignal;
  /** Numbers document passages for this turn, so the model can cite them as [n] and the answer shows them. */
  cite(results: readonly SearchResult[]): Citation[];
  /** Numbers other sources (a web page research read) with the turn's passages. */
  citeOther(items: readonly Omit<Citation, "n">[]): Citation[];
  /** Shows a step of a long run (research) in the chat as it happens. */
  progress(step: ResearchStep): void;
  /** What the saved answer says if the user stops the turn while this run is going on (null: nothing special). */
  whenStopped(note: (() => string) | null): void;
  /** The turn's model (research plans with it). */
  modelId?: string;
  /** The passage an answer cites as [n]: this turn's, else the latest earlier answer's (createDocument's footnotes). */
  citation(n: number): Citation | undefined;
  /** The call's id in the turn's events (tool-call, tool-result). */
  callId?: string;
  /** Sends a live event about this call on the turn's stream: an external tool's progress, its server's question. */
  emit?(event: TurnEventOf<"tool-progress" | "elicitation-required">): void;
  /** Nobody watches the turn (a scheduled run): a server's question is cancelled rather than shown. */
  unattended?: boolean;
  /** Where each argument's value came from (issue 47): what the call makes keeps it (a reminder from a mail). */
  provenance?: CallProvenance;
  /** The user approved this call on its card: what it makes is the user's own choice (kept). */
  kept?: boolean;
}

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
  /** A file the run made and saved in the conversation's knowledge (createDocument). */
  document?: DocumentCreated;
  /**
   * Text in the result someone else wrote (a mail, a passage, an event's description, a web page), each with its
   * source: values later calls take from it are content-derived (issue 47, decision 062).
   */
  untrusted?: ContentEntry[];
  /** As `untrusted`, for a result read as one text: each label names it, the whole result is the text. */
  untrustedFrom?: string[];
  /** An external tool's structured data and resource links, for the chat (the model gets `result`). */
  output?: ToolOutput;
}

/**
 * Where a call can send what it is given: "sage" keeps it inside SAGE (the default); "outside" sends every
 * argument to someone else's server (an external tool); "query" sends only its text query out (web search), so
 * it needs approval only when the query carries words the user did not type; "draft" leaves a ready-to-send mail in
 * the user's mailbox (draftEmail), asked like a query: only after untrusted content, with words the user did not type.
 */
export type ToolReach = "sage" | "outside" | "query" | "draft";

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
  /** Where the call's arguments can go (decision 031); "sage" when left out. */
  reach?: ToolReach;
  /**
   * What each argument is, for tracing where its value came from (issue 47): "recipients" (addresses), "link",
   * "object" (a mail, event or file of the user's, by id or name), "text", "label" (shown on the card, added by
   * `prepare`), "setting" (times, choices). An argument left out is "text".
   */
  argumentRoles?: Readonly<Record<string, ArgumentRole>>;
  /** What the call makes is kept (a reminder): its origin is recorded with it, and a word found only in content counts. */
  persists?: boolean;
  /** The user asks to approve every call (an external tool with "Ask before running" on, or one its server calls destructive). */
  askFirst?: boolean;
  /** What the tool's server says it does, in words, for its approval card. */
  hints?: string[];
  /**
   * A memory the assistant proposes: after untrusted content it waits for the user's Keep. `refusal` answers a
   * proposal that would be refused anyway (a secret, an empty fact) before the user is asked.
   */
  proposesMemory?: { refusal(args: Record<string, unknown>): string | null };
  feature?: ToolFeature;
  /**
   * Checks and completes a call before any card (sendEmail adds the sender and reads the addresses): the card shows,
   * and the run gets, exactly the returned `args`; a `refusal` is the model's answer, with no card and no run.
   */
  prepare?(args: Record<string, unknown>, context: Pick<ToolContext, "userId">): Promise<{ args: Record<string, unknown> } | { refusal: unknown }>;
  /** The call in plain words for its approval card (scheduleTask: the schedule and its next three runs). */
  describeCall?(args: Record<string, unknown>): string[];
  /** What the model hears when the user declines or does not answer, in the tool's own words. */
  notApprovedTexts?: { declined: string; timedOut: string };
  run(args: Record<string, unknown>, context: ToolContext): Promise<ToolOutcome>;
}

/** A read-only tool that takes one text query; a blank query answers `blank` without searching. */
export function queryTool(options: {
  name: string;
  description: string;
  queryDescription: string;
  blank: unknown;
  reach?: ToolReach;
  search(query: string, context: ToolContext): Promise<ToolOutcome>;
}): AssistantTool {
  return {
    name: options.name,
    description: options.description,
    parameters: { type: "object", properties: { query: { type: "string", description: options.queryDescription } }, required: ["query"] },
    readOnly: true,
    reach: options.reach,
    async run(args, context) {
      const query = typeof args.query === "string" ? args.query.trim() : "";
      return query ? options.search(query, context) : { result: options.blank };
    },
  };
}
