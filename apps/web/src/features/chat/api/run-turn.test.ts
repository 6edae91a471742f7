import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/api-client";
import { mockFetch } from "@/lib/fetch-test-helpers";
import { runTurn, type TurnEvent, type UnreadableTurnEvent } from "./run-turn";

afterEach(() => vi.unstubAllGlobals());

const sse = (...events: [string, unknown][]) =>
  new Response(events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join(""), {
    headers: { "content-type": "text/event-stream" },
  });
const message = { id: 5, conversationId: 7, role: "user", content: "Hi", createdAt: "2031-01-01T00:00:00.000Z" };

describe("runTurn", () => {
  it("posts the content to the conversation's turn and yields its events, skipping unknown ones", async () => {
    const fetchMock = mockFetch(
      sse(
        ["user-message", { message }],
        ["text-delta", { text: "Hello" }],
        ["approval-request", { id: "x" }],
        ["done", { messages: [{ ...message, id: 6, role: "model", content: "Hello" }] }],
      ),
    );
    const events: (TurnEvent | UnreadableTurnEvent)[] = [];
    for await (const event of runTurn("7", { content: "Hi", model: "gemini-2.0-flash" })) events.push(event);
    expect(events.map((event) => event.type)).toEqual(["user-message", "text-delta", "done"]);
    expect(events[0]).toEqual({ type: "user-message", message });
    expect(events[1]).toEqual({ type: "text-delta", text: "Hello" });
    expect(fetchMock.mock.calls[0]![0]).toBe("/api/conversations/7/turn");
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]!.body))).toEqual({ content: "Hi", model: "gemini-2.0-flash" });
  });

  it("yields a saved memory, so the chat can show 'Remembered: …' with an Undo", async () => {
    const memory = {
      id: 3,
      content: "Anna Berg is the user's chief of staff",
      source: "assistant",
      conversationId: 7,
      createdAt: "2031-01-01T00:00:00.000Z",
      updatedAt: "2031-01-01T00:00:00.000Z",
    };
    mockFetch(sse(["memory-saved", { memory }]));
    const turn = runTurn("7", { content: "Anna is my chief of staff" });
    expect((await turn.next()).value).toEqual({ type: "memory-saved", memory });
  });

  it("reports an event that breaks its contract as unreadable, and reads on", async () => {
    const body =
      'event: memory-saved\ndata: {"memory":{"id":"bad"}}\n\nevent: text-delta\ndata: not json\n\nevent: text-delta\ndata: {"text":"Still here"}\n\n';
    mockFetch(new Response(body, { headers: { "content-type": "text/event-stream" } }));
    const events: (TurnEvent | UnreadableTurnEvent)[] = [];
    for await (const event of runTurn("7", { content: "Hi" })) events.push(event);
    expect(events).toEqual([
      { type: "unreadable", event: "memory-saved" },
      { type: "unreadable", event: "text-delta" },
      { type: "text-delta", text: "Still here" },
    ]);
  });

  it("reads a failure with the status and the provider whose call failed", async () => {
    const failure = {
      error: "The model request failed (500): overloaded",
      code: "model_error",
      status: 502,
      statusText: "Bad Gateway",
      provider: "openai-compatible",
    };
    mockFetch(sse(["error", failure]));
    expect((await runTurn("7", { content: "Hi" }).next()).value).toEqual({ type: "error", ...failure });
  });

  it("throws the server's refusal before any event", async () => {
    mockFetch(Response.json({ error: "Conversation not found", code: "not_found" }, { status: 404, statusText: "Not Found" }));
    await expect(runTurn("9", { content: "Hi" }).next()).rejects.toBeInstanceOf(ApiError);
  });
});
