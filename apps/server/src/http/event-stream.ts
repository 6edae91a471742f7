import type { FastifyReply } from "fastify";
import { describeError, statusText } from "./error-handler.ts";

export interface EventStreamWriter {
  send(event: string, data: unknown): void;
  /** Aborted when the client goes away (the stop button, a closed tab). */
  signal: AbortSignal;
}

/**
 * Answers with server-sent events: `run` writes events as it goes; its result is the last event (`finish`, or
 * the name given), a failure the `error` event. The error event's data is the usual error body plus the status a
 * plain reply would have had (`status`, `statusText`), since the HTTP status is already 200 once the stream has
 * started.
 */
export async function replyWithEventStream(
  reply: FastifyReply,
  run: (writer: EventStreamWriter) => Promise<unknown>,
  log: (error: unknown) => void,
  options: { lastEvent?: string } = {},
) {
  const controller = new AbortController();
  const raw = reply.raw;
  raw.on("close", () => {
    if (!raw.writableFinished) controller.abort();
  });
  reply.hijack();
  raw.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    "x-accel-buffering": "no",
  });
  const send = (event: string, data: unknown) => {
    if (!raw.destroyed) raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  try {
    send(options.lastEvent ?? "finish", await run({ send, signal: controller.signal }));
  } catch (error) {
    if (!controller.signal.aborted) {
      const { status, body, unexpected } = describeError(error, reply.request);
      if (unexpected) log(error);
      send("error", { ...body, status, statusText: statusText(status) });
    }
  } finally {
    raw.end();
  }
}
