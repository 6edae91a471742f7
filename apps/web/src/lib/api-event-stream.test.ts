import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./api-client";
import { postEventStream } from "./api-event-stream";
import type { StreamEvent } from "./read-event-stream";
import { mockFetch } from "./fetch-test-helpers";

afterEach(() => vi.unstubAllGlobals());

describe("postEventStream", () => {
  it("posts JSON with credentials and the signal, and yields the server-sent events", async () => {
    const fetchMock = mockFetch(
      new Response('event: text-delta\ndata: {"delta":"Hi"}\n\nevent: finish\ndata: {"response":"Hi"}\n\n', {
        headers: { "content-type": "text/event-stream" },
      }),
    );
    const signal = new AbortController().signal;
    const reply = await postEventStream("/api/gemini/chat", { stream: true }, signal);
    const events: StreamEvent[] = [];
    if ("events" in reply) for await (const event of reply.events) events.push(event);
    expect(events).toEqual([
      { event: "text-delta", data: { delta: "Hi" } },
      { event: "finish", data: { response: "Hi" } },
    ]);
    expect(fetchMock).toHaveBeenCalledWith("/api/gemini/chat", {
      method: "POST",
      credentials: "include",
      signal,
      headers: { "Content-Type": "application/json" },
      body: '{"stream":true}',
    });
  });

  it("answers the JSON of a reply that did not stream, and throws an ApiError on a non-2xx", async () => {
    mockFetch(Response.json({ response: "Hi", functionCalls: [] }));
    await expect(postEventStream("/api/gemini/chat", {})).resolves.toEqual({ json: { response: "Hi", functionCalls: [] } });
    mockFetch(new Response("", { status: 502, statusText: "Bad Gateway" }));
    await expect(postEventStream("/api/gemini/chat", {})).rejects.toBeInstanceOf(ApiError);
  });
});
