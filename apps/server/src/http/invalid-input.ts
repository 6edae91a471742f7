import type { FastifyRequest } from "fastify";
import { ZodError, type z } from "zod";
import { AppError } from "./app-error.ts";

/** Which part of a request failed its route's schema, named as the error texts name it. */
export type InputPart = "path" | "query" | "body" | "headers";

/** Turns a failed part into the error the client gets (always the one `{ error, code }` shape). */
export type InvalidInputAnswer = (issues: readonly z.core.$ZodIssue[], part: InputPart) => AppError;

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * How the route answers input that fails its schema, per part; a part left out answers
     * `400 Invalid <part>: <field>: <message>` (validation_error).
     */
    invalidInput?: Partial<Record<InputPart, InvalidInputAnswer>>;
  }
}

/** The default: names the part and the first bad field, as `parseInput` always did. */
export const invalidField =
  (where?: string): InvalidInputAnswer =>
  (issues, part) => {
    const issue = issues[0];
    const field = issue?.path.length ? issue.path.join(".") : (where ?? part);
    return new AppError("validation_error", 400, `Invalid ${where ?? part}: ${field}: ${issue?.message ?? "invalid value"}`);
  };

/** The first issue's message alone: for contracts whose messages are whole sentences the UI shows as they are. */
export const firstMessage =
  (fallback: string): InvalidInputAnswer =>
  (issues) =>
    new AppError("validation_error", 400, issues[0]?.message ?? fallback);

/** One answer for any failure: a malformed id names nothing (a 404), or a form whose every failure is one sentence. */
export const always =
  (error: () => AppError): InvalidInputAnswer =>
  () =>
    error();

const PARTS: Record<string, InputPart> = { params: "path", querystring: "query", body: "body", headers: "headers" };

/** A schema failure Fastify raised before the handler ran, as the route's answer for it; anything else is left alone. */
export function answerInvalidInput(error: unknown, request: FastifyRequest | undefined): AppError | undefined {
  const context = (error as { validationContext?: string }).validationContext;
  if (!(error instanceof ZodError) || context === undefined) return undefined;
  const part = PARTS[context] ?? "body";
  const answer = request?.routeOptions.config.invalidInput?.[part] ?? invalidField();
  return answer(error.issues, part);
}
