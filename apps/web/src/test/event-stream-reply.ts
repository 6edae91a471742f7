/**
 * A text/event-stream reply whose events the test sends one by one, as the server would while a turn runs.
 * The bytes are the wire format (`event:` name, one JSON `data:` line, a blank line), so tests hold whatever
 * the client does to parse them.
 */
export function eventStreamReply() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
    },
    cancel() {
      cancelled = true;
    },
  });
  return {
    response: new Response(body, { headers: { "content-type": "text/event-stream; charset=utf-8" } }),
    send(event: string, data: unknown) {
      controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
    },
    close() {
      controller.close();
    },
    /** Ends the stream the way a dropped connection does. */
    fail(error: Error) {
      controller.error(error);
    },
    get cancelled() {
      return cancelled;
    },
  };
}
