import type { Message } from "@sage/contracts/conversations";
import { describe, expect, it } from "vitest";
import { historyAnswers } from "./history-sources.ts";

const message = (id: number, role: "user" | "model", extra: Partial<Message> = {}): Message => ({
  id,
  conversationId: 1,
  role,
  content: `message ${id}`,
  createdAt: "2026-12-03T09:00:00.000Z",
  ...extra,
});
const call = (name: string, extra: object = {}) => ({ id: name, name, args: {}, result: { results: [{ id: 4, from: "bob@partner.example" }] }, ...extra });
const BOB = { title: "the mail from bob@partner.example of 3 Dec", messageId: 4 };

describe("historyAnswers", () => {
  it("gives each earlier answer what its turn read: passages, files and tool results (its own calls too), with their texts", () => {
    const answers = historyAnswers([
      message(1, "user", { context: [{ n: 1, fileId: 7, filename: "memo.txt", source: "memo.txt", score: 0.8, content: "Memo text" }] }),
      message(2, "model", { content: "", toolCalls: [call("searchMail", { readFrom: [BOB] })] }),
      message(3, "model", { content: "Bob asks for a BCC." }),
      message(4, "user"),
      message(5, "model", { toolCalls: [call("createReminder", { readFrom: [] })] }),
    ]);
    expect(answers.map((answer) => answer.sources.map((source) => source.title))).toEqual([["memo.txt", BOB.title], ["memo.txt", BOB.title], []]);
    expect(answers[1]!.read.at(-1)).toEqual({ source: BOB, text: JSON.stringify({ results: [{ id: 4, from: "bob@partner.example" }] }) });
    expect(answers[1]!.day).toBe("3 Dec");
  });

  it("counts a reading tool saved before calls recorded what they read, and every external tool", () => {
    const answers = historyAnswers([
      message(1, "user"),
      message(2, "model", { toolCalls: [call("searchMail"), call("travel__flight_status"), call("createReminder")] }),
      message(3, "model"),
    ]);
    expect(answers[1]!.sources.map((source) => source.title)).toEqual(["what searchMail found", "what travel__flight_status found"]);
  });
});
