import type { Message } from "@sage/contracts/conversations";
import { describe, expect, it } from "vitest";
import type { LlmMessage } from "../../providers/llm/llm.ts";
import { HISTORY_LIMIT, turnHistory } from "./turn-history.ts";

const text = (entry: LlmMessage) => ("content" in entry ? entry.content : "");
const message = (id: number, role: "user" | "model", content: string): Message => ({
  id,
  conversationId: 1,
  role,
  content,
  createdAt: "2031-01-01T00:00:00.000Z",
});

describe("turnHistory", () => {
  it("sends the saved messages as user and assistant turns, then the new message as the model sees it", () => {
    const saved = [message(1, "user", "Hi"), message(2, "model", "Hello")];
    expect(turnHistory(saved, "Next, with context")).toEqual([
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello" },
      { role: "user", content: "Next, with context" },
    ]);
  });

  it("keeps the most recent messages within the count and size bounds; the new message always goes", () => {
    const many = Array.from({ length: HISTORY_LIMIT.messages + 20 }, (_, index) => message(index + 1, index % 2 ? "model" : "user", `message ${index + 1}`));
    const sent = turnHistory(many, "new");
    expect(sent).toHaveLength(HISTORY_LIMIT.messages);
    expect(text(sent.at(-2)!)).toBe(`message ${many.length}`);
    const large = [message(1, "user", "x".repeat(HISTORY_LIMIT.characters)), message(2, "model", "short")];
    expect(turnHistory(large, "new").map(text)).toEqual(["short", "new"]);
    expect(turnHistory([], "y".repeat(HISTORY_LIMIT.characters + 1))).toHaveLength(1);
  });
});
