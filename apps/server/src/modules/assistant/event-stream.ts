import { STATUS_CODES } from "node:http";
import type { FastifyReply } from "fastify";
import { AppError } from "../../http/app-error.ts";

export interface EventStreamWriter {
  send(event: string, data: unknown): void;
  /** Aborted when the client goes away (the stop button). */
  signal: AbortSignal;
}

/**
 * Answers with server-sent events (contract in @sage/contracts/assistant): `run` writes events as it goes;
 * its result is the `finish` event, a failure the `error` event.
 */
export async function replyWithEventStream(reply: FastifyReply, run: (writer: EventStreamWriter) => Promise<unknown>, log: (error: unknown) => void) {
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
    send("finish", await run({ send, signal: controller.signal }));
  } catch (error) {
    if (!controller.signal.aborted) {
      const status = error instanceof AppError ? error.status : 500;
      if (!(error instanceof AppError)) log(error);
      const message = error instanceof AppError ? error.message : "Internal server error";
      send("error", { error: message, status, statusText: STATUS_CODES[status] ?? "Error" });
    }
  } finally {
    raw.end();
  }
}
