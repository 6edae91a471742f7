import type { FastifyError, FastifyInstance } from "fastify";
import { AppError } from "./app-error.ts";

/** One place that turns every failure into `{ error, code }`; unknown errors are logged and answered 500. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send({ error: error.message, code: error.code });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ error: clientMessage(error), code: error.code ?? "bad_request" });
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.status(500).send({ error: "Internal server error", code: "internal" });
  });
}

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return "Request body is not valid JSON";
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return "Request body is too large";
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return "Unsupported content type";
    default:
      return error.message;
  }
}
