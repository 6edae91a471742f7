import { STATUS_CODES } from "node:http";
import type { FastifyError, FastifyInstance, FastifyRequest } from "fastify";
import type { ErrorResponse } from "@sage/contracts/errors";
import { AppError } from "./app-error.ts";
import { answerInvalidInput } from "./invalid-input.ts";
import { notJson } from "./json-body.ts";
import { MULTIPART_ONLY_MESSAGE } from "./multipart-form.ts";
import { ResponseContractError } from "./route-contracts.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route's error bodies also carry the message as `message` (a field some clients read). */
    errorAlsoAsMessage?: boolean;
  }
}

/** The one wire shape of a failure: `{ error, code }`, plus `message` where a route asks for it. */
export function errorBody(request: FastifyRequest | undefined, message: string, code: string): ErrorResponse {
  return request?.routeOptions.config.errorAlsoAsMessage ? { error: message, code, message } : { error: message, code };
}

/** A failure as status and body; unknown errors are a generic 500 (the caller logs them). */
export function describeError(error: unknown, request?: FastifyRequest): { status: number; body: ErrorResponse; unexpected: boolean } {
  if (error instanceof AppError) return { status: error.status, body: errorBody(request, error.message, error.code), unexpected: false };
  // Input that failed the route's schema, answered as the route words it (invalid-input.ts).
  const invalid = answerInvalidInput(error, request);
  if (invalid) return { status: invalid.status, body: errorBody(request, invalid.message, invalid.code), unexpected: false };
  // Only when responses are checked (tests): the mismatch is the point of the failure, so it is said.
  if (error instanceof ResponseContractError) return { status: 500, body: errorBody(request, error.message, error.code), unexpected: true };
  const fastifyError = error as Partial<FastifyError>;
  // A body type no parser takes: said in terms of what the route does take.
  if (fastifyError.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
    const message = request?.routeOptions.config.multipart ? MULTIPART_ONLY_MESSAGE : notJson().message;
    return { status: 415, body: errorBody(request, message, "unsupported_media_type"), unexpected: false };
  }
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return { status, body: errorBody(request, clientMessage(fastifyError), fastifyError.code ?? "bad_request"), unexpected: false };
  }
  return { status: 500, body: errorBody(request, "Internal server error", "internal"), unexpected: true };
}

/** The status line's text for a status, for clients that show it. */
export const statusText = (status: number) => STATUS_CODES[status] ?? "Error";

/** One place that turns every failure into the error body; unknown errors are logged and answered 500. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const { status, body, unexpected } = describeError(error, request);
    if (unexpected) request.log.error({ err: error }, "unhandled error");
    // A refusal that comes before the body has been read (an upload over the limit, a malformed form) closes the
    // connection instead of reading the rest of the body only to throw it away.
    if (!request.raw.complete) reply.header("connection", "close");
    return reply.status(status).send(body);
  });
}

function clientMessage(error: Partial<FastifyError>): string {
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return "Request body is not valid JSON";
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return "Request body is too large";
    default:
      return error.message ?? "Bad request";
  }
}
