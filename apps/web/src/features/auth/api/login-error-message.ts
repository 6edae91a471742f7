import { ApiError } from "@/lib/api-client";
import { errorMessage } from "@/lib/error-message";

const INVALID_CREDENTIALS_MESSAGE = "Login failed: Invalid username or password";

/**
 * The text shown under the login form for a failed login call. Wrong credentials get the fixed text;
 * the rate limit's text is already a sentence for people, so it is shown as it is.
 */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 401) return INVALID_CREDENTIALS_MESSAGE;
  const message = errorMessage(error, { fallback: String(error), orElse: "fullMessage" });
  if (error instanceof ApiError && error.status === 429) return message;
  return `Login failed: ${message}`;
}
