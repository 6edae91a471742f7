import { ApiError } from "./api-client";

export interface ErrorMessageOptions {
  /** Shown when nothing better is known. */
  fallback: string;
  /** Fields of a JSON error body tried in order (default `["error"]`); an empty field counts as absent. */
  fields?: readonly ("error" | "message")[];
  /**
   * What an API error whose body has none of `fields` shows: the fallback (default), the reply's
   * status text (else the fallback), its raw body text, or its full `{status}: {body}` message.
   */
  orElse?: "fallback" | "statusText" | "bodyText" | "fullMessage";
  /** What any other error (a failed network call, a thrown Error) shows: its message (default) or the fallback. */
  otherErrors?: "message" | "fallback";
}

/** The text to show for a failed call; each caller states which parts of the failure it shows. */
export function errorMessage(error: unknown, options: ErrorMessageOptions): string {
  const { fallback, fields = ["error"], orElse = "fallback", otherErrors = "message" } = options;
  if (error instanceof ApiError) {
    const body = error.body;
    for (const field of fields) {
      const value = body[field];
      if (value) return value;
    }
    if (orElse === "statusText") return error.statusText || fallback;
    if (orElse === "bodyText") return error.bodyText;
    if (orElse === "fullMessage") return error.message;
    return fallback;
  }
  if (otherErrors === "message" && error instanceof Error && error.message) return error.message;
  return fallback;
}
