import type { Message } from "@sage/contracts/conversations";
import { describe, expect, it } from "vitest";
import { historySources } from "./history-sources.ts";

const message = (id: number, role: "user" | "model", extra: Partial<Message> = {}): Message => ({
  id,
  conversationId: 1,
  role,
  content: `message ${id}`,
  createdAt: "2026-12-03T09:00:00.000Z",
  ...extra,
});
const call = (name: string, extra: object = {}) => ({ id: name, name, args: {}, result: {}, ...extra });

describe("historySources", () => {
  it("names the passages, files and tool results the conversation read, each once; a clean history has none", () => {
    const history = [
      message(1, "user", { context: [{ n: 1, fileId: 7, filename: "memo.txt", source: "memo.txt", score: 0.8, content: "..." }] }),
      message(2, "model", {
        toolCalls: [call("searchMail", { readFrom: [{ title: "the mail from bob@partner.example" }] }), call("createReminder", { readFrom: [] })],
      }),
      message(3, "user", { attachments: [{ fileId: 9, name: "scan.png", mimeType: "image/png" }] }),
      message(4, "model", { toolCalls: [call("readThread", { readFrom: [{ title: "the mail from bob@partner.example" }] })] }),
    ];
    expect(historySources(history)).toEqual([
      { title: "memo.txt", fileId: 7 },
      { title: "the mail from bob@partner.example" },
      { title: "scan.png", fileId: 9 },
    ]);
    expect(historySources([message(1, "user"), message(2, "model", { toolCalls: [call("createReminder", { readFrom: [] })] })])).toEqual([]);
  });

  it("counts a reading tool saved before calls recorded what they read, and every external tool", () => {
    const history = [message(1, "user"), message(2, "model", { toolCalls: [call("searchMail"), call("travel__flight_status"), call("createReminder")] })];
    expect(historySources(history).map((source) => source.title)).toEqual(["what searchMail found", "what travel__flight_status found"]);
  });
});
