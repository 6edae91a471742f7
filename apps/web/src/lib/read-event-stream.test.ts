import { describe, expect, it } from "vitest";
import { readEventStream } from "./read-event-stream";

function streamOf(...pieces: string[]) {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

describe("readEventStream", () => {
  it("joins events split across chunks, handles CRLF, and gives data that is not JSON as undefined", async () => {
    const events = [];
    for await (const event of readEventStream(
      streamOf('event: text-delta\ndata: {"del', 'ta":"Hi"}\n\nevent: x\ndata: not json\n\n', 'event: finish\r\ndata: {"response":"Hi"}\r\n\r\n'),
    )) {
      events.push(event);
    }
    expect(events).toEqual([
      { event: "text-delta", data: { delta: "Hi" } },
      { event: "x", data: undefined },
      { event: "finish", data: { response: "Hi" } },
    ]);
  });
});
