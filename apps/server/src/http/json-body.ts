import type { FastifyInstance } from "fastify";
import { AppError } from "./app-error.ts";

/** Deeper than any request SAGE takes (tool parameters nest a few levels), far below what validation can recurse. */
export const MAX_JSON_DEPTH = 64;

/** What a JSON route answers a body of another type with (a form, text, bytes, or a body with no type). */
export const notJson = () => new AppError("unsupported_media_type", 415, "This request takes a JSON body (Content-Type: application/json)");

export const tooDeep = (maxDepth: number) => new AppError("body_too_deep", 400, `Request body is nested too deeply (more than ${maxDepth} levels)`);

/**
 * How deeply arrays and objects nest in JSON text, counted without parsing it (brackets inside strings are skipped);
 * stops counting past `limit`.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index++; // backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

/**
 * Fastify's JSON parser (with its prototype-poisoning checks), refusing deep nesting before it is parsed: the
 * zod schemas validate recursively, and a ~10 KB body nested 1,000 levels deep overflowed the stack there. JSON is
 * the only body type routes take besides the upload routes' forms: Fastify's text/plain parser is removed, so a
 * text body is a 415 like any other type (the error handler words it).
 */
export function registerJsonBodyParser(app: FastifyInstance, maxDepth = MAX_JSON_DEPTH) {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("text/plain");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body as string;
    // Each level needs at least one bracket, so short bodies cannot be too deep.
    if (text.length > maxDepth && jsonDepthExceeds(text, maxDepth)) return done(tooDeep(maxDepth), undefined);
    parseJson(request, text, done);
  });
}
