import type { FastifyReply } from "fastify";

/** Answers JSON that is already serialised (a cached response body), with the header Fastify would set. */
export function sendJson(reply: FastifyReply, json: string) {
  return reply.type("application/json; charset=utf-8").send(json);
}
