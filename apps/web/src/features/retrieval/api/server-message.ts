import { ApiError } from "@/lib/api-client";

/** The `message` (or `error`) field of a failed call's JSON body, else the fallback. */
export function serverMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    try {
      const body = JSON.parse(error.bodyText) as { message?: unknown; error?: unknown };
      if (typeof body.message === "string" && body.message) return body.message;
      if (typeof body.error === "string" && body.error) return body.error;
    } catch {
      // Not JSON: use the fallback.
    }
    return fallback;
  }
  return error instanceof Error && error.message ? error.message : fallback;
}
