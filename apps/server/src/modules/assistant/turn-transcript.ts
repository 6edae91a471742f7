import type { WebSource } from "@sage/contracts/assistant";
import { CHAT_TEXTS, type TurnEventOf } from "@sage/contracts/chat-turn";
import type { Citation, Message, ToolCallRecord } from "@sage/contracts/conversations";
import type { NewMessage } from "../conversations/conversations.module.ts";

/** A model message of the turn, saved when the turn ends (or is stopped). */
interface Draft {
  content: string;
  citations: Citation[];
  toolCalls: ToolCallRecord[];
  /** The reply (1, 2 ...) that wrote it. */
  step: number;
}

export interface TurnTranscriptDeps {
  /** The document passages given to the model and not yet shown under an answer. */
  takeCitations(text?: string): Citation[];
  /** Shows the passages under the answer just written, and text the transcript adds to the answer being shown. */
  send(event: TurnEventOf<"citations" | "text-delta">): void;
  /** Saves model messages in one transaction (on SQLite when called); answers them as saved. */
  append(messages: readonly NewMessage[]): Promise<Message[]>;
  /** Aborted when the user stops the turn: what was written so far is saved at once. */
  signal: AbortSignal;
  log(message: string, error: unknown): void;
}

const sourcesList = (sources: readonly WebSource[]) => `\n\n**Sources:**\n${sources.map((source) => `- [${source.title}](${source.url})`).join("\n")}`;

/**
 * What a turn will save: the model messages its replies write, each with the passages and web pages it drew on
 * and the tools that ran for it, plus SAGE's own notes. Tool calls of a reply that wrote no text, and web pages a
 * tool found, wait for the next message. The messages are saved once: when the turn ends, or at once when the
 * user stops it (with the reply streamed so far).
 */
export function createTurnTranscript(deps: TurnTranscriptDeps) {
  const drafts: Draft[] = [];
  let step = 0;
  /** The reply being streamed, not yet a draft. */
  let streamed = "";
  /** The current reply's message, once it wrote text. */
  let current: Draft | undefined;
  let waitingCalls: ToolCallRecord[] = [];
  let waitingSources: WebSource[] = [];
  let saved: Promise<Message[]> | undefined;
  /** What a stopped turn's answer says while a long tool run is going on (research). */
  let stopNote: (() => string) | null = null;

  /** Text the model wrote: it takes the passages, the waiting calls and the web pages it drew on. */
  function addModelText(text: string): Draft {
    const draft: Draft = { content: text, citations: deps.takeCitations(text), toolCalls: waitingCalls, step };
    waitingCalls = [];
    if (waitingSources.length > 0) {
      draft.content += sourcesList(waitingSources);
      waitingSources = [];
    }
    drafts.push(draft);
    if (draft.citations.length > 0) deps.send({ type: "citations", items: draft.citations });
    return draft;
  }

  /** Saves the turn's messages once; the append is started when this is called (a Stop saves at once). */
  function save(): Promise<Message[]> {
    if (saved) return saved;
    if (streamed.trim()) addModelText(streamed);
    streamed = "";
    const messages = drafts.map((draft) => ({ role: "model" as const, content: draft.content, citations: draft.citations, toolCalls: draft.toolCalls }));
    saved = messages.length > 0 ? deps.append(messages) : Promise.resolve([]);
    return saved;
  }

  // Stop: the partial answer is saved at once, before anything else can happen in this conversation.
  const onAbort = () => {
    try {
      // The run's own words, with the sources it had found as the note's chips.
      if (stopNote && !streamed.trim()) addModelText(stopNote());
      save().catch((error: unknown) => deps.log("could not save a stopped turn's answer", error));
    } catch (error) {
      deps.log("could not save a stopped turn's answer", error);
    }
  };
  deps.signal.addEventListener("abort", onAbort, { once: true });

  return {
    /** The next model reply starts; answers its step (1, 2 ...). */
    beginReply(): number {
      step++;
      streamed = "";
      current = undefined;
      return step;
    },

    /** Reply text as the model writes it: shown at once, and saved if the user stops the turn. */
    streamText(text: string) {
      streamed += text;
      deps.send({ type: "text-delta", text });
    },

    /**
     * The reply is complete: its text becomes a message. A reply the model's length limit cut says so, in its
     * message and on the stream (or is only that note when it wrote nothing). Answers whether it has a message.
     */
    endReply(text: string, options: { cutOff?: boolean } = {}): boolean {
      streamed = "";
      if (text.trim()) current = addModelText(text);
      if (options.cutOff) {
        const note = current ? `\n\n${CHAT_TEXTS.cutOff}` : CHAT_TEXTS.cutOff;
        if (current) current.content += note;
        else current = addModelText(note);
        deps.send({ type: "text-delta", text: note });
      }
      return current !== undefined;
    },

    /** The reply failed: what it streamed is kept as its message. */
    failReply() {
      if (streamed.trim()) current = addModelText(streamed);
      streamed = "";
    },

    /** A text of SAGE's own (a fallback): added to the previous reply's message when there is one. */
    note(text: string) {
      const last = drafts.at(-1);
      if (last && last.step >= step - 1) {
        last.content = `${last.content}\n\n${text}`;
        last.toolCalls.push(...waitingCalls);
      } else drafts.push({ content: text, citations: [], toolCalls: waitingCalls, step });
      waitingCalls = [];
    },

    /** A tool ran for the current reply: kept on its message, or on the next message when the reply wrote none. */
    toolRan(record: ToolCallRecord) {
      if (current) current.toolCalls.push(record);
      else waitingCalls.push(record);
    },

    /** Web pages a tool found: listed as links under the next answer. */
    addSources(sources: readonly WebSource[]) {
      waitingSources.push(...sources);
    },

    /** Sets (or clears) what the answer says if the user stops the turn during the current tool run. */
    whenStopped(note: (() => string) | null) {
      stopNote = note;
    },

    /** Saves the messages (once: a stop may have saved them already) and answers them as saved. */
    finish(): Promise<Message[]> {
      deps.signal.removeEventListener("abort", onAbort);
      return save();
    },
  };
}

export type TurnTranscript = ReturnType<typeof createTurnTranscript>;
