import { LogController, type FastifyReply, type FastifyRequest } from "fastify";

/** Requests slower than this are logged at info even when per-request lines are off. */
export const SLOW_REQUEST_MS = 1000;

/**
 * Fastify's per-request log lines ("incoming request", "request completed") cost more than answering most
 * requests, so below debug only failed and slow requests get a line. debug and trace keep every line.
 */
export class RequestLog extends LogController {
  constructor(private readonly everyRequest: boolean) {
    super();
  }

  override incomingRequest(request: FastifyRequest, reply: FastifyReply) {
    if (this.everyRequest) super.incomingRequest(request, reply);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (this.everyRequest || error || reply.elapsedTime >= SLOW_REQUEST_MS) super.requestCompleted(error, request, reply);
  }
}

/**
 * The reminders feed's address carries its secret token, a webhook schedule's address its secret (decision 105), and
 * a sign-in's callback (an account's or a tool server's) the provider's one-time code and state: logs show the path
 * without them.
 */
export const maskSecretPath = (url: string) =>
  url
    .replace(/^\/api\/calendar\/[^/?#]+\.ics/, "/api/calendar/[secret].ics")
    .replace(/^\/api\/hooks\/[^/?#]+/, "/api/hooks/[secret]")
    .replace(/^(\/api\/(?:oauth\/[^/?#]+|tools\/servers\/oauth)\/callback)\?.*$/, "$1?[secret]");

/** Fastify's request serializer, with secret paths masked (the logger's `serializers.req`). */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: maskSecretPath(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
