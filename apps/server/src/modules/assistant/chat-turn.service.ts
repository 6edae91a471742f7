import type { WebSource } from "@sage/contracts/assistant";
import { CHAT_TEXTS, emptyFollowUp, followUpException, followUpFailed, stepLimitReached, type TurnRequest } from "@sage/contracts/chat-turn";
import type { Citation, Message, ToolCallRecord } from "@sage/contracts/conversations";
import type { Memory } from "@sage/contracts/memories";
import type { SearchResult } from "@sage/contracts/retrieval";
import { AppError } from "../../http/app-error.ts";
import { statusText } from "../../http/error-handler.ts";
import { LLM_NOT_CONFIGURED_MESSAGE, type LlmProvider, type LlmReply, type LlmToolCall } from "../../providers/llm/llm.ts";
import type { ConversationMessagesPort } from "../conversations/conversations.module.ts";
import type { MemoryPort } from "../memory/memory.module.ts";
import type { DocumentSearchPort } from "../retrieval/retrieval.module.ts";
import { createCitationLedger, knowledgeContext } from "./citation-ledger.ts";
import { isAbort, modelFailure, withModelTimeout } from "./model-call.ts";
import { sagePersona } from "./sage-persona.ts";
import type { ToolContext, ToolFeature, ToolOutcome } from "./tools/assistant-tool.ts";
import type { ToolRegistry } from "./tools/tool-registry.ts";
import { turnHistory } from "./turn-history.ts";

/** Knowledge snippets given with every message (the chat context's limit). */
const CONTEXT_SNIPPETS = 3;

/** Where a turn writes its events; `signal` is aborted when the client goes away (Stop, a closed tab). */
export interface TurnEvents {
  send(event: string, data: unknown): void;
  signal: AbortSignal;
}

/** A turn checked before its stream starts: the conversation is the user's and the model is allowed. */
export interface PreparedTurn {
  userId: number;
  conversationId: number;
  content: string;
  /** Null when no model is configured. */
  modelId: string | null;
  history: Message[];
}

/** A model message of the turn, saved when the turn ends (or is stopped). */
interface Draft {
  content: string;
  citations: Citation[];
  toolCalls: ToolCallRecord[];
  /** The reply (1, 2 ...) that wrote it. */
  step: number;
}

const sourcesList = (sources: readonly WebSource[]) => `\n\n**Sources:**\n${sources.map((source) => `- [${source.title}](${source.url})`).join("\n")}`;

export interface ChatTurnDeps {
  llm: LlmProvider | null;
  /** The model id to use (a 400 for one the server does not allow); null when no model is configured. */
  resolveModel(requested: string | undefined): string | null;
  conversations: ConversationMessagesPort;
  search: DocumentSearchPort;
  tools: ToolRegistry;
  /** The user's memories and their "Let SAGE remember" switch; without it, turns have no memory. */
  memory?: Pick<MemoryPort, "forTurn">;
  /** Model replies per turn (SAGE_MAX_TOOL_STEPS). */
  maxToolSteps: number;
  now?: () => Date;
  log(message: string, error: unknown): void;
}

/**
 * One assistant turn on the server: the user message is saved with the knowledge snippets the model will see,
 * the model streams its reply, the first tool call of each reply runs through the other modules' ports, and
 * the turn goes on until a reply calls nothing or the step limit is reached. The model messages are saved
 * once, at the end, or when the client stops the turn (with the partial answer).
 */
export function createChatTurnService(deps: ChatTurnDeps) {
  const now = deps.now ?? (() => new Date());

  /** Up to 3 snippets from the conversation's files and the system knowledge base; a failure means none. */
  async function gatherContext(turn: PreparedTurn): Promise<SearchResult[]> {
    try {
      return await deps.search.search({ userId: turn.userId, query: turn.content, limit: CONTEXT_SNIPPETS, conversationId: turn.conversationId });
    } catch (error) {
      deps.log("knowledge context failed; the turn goes on without it", error);
      return [];
    }
  }

  /** The memories the turn is given, and the features the user has off; a failure means no memories this turn. */
  async function gatherMemory(turn: PreparedTurn): Promise<{ memory?: { memories: Memory[] }; off: Set<ToolFeature> }> {
    try {
      const found = await deps.memory?.forTurn(turn.userId, turn.content);
      if (found?.enabled) return { memory: { memories: found.memories }, off: new Set() };
    } catch (error) {
      deps.log("memories failed; the turn goes on without them", error);
    }
    return { off: new Set(["memory"]) };
  }

  return {
    async prepare(userId: number, conversationId: number, request: TurnRequest): Promise<PreparedTurn> {
      const modelId = deps.resolveModel(request.model);
      const history = await deps.conversations.messages(userId, conversationId);
      return { userId, conversationId, content: request.content, modelId, history };
    },

    async run(turn: PreparedTurn, events: TurnEvents): Promise<{ messages: Message[] }> {
      const { send, signal } = events;
      const { llm } = deps;
      if (!turn.modelId || !llm) {
        send("notice", { text: LLM_NOT_CONFIGURED_MESSAGE });
        return { messages: [] };
      }
      const { userId, conversationId } = turn;
      const ledger = createCitationLedger();
      const context = ledger.cite(await gatherContext(turn));
      const [userMessage] = deps.conversations.appendMessages(userId, conversationId, [{ role: "user", content: turn.content, context }]);
      send("user-message", userMessage);
      if (signal.aborted) return { messages: [] };

      const drafts: Draft[] = [];
      let streamed = ""; // the reply being streamed, not yet a draft
      let streamStep = 0;
      let waitingCalls: ToolCallRecord[] = []; // calls of replies that wrote no text: they go on the next message
      let waitingSources: WebSource[] = [];
      let saved: Message[] | undefined;

      /** Text the model wrote: it takes the passages and web pages it drew on. */
      function addModelText(text: string, step: number): Draft {
        const draft: Draft = { content: text, citations: ledger.takeWaiting(), toolCalls: waitingCalls, step };
        waitingCalls = [];
        if (waitingSources.length > 0) {
          draft.content += sourcesList(waitingSources);
          waitingSources = [];
        }
        drafts.push(draft);
        if (draft.citations.length > 0) send("citations", { items: draft.citations });
        return draft;
      }
      /** A text of SAGE's own (a fallback); added to the previous reply's message when there is one. */
      function addNote(text: string, step: number) {
        const last = drafts.at(-1);
        if (last && last.step >= step - 1) {
          last.content = `${last.content}\n\n${text}`;
          last.toolCalls.push(...waitingCalls);
        } else drafts.push({ content: text, citations: [], toolCalls: waitingCalls, step });
        waitingCalls = [];
      }
      function save(): Message[] {
        if (saved) return saved;
        if (streamed.trim()) addModelText(streamed, streamStep);
        streamed = "";
        const messages = drafts.map((draft) => ({ role: "model" as const, content: draft.content, citations: draft.citations, toolCalls: draft.toolCalls }));
        saved = messages.length > 0 ? deps.conversations.appendMessages(userId, conversationId, messages) : [];
        return saved;
      }
      // Stop: the partial answer is saved at once, before anything else can happen in this conversation.
      const onAbort = () => {
        try {
          save();
        } catch (error) {
          deps.log("could not save a stopped turn's answer", error);
        }
      };
      signal.addEventListener("abort", onAbort, { once: true });

      try {
        const messages = turnHistory(turn.history, turn.content + knowledgeContext(context));
        const { memory, off } = await gatherMemory(turn);
        const system = sagePersona(now(), memory);
        const tools = await deps.tools.forUser(userId, off);
        let lastTool = "";
        let reminderCreated = false;
        for (let step = 1; ; step++) {
          let reply: LlmReply;
          streamed = "";
          streamStep = step;
          try {
            reply = await llm.generate({
              modelId: turn.modelId,
              system,
              messages,
              tools: tools.declarations,
              signal: withModelTimeout(signal),
              onText: (text) => {
                streamed += text;
                send("text-delta", { text });
              },
            });
          } catch (error) {
            if (signal.aborted) return { messages: save() };
            const failure = modelFailure(error);
            const status = failure instanceof AppError ? failure.status : 500;
            send("error", { error: (failure as Error).message, code: failure instanceof AppError ? failure.code : "internal", status, statusText: statusText(status) });
            if (streamed.trim()) addModelText(streamed, step);
            streamed = "";
            if (step === 1) addNote(CHAT_TEXTS.modelFailed, step);
            else if (reminderCreated) addNote(CHAT_TEXTS.sendFailed, step);
            else addNote(failure instanceof AppError ? followUpFailed(lastTool) : followUpException(lastTool), step);
            break;
          }
          streamed = "";
          if (signal.aborted) return { messages: save() };
          const call = reply.toolCalls[0];
          const draft = reply.text.trim() ? addModelText(reply.text, step) : undefined;
          if (!call) {
            if (!draft) addNote(step === 1 ? CHAT_TEXTS.noResponse : emptyFollowUp(lastTool), step);
            break;
          }
          if (step >= deps.maxToolSteps) {
            addNote(stepLimitReached(deps.maxToolSteps), step);
            break;
          }
          const callId = call.id || `call-${step}`;
          send("tool-call", { id: callId, name: call.name, args: call.args });
          const outcome = await runTool(tools, call, turn, { cite: ledger.cite, emit: send }, signal);
          if (signal.aborted) return { messages: save() };
          send("tool-result", { id: callId, name: call.name, result: outcome.result });
          if (outcome.reminder) {
            reminderCreated = true;
            send("reminder-created", { reminder: outcome.reminder });
          }
          if (outcome.memory) send("memory-saved", { memory: outcome.memory });
          if (outcome.sources?.length) waitingSources.push(...outcome.sources);
          const record: ToolCallRecord = { id: callId, name: call.name, args: call.args, result: outcome.result };
          if (draft) draft.toolCalls.push(record);
          else waitingCalls.push(record);
          messages.push({ role: "assistant", content: reply.text, toolCalls: [{ ...call, id: callId }] }, { role: "tool", results: [{ id: callId, name: call.name, result: outcome.result }] });
          lastTool = call.name;
        }
        return { messages: save() };
      } finally {
        signal.removeEventListener("abort", onAbort);
      }
    },
  };

  /** Runs one call through its tool; a failed run becomes the result the model sees. */
  async function runTool(
    tools: Pick<ToolRegistry, "find">,
    call: LlmToolCall,
    turn: PreparedTurn,
    helpers: Pick<ToolContext, "cite" | "emit">,
    signal: AbortSignal,
  ): Promise<ToolOutcome> {
    const tool = tools.find(call.name);
    if (!tool) return { result: { success: false, error: `Unknown function: ${call.name}` } };
    try {
      return await tool.run(call.args, { userId: turn.userId, conversationId: turn.conversationId, signal, ...helpers });
    } catch (error) {
      if (isAbort(error) && signal.aborted) return { result: { success: false, error: "Stopped" } };
      deps.log(`tool ${call.name} failed`, error);
      return { result: { success: false, error: (error as Error)?.message || CHAT_TEXTS.unknownError } };
    }
  }
}

export type ChatTurnService = ReturnType<typeof createChatTurnService>;
