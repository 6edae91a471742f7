import { CHAT_TEXTS, type ResearchStep } from "@sage/contracts/chat-turn";
import type { ToolCallRecord } from "@sage/contracts/conversations";
import type { ElicitationRequest } from "@sage/contracts/elicitation";
import type { ApprovalRequest, ToolProgress } from "@sage/contracts/external-tools";
import type { Memory } from "@sage/contracts/memories";
import type { TurnEvent } from "./api/run-turn";
import { EMPTY_LIVE_TURN, applyTurnEvent, type LiveTurn } from "./live-turn";

/** A tool running now, with its server's last progress report. */
export interface RunningTool {
  id: string;
  name: string;
  progress?: Omit<ToolProgress, "id">;
}

/** What the chat shows of its turns beside the saved messages; one reducer over the turn's events. */
export interface ChatTurnState {
  /** `streaming` from Send until the turn's request ends (done, failed or stopped); `ready` otherwise. */
  status: "ready" | "streaming";
  /** The user's words, shown until the server says it saved them. */
  pendingUser: string | null;
  /** The model messages of the turn so far. */
  live: LiveTurn;
  /** The server's note instead of an answer (no model set up, for one). */
  notice: string | null;
  /** Memories SAGE saved in this conversation while it was open, each shown with an Undo. */
  remembered: Memory[];
  /** Tool calls waiting for the user's Approve. */
  approvals: ApprovalRequest[];
  /** Questions tool servers ask while their tools run (decision 080). */
  elicitations: ElicitationRequest[];
  /** Tools running now. */
  running: RunningTool[];
  /** Tools that ran in this turn, shown as they finish; the saved messages carry them once the turn is done. */
  toolRuns: ToolCallRecord[];
  /** The steps of a research run in this turn, as they happen (decision 046). */
  research: ResearchStep[];
  /** The arguments of this turn's tool calls, for their runs once their results come. */
  calledWith: Record<string, Record<string, unknown>>;
}

export type ChatTurnAction =
  | { type: "start"; pendingUser: string | null }
  | { type: "event"; event: TurnEvent }
  | { type: "end" }
  | { type: "approval-answered"; approvalId: string }
  | { type: "question-answered"; elicitationId: string }
  | { type: "memory-forgotten"; id: number };

export const INITIAL_CHAT_TURN: ChatTurnState = {
  status: "ready",
  pendingUser: null,
  live: EMPTY_LIVE_TURN,
  notice: null,
  remembered: [],
  approvals: [],
  elicitations: [],
  running: [],
  toolRuns: [],
  research: [],
  calledWith: {},
};

/** What one turn event changes on screen (side effects, such as toasts and the saved list, are the hook's). */
function onEvent(state: ChatTurnState, event: TurnEvent): ChatTurnState {
  const next = { ...state, live: applyTurnEvent(state.live, event) };
  switch (event.type) {
    case "user-message":
      return { ...next, pendingUser: null };
    case "approval-required": {
      const { type: _type, ...request } = event;
      return { ...next, approvals: [...state.approvals, request] };
    }
    case "elicitation-required": {
      const { type: _type, ...request } = event;
      return { ...next, elicitations: [...state.elicitations, request] };
    }
    case "tool-call":
      return {
        ...next,
        calledWith: { ...state.calledWith, [event.id]: event.args },
        running: [...state.running, { id: event.id, name: event.name }],
      };
    case "tool-progress": {
      const { type: _type, id, ...progress } = event;
      return { ...next, running: state.running.map((item) => (item.id === id ? { ...item, progress } : item)) };
    }
    case "tool-result": {
      const run: ToolCallRecord = {
        id: event.id,
        name: event.name,
        args: state.calledWith[event.id] ?? {},
        result: event.result,
        ...(event.output ? { output: event.output } : {}),
      };
      return { ...next, approvals: [], elicitations: [], running: state.running.filter((item) => item.id !== event.id), toolRuns: [...state.toolRuns, run] };
    }
    case "memory-saved":
      return { ...next, remembered: [...state.remembered, event.memory] };
    case "research-step":
      return { ...next, research: [...state.research, event.item] };
    case "notice":
      // Pictures sent as their text is news (a toast), not the no-model answer the notice bubble is for.
      return event.text === CHAT_TEXTS.imagesAsText ? next : { ...next, notice: event.text };
    case "done":
      // The saved turn replaces the live one in the same render: both on screen showed each tool run twice.
      return { ...next, live: EMPTY_LIVE_TURN, toolRuns: [], research: [] };
    default:
      return next;
  }
}

export function chatTurnReducer(state: ChatTurnState, action: ChatTurnAction): ChatTurnState {
  switch (action.type) {
    case "start":
      return { ...state, status: "streaming", pendingUser: action.pendingUser, notice: null, live: EMPTY_LIVE_TURN, calledWith: {} };
    case "event":
      return onEvent(state, action.event);
    case "end":
      return {
        ...state,
        status: "ready",
        pendingUser: null,
        live: EMPTY_LIVE_TURN,
        approvals: [],
        elicitations: [],
        running: [],
        toolRuns: [],
        research: [],
        calledWith: {},
      };
    case "approval-answered":
      return { ...state, approvals: state.approvals.filter((item) => item.approvalId !== action.approvalId) };
    case "question-answered":
      return { ...state, elicitations: state.elicitations.filter((item) => item.elicitationId !== action.elicitationId) };
    case "memory-forgotten":
      return { ...state, remembered: state.remembered.filter((memory) => memory.id !== action.id) };
  }
}
