import type { ChatResponse, FunctionCall, WebSource } from "@sage/contracts/assistant";
import { messageListSchema, type Message } from "@sage/contracts/conversations";
import {
  CHAT_TEXTS,
  chatApiError,
  emptyFollowUp,
  followUpException,
  followUpFailed,
  foundDocuments,
  reminderFailed,
  searchException,
  searchHttpError,
  webSearchHttpError,
} from "./chat-texts";
import { readEventStream } from "./read-event-stream";
import { SAGE_SYSTEM_INSTRUCTION, SAGE_TOOLS } from "./sage-assistant";

export interface ChatHistoryEntry {
  role: "user" | "model";
  content: string;
}

export interface ChatServiceDeps {
  fetch?: typeof fetch;
  /** The model to ask for; the server's default when undefined. */
  model?: () => string | undefined;
  notify?: (toast: { title: string; description: string; variant?: "destructive" }) => void;
  dispatchEvent?: (event: Event) => void;
  log?: Pick<Console, "warn" | "error">;
}

export interface SendOptions {
  signal?: AbortSignal;
  /** The model messages of this turn so far (reply, then follow-up), as text streams in. */
  onProgress?: (modelTexts: string[]) => void;
}

/** The chat call answered non-2xx (or its stream ended with an error event). */
class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
  ) {
    super(`${status} ${statusText}`);
  }
}

/** How much history a chat call carries: the server takes at most 500 messages and a bounded body. */
export const HISTORY_LIMIT = { messages: 100, characters: 200_000 };

/** The most recent history that fits the limits (the new message always goes). */
export function recentHistory(messages: ChatHistoryEntry[]): ChatHistoryEntry[] {
  const kept: ChatHistoryEntry[] = [];
  let characters = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    characters += message.content.length;
    if (kept.length > 0 && (kept.length >= HISTORY_LIMIT.messages || characters > HISTORY_LIMIT.characters)) break;
    kept.unshift(message);
  }
  return kept;
}

const isAbort = (error: unknown) => (error as Error)?.name === "AbortError";

/**
 * The client chat service of spec 4 'Chat turn': knowledge context, the chat call, the first function call
 * run here (reminders, document search, web search), the follow-up, and saving with its fallbacks.
 */
export function createChatService(deps: ChatServiceDeps = {}) {
  const fetchImpl = deps.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const log = deps.log ?? console;
  let history: ChatHistoryEntry[] = [];

  const postJson = (path: string, body: unknown, signal?: AbortSignal) =>
    fetchImpl(path, { method: "POST", credentials: "include", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal });

  /** Posts a streamed turn; on stop it answers the text received so far. */
  async function postTurn(path: string, body: object, onText: (text: string) => void, signal?: AbortSignal): Promise<ChatResponse> {
    let text = "";
    try {
      const response = await postJson(path, { ...body, stream: true }, signal);
      if (!response.ok) throw new HttpStatusError(response.status, response.statusText);
      if (!response.body || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
        const data = (await response.json()) as Partial<ChatResponse>;
        return { response: data.response ?? "", functionCalls: data.functionCalls ?? [] };
      }
      for await (const { event, data } of readEventStream(response.body)) {
        if (event === "text-delta") {
          text += (data as { delta?: string }).delta ?? "";
          onText(text);
        } else if (event === "finish") {
          const finished = data as Partial<ChatResponse>;
          return { response: finished.response ?? text, functionCalls: finished.functionCalls ?? [] };
        } else if (event === "error") {
          const failure = data as { status?: number; statusText?: string };
          throw new HttpStatusError(failure.status ?? 500, failure.statusText ?? "Error");
        }
      }
      if (signal?.aborted) return { response: text, functionCalls: [] };
      throw new Error("The reply ended before it was complete");
    } catch (error) {
      if (signal?.aborted || isAbort(error)) return { response: text, functionCalls: [] };
      throw error;
    }
  }

  async function fetchContext(query: string, conversationId: string): Promise<string> {
    try {
      const response = await postJson("/api/search", { query, limit: 3, ...numericConversation(conversationId) });
      if (!response.ok) return "";
      const results = (await response.json()) as { content?: string; metadata?: { filename?: string } }[];
      if (!Array.isArray(results) || results.length === 0) return "";
      const snippets = results.slice(0, 3).map((result, index) => `[${index + 1}] Source: ${result.metadata?.filename || CHAT_TEXTS.defaultSource}\n${result.content ?? ""}`);
      return `\n\nRelevant information from the knowledge base:\n${snippets.join("\n\n")}`;
    } catch {
      return "";
    }
  }

  async function createReminder(args: Record<string, unknown>, conversationId: string) {
    const id = String(conversationId ?? "").trim();
    if (!/^\d+$/.test(id)) throw new Error(CHAT_TEXTS.invalidConversationId);
    const response = await postJson("/api/reminders", {
      title: args.title,
      description: typeof args.description === "string" ? args.description : "",
      dueDate: args.dueDate,
      priority: args.priority ?? "medium",
      type: "reminder",
      status: "unread",
      conversationId: Number(id),
    });
    const text = await response.text();
    if (!response.ok) {
      let detail = text;
      try {
        detail = (JSON.parse(text) as { error?: string }).error ?? text;
      } catch {
        // Not JSON: the text itself.
      }
      throw new Error(reminderFailed(response.status, response.statusText, detail));
    }
    let reminder: unknown;
    try {
      reminder = JSON.parse(text);
    } catch {
      reminder = { message: text };
    }
    deps.dispatchEvent?.(new CustomEvent("reminderCreated", { detail: reminder }));
    deps.notify?.({ title: CHAT_TEXTS.reminderToastTitle, description: CHAT_TEXTS.reminderToastDescription });
    return { success: true, reminder };
  }

  async function searchDocuments(args: Record<string, unknown>, conversationId: string) {
    const query = typeof args.query === "string" ? args.query.trim() : "";
    if (!query) return { results: [], message: CHAT_TEXTS.noSearchQuery };
    try {
      const response = await postJson("/api/search", { query, limit: 5, ...numericConversation(conversationId) });
      if (!response.ok) return { results: [], message: searchHttpError(response.status, response.statusText) };
      const results = (await response.json()) as unknown[];
      if (!Array.isArray(results) || results.length === 0) return { results: [], message: CHAT_TEXTS.noDocuments };
      return { results, message: foundDocuments(results.length) };
    } catch (error) {
      return { results: [], message: error instanceof Error ? searchException(error.message) : CHAT_TEXTS.unknownError };
    }
  }

  async function performWebSearch(args: Record<string, unknown>) {
    const query = typeof args.query === "string" ? args.query.trim() : "";
    if (!query) return { success: false, message: CHAT_TEXTS.noSearchQuery };
    try {
      const response = await postJson("/api/gemini/web-search", { query });
      if (!response.ok) return { success: false, message: webSearchHttpError(response.status, response.statusText) };
      const data = (await response.json()) as { response?: string; groundingData?: string; sources?: WebSource[] };
      return { success: true, message: CHAT_TEXTS.webSearchDone, response: data.response ?? "", groundingData: data.groundingData ?? "", sources: data.sources ?? [] };
    } catch (error) {
      return { success: false, message: (error as Error)?.message || CHAT_TEXTS.unknownError };
    }
  }

  /** Runs one function call; a failure becomes the result the model sees (and a toast for the user). */
  async function executeFunction(call: FunctionCall, conversationId: string): Promise<Record<string, unknown>> {
    try {
      if (call.name === "createReminder") return await createReminder({ ...call.args, conversationId }, conversationId);
      if (call.name === "searchDocuments") return await searchDocuments(call.args, conversationId);
      if (call.name === "performWebSearch") return await performWebSearch(call.args);
      return { success: false, error: `Unknown function: ${call.name}` };
    } catch (error) {
      const message = (error as Error)?.message || CHAT_TEXTS.unknownError;
      log.error(`Function ${call.name} failed:`, error);
      deps.notify?.({ title: "Error", description: message, variant: "destructive" });
      return { success: false, error: message };
    }
  }

  async function saveMessage(conversationId: string, role: "user" | "model", content: string): Promise<Message[]> {
    const response = await postJson(`/api/conversations/${encodeURIComponent(conversationId)}/messages`, { role, content });
    if (!response.ok) throw new Error(`${response.status}: ${(await response.text().catch(() => "")) || response.statusText}`);
    return messageListSchema.parse(await response.json());
  }

  const turnBody = () => ({ model: deps.model?.(), systemInstruction: SAGE_SYSTEM_INSTRUCTION, tools: SAGE_TOOLS });

  const service = {
    /** Replaces the history with the conversation's saved messages. */
    initializeChat(messages: ChatHistoryEntry[]) {
      history = messages.map((message) => ({ role: message.role, content: message.content }));
    },

    getHistory: (): ChatHistoryEntry[] => history.map((entry) => ({ ...entry })),

    /** Steps 1-5: answers the model messages to show; throws 'Gemini API error: ...' when the chat call fails. */
    async sendMessage(conversationId: string, content: string, options: SendOptions = {}): Promise<string[]> {
      const { signal, onProgress } = options;
      const context = await fetchContext(content, conversationId);
      const userEntry: ChatHistoryEntry = { role: "user", content: content + context };
      const messages = recentHistory([...history, userEntry]);
      let reply: ChatResponse;
      try {
        reply = await postTurn("/api/gemini/chat", { messages, ...turnBody() }, (text) => onProgress?.([text]), signal);
      } catch (error) {
        if (error instanceof HttpStatusError) throw new Error(chatApiError(error.status, error.statusText));
        throw error;
      }
      history = [...history, userEntry];

      const call = signal?.aborted ? undefined : reply.functionCalls[0];
      let texts: string[];
      if (!call) {
        texts = [reply.response || CHAT_TEXTS.noResponse];
      } else {
        const result = await executeFunction(call, conversationId);
        let replyText = reply.response;
        let followUp = "";
        try {
          const follow = await postTurn(
            "/api/gemini/function-response",
            { messages, functionResponse: { name: call.name, args: call.args, response: result }, ...turnBody() },
            (text) => onProgress?.([replyText, text]),
            signal,
          );
          followUp = follow.response || (signal?.aborted ? "" : emptyFollowUp(call.name));
        } catch (error) {
          const fallback = error instanceof HttpStatusError ? followUpFailed(call.name) : followUpException(call.name);
          replyText = replyText ? `${replyText}\n\n${fallback}` : fallback;
        }
        const sources = (result.sources as WebSource[] | undefined) ?? [];
        if (followUp && sources.length) followUp += `\n\n**Sources:**\n${sources.map((source) => `- [${source.title}](${source.url})`).join("\n")}`;
        texts = [replyText, followUp].filter((text) => text.trim() !== "");
        if (texts.length === 0) texts = [CHAT_TEXTS.noResponse];
      }
      history = [...history, ...texts.map((text) => ({ role: "model" as const, content: text }))];
      onProgress?.(texts);
      return texts;
    },

    /** Step 6: sends and saves; answers the conversation's messages after the last successful save, [] on total failure. */
    async sendMessageAndSave(conversationId: string, content: string, options: SendOptions = {}): Promise<Message[]> {
      try {
        let latest: Message[] = [];
        try {
          latest = await saveMessage(conversationId, "user", content);
        } catch (error) {
          log.warn("Could not save the user message; continuing:", error);
        }
        let texts: string[];
        try {
          texts = await service.sendMessage(conversationId, content, options);
        } catch (error) {
          log.error("Chat failed:", error);
          deps.notify?.({ title: "Error", description: (error as Error)?.message || CHAT_TEXTS.unknownError, variant: "destructive" });
          texts = [CHAT_TEXTS.sendFailed];
          history = [...history, { role: "user", content }, { role: "model", content: CHAT_TEXTS.sendFailed }];
          options.onProgress?.(texts);
        }
        let savedAny = false;
        for (const text of texts) {
          try {
            latest = await saveMessage(conversationId, "model", text);
            savedAny = true;
          } catch (error) {
            log.warn("Could not save a model message; skipped:", error);
          }
        }
        if (!savedAny) latest = await saveMessage(conversationId, "model", CHAT_TEXTS.savedFallback);
        return latest;
      } catch (error) {
        log.error("Sending and saving failed:", error);
        return [];
      }
    },
  };
  return service;
}

export type ChatService = ReturnType<typeof createChatService>;

function numericConversation(conversationId: string): { conversationId?: number } {
  return /^\d+$/.test(String(conversationId)) ? { conversationId: Number(conversationId) } : {};
}
