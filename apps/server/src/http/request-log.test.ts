import type { FastifyReply, FastifyRequest } from "fastify";
import { expect, it } from "vitest";
import { maskSecretPath, RequestLog, SLOW_REQUEST_MS } from "./request-log.ts";

function exchange(elapsedTime: number) {
  const lines: string[] = [];
  const log = { info: (_: unknown, message: string) => lines.push(`info ${message}`), error: (_: unknown, message: string) => lines.push(`error ${message}`) };
  return { lines, request: { log } as unknown as FastifyRequest, reply: { log, elapsedTime } as unknown as FastifyReply };
}

it("below debug logs only failed and slow requests; at debug every request", () => {
  const quiet = new RequestLog(false);
  const fast = exchange(3);
  quiet.incomingRequest(fast.request, fast.reply);
  quiet.requestCompleted(null, fast.request, fast.reply);
  expect(fast.lines).toEqual([]);
  const slow = exchange(SLOW_REQUEST_MS + 1);
  quiet.requestCompleted(null, slow.request, slow.reply);
  const failed = exchange(3);
  quiet.requestCompleted(new Error("socket hang up"), failed.request, failed.reply);
  expect([...slow.lines, ...failed.lines]).toEqual(["info request completed", "error request errored"]);

  const verbose = new RequestLog(true);
  const every = exchange(3);
  verbose.incomingRequest(every.request, every.reply);
  verbose.requestCompleted(null, every.request, every.reply);
  expect(every.lines).toEqual(["info incoming request", "info request completed"]);
});

it("logs a webhook schedule's address without its secret", () => {
  expect(maskSecretPath("/api/hooks/Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5?x=1")).toBe("/api/hooks/[secret]?x=1");
  expect(maskSecretPath("/api/schedules/4")).toBe("/api/schedules/4");
});

it("logs a callback's path without the provider's one-time code and state", () => {
  expect(maskSecretPath("/api/oauth/google/callback?code=c-123&state=s-456")).toBe("/api/oauth/google/callback?[secret]");
  expect(maskSecretPath("/api/tools/servers/oauth/callback?code=c-123&state=s-456")).toBe("/api/tools/servers/oauth/callback?[secret]");
  expect(maskSecretPath("/api/tools/servers?name=x")).toBe("/api/tools/servers?name=x");
});
