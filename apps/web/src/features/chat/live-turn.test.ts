import type { Citation } from "@sage/contracts/conversations";
import { describe, expect, it } from "vitest";
import type { TurnEvent } from "./api/run-turn";
import { EMPTY_LIVE_TURN, applyTurnEvent, toolFailure, turnFailureText } from "./live-turn";

const citation = (n: number): Citation => ({ n, fileId: n, filename: `file-${n}.pdf`, source: `file-${n}.pdf/page ${n}`, score: 0.5, content: `passage ${n}` });
const play = (...events: TurnEvent[]) => events.reduce(applyTurnEvent, EMPTY_LIVE_TURN).messages;

describe("applyTurnEvent", () => {
  it("joins text into one message until a tool runs, then starts the next", () => {
    expect(
      play(
        { type: "text-delta", text: "Let me " },
        { type: "text-delta", text: "look." },
        { type: "tool-call", id: "1", name: "searchDocuments", args: { query: "x" } },
        { type: "tool-result", id: "1", name: "searchDocuments", result: { results: [] } },
        { type: "text-delta", text: "Found " },
        { type: "text-delta", text: "nothing." },
      ).map((message) => message.content),
    ).toEqual(["Let me look.", "Found nothing."]);
  });

  it("puts citations under the message just written, or under the next one when none is", () => {
    const messages = play(
      { type: "text-delta", text: "Answer one" },
      { type: "citations", items: [citation(1)] },
      { type: "tool-call", id: "1", name: "searchDocuments", args: {} },
      { type: "citations", items: [citation(2)] },
      { type: "text-delta", text: "Answer two" },
    );
    expect(messages.map((message) => message.citations.map((item) => item.n))).toEqual([[1], [2]]);
    expect(play({ type: "citations", items: [citation(3)] }, { type: "text-delta", text: "Late" })[0]!.citations).toEqual([citation(3)]);
  });
});

describe("toolFailure", () => {
  it("finds the error of a failed tool run, and nothing in a successful one", () => {
    expect(toolFailure({ success: false, error: "Failed to create reminder: 400 Bad Request - {}" })).toBe("Failed to create reminder: 400 Bad Request - {}");
    expect(toolFailure({ success: true, reminder: {} })).toBeUndefined();
    expect(toolFailure({ results: [], message: "No relevant documents found for this query." })).toBeUndefined();
    expect(toolFailure(null)).toBeUndefined();
  });
});

describe("turnFailureText", () => {
  const failure = {
    type: "error" as const,
    error: "The model request failed (500): model exploded",
    code: "model_error",
    status: 502,
    statusText: "Bad Gateway",
  };

  it("names the provider whose call failed: the spec's text for Gemini, no vendor's name for another", () => {
    expect(turnFailureText({ ...failure, provider: "gemini" })).toBe("Gemini API error: 502 Bad Gateway");
    expect(turnFailureText({ ...failure, provider: "openai-compatible" })).toBe("Model API error: 502 Bad Gateway");
  });

  it("says what went wrong when the failure was not the model's", () => {
    expect(turnFailureText({ ...failure, error: "Internal server error", code: "internal", status: 500, statusText: "Internal Server Error" })).toBe(
      "Internal server error",
    );
  });
});
