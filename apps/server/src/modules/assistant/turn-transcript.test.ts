import { CHAT_TEXTS, type TurnEvent } from "@sage/contracts/chat-turn";
import type { Message } from "@sage/contracts/conversations";
import type { SearchResult } from "@sage/contracts/retrieval";
import { describe, expect, it } from "vitest";
import type { NewMessage } from "../conversations/conversations.module.ts";
import { createCitationLedger } from "./citation-ledger.ts";
import { createTurnTranscript } from "./turn-transcript.ts";

const passage = (id: number): SearchResult => ({
  content: `passage ${id}`,
  score: 0.5,
  metadata: { chunk_id: id, file_id: id, filename: `file-${id}.pdf`, source: `file-${id}.pdf/page ${id}` },
});
const call = (name: string) => ({ id: `id-${name}`, name, args: {}, result: { success: true } });

function setup() {
  const ledger = createCitationLedger();
  const controller = new AbortController();
  const sent: TurnEvent[] = [];
  const appended: (readonly NewMessage[])[] = [];
  const transcript = createTurnTranscript({
    takeCitations: ledger.takeWaiting,
    send: (event) => sent.push(event),
    append: async (messages) => {
      appended.push(messages);
      return messages.map((message, index): Message => ({
        id: index + 1,
        conversationId: 1,
        createdAt: "2031-01-01T00:00:00.000Z",
        ...message,
        role: "model",
      }));
    },
    signal: controller.signal,
    log: () => {},
  });
  /** What the user will find saved: each message's text and the tools that ran for it. */
  const savedMessages = () =>
    appended.flat().map((message) => ({
      content: message.content,
      tools: (message.toolCalls ?? []).map((record) => record.name),
      cited: (message.citations ?? []).map((citation) => citation.n),
    }));
  return { ledger, transcript, sent, appended, savedMessages, stop: () => controller.abort() };
}

/** One reply: streamed in pieces, then complete. */
function reply(transcript: ReturnType<typeof setup>["transcript"], pieces: string[], options: { cutOff?: boolean } = {}) {
  transcript.beginReply();
  for (const piece of pieces) transcript.streamText(piece);
  return transcript.endReply(pieces.join(""), options);
}

describe("the turn transcript", () => {
  it("saves each reply's text as a message with the passages it drew on and the tool it ran", () => {
    const { ledger, transcript, sent, savedMessages } = setup();
    ledger.cite([passage(1)]);
    expect(reply(transcript, ["Let me ", "check."])).toBe(true);
    transcript.toolRan(call("searchDocuments"));
    ledger.cite([passage(2), passage(1)]);
    reply(transcript, ["Found it."]);
    transcript.finish();
    expect(savedMessages()).toEqual([
      { content: "Let me check.", tools: ["searchDocuments"], cited: [1] },
      { content: "Found it.", tools: [], cited: [2] },
    ]);
    expect(sent).toEqual([
      { type: "text-delta", text: "Let me " },
      { type: "text-delta", text: "check." },
      { type: "citations", items: [expect.objectContaining({ n: 1 })] },
      { type: "text-delta", text: "Found it." },
      { type: "citations", items: [expect.objectContaining({ n: 2 })] },
    ]);
  });

  it("puts the calls of replies that wrote nothing, and the web pages found, on the next answer", () => {
    const { transcript, savedMessages } = setup();
    expect(reply(transcript, [])).toBe(false);
    transcript.toolRan(call("searchDocuments"));
    reply(transcript, []);
    transcript.toolRan(call("performWebSearch"));
    transcript.addSources([{ title: "Example News", url: "https://news.example/a" }]);
    reply(transcript, ["The web says yes."]);
    transcript.finish();
    expect(savedMessages()).toEqual([
      { content: "The web says yes.\n\n**Sources:**\n- [Example News](https://news.example/a)", tools: ["searchDocuments", "performWebSearch"], cited: [] },
    ]);
  });

  it("says an answer was cut at the model's length limit, on the stream and in the saved answer", () => {
    const { transcript, sent, savedMessages } = setup();
    reply(transcript, ["A long ", "answer"], { cutOff: true });
    transcript.finish();
    expect(savedMessages()).toEqual([{ content: `A long answer\n\n${CHAT_TEXTS.cutOff}`, tools: [], cited: [] }]);
    expect(sent.at(-1)).toEqual({ type: "text-delta", text: `\n\n${CHAT_TEXTS.cutOff}` });
  });

  it("makes the length-limit note the answer when the cut reply wrote no text", () => {
    const { transcript, sent, savedMessages } = setup();
    expect(reply(transcript, [], { cutOff: true })).toBe(true);
    transcript.finish();
    expect(savedMessages()).toEqual([{ content: CHAT_TEXTS.cutOff, tools: [], cited: [] }]);
    expect(sent).toEqual([{ type: "text-delta", text: CHAT_TEXTS.cutOff }]);
  });

  it("adds SAGE's own note to the previous reply's message, or makes it a message when there is none", () => {
    const first = setup();
    reply(first.transcript, ["Let me search."]);
    first.transcript.toolRan(call("searchDocuments"));
    first.transcript.beginReply();
    first.transcript.streamText("Half a");
    first.transcript.failReply();
    first.transcript.note("I've completed your request to search documents.");
    first.transcript.finish();
    expect(first.savedMessages()).toEqual([
      { content: "Let me search.", tools: ["searchDocuments"], cited: [] },
      { content: "Half a\n\nI've completed your request to search documents.", tools: [], cited: [] },
    ]);

    const second = setup();
    second.transcript.beginReply();
    second.transcript.failReply();
    second.transcript.note(CHAT_TEXTS.modelFailed);
    second.transcript.finish();
    expect(second.savedMessages()).toEqual([{ content: CHAT_TEXTS.modelFailed, tools: [], cited: [] }]);
  });

  it("saves what was streamed at once when the user stops, and only once", async () => {
    const { transcript, appended, savedMessages, stop } = setup();
    transcript.beginReply();
    transcript.streamText("First part. ");
    stop();
    expect(savedMessages()).toEqual([{ content: "First part. ", tools: [], cited: [] }]);
    transcript.streamText("Second part.");
    expect((await transcript.finish()).map((message) => message.content)).toEqual(["First part. "]);
    expect(appended).toHaveLength(1);
  });

  it("saves nothing when no reply wrote anything", async () => {
    const { transcript, appended } = setup();
    transcript.beginReply();
    expect(await transcript.finish()).toEqual([]);
    expect(appended).toEqual([]);
  });
});
