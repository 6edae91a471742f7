import type { FastifyReply } from "fastify";
import type { StreamError } from "@sage/contracts/errors";
import { toWireEvent, type StreamEvent } from "@sage/contracts/stream-event";
import { describeError, statusText } from "./error-handler.ts";

type ErrorEventOf<E> = Extract<E, { type: "error" }>;
/** The events a run sends itself; the `error` event is written from a failure (`fail`). */
export type SentEvent<E extends StreamEvent> = Exclude<E, { type: "error" }>;
/** Fields a protocol's `error` event has beyond the error body and status. */
export type ErrorDetail<E extends StreamEvent> = Omit<ErrorEventOf<E>, "type" | keyof StreamError>;

/** Writes one protocol's events (`E`, a discriminated union from @sage/contracts). */
export interface EventStreamWriter<E extends StreamEvent> {
  send(event: SentEvent<E>): void;
  /**
   * A failure the stream goes on after, sent as the `error` event: the usual error body plus the status a plain
   * reply would have had (`status`, `statusText`), since the HTTP status is already 200 once the stream has
   * started. An AppError keeps its code, status and message; anything else is logged and sent as a 500.
   */
  fail(error: unknown, detail?: ErrorDetail<E>): void;
  /** Aborted when the client goes away (the stop button, a closed tab). */
  signal: AbortSignal;
}

/**
 * Answers with server-sent events: `run` writes events as it goes, and returns the last one; a failure it throws
 * is the last event, `error`.
 */
export async function replyWithEventStream<E extends StreamEvent>(
  reply: FastifyReply,
  run: (writer: EventStreamWriter<E>) => Promise<SentEvent<E>>,
  log: (error: unknown) => void,
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
  const write = (name: string, data: object) => {
    if (!raw.destroyed) raw.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const send = (event: SentEvent<E>) => {
    const { name, data } = toWireEvent(event);
    write(name, data);
  };
  const fail = (error: unknown, detail?: ErrorDetail<E>) => {
    const { status, body, unexpected } = describeError(error, reply.request);
    if (unexpected) log(error);
    const data: StreamError = { ...body, status, statusText: statusText(status) };
    write("error", { ...data, ...detail });
  };
  try {
    send(await run({ send, fail, signal: controller.signal }));
  } catch (error) {
    if (!controller.signal.aborted) fail(error);
  } finally {
    raw.end();
  }
}
