import { ApiError } from "../../../lib/api-client";

export const INVALID_CREDENTIALS_MESSAGE = "Login failed: Invalid username or password";

/** The text shown under the login form for a failed login call. */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return INVALID_CREDENTIALS_MESSAGE;
    const serverMessage = error.serverMessage;
    if (error.status === 429) return serverMessage ?? error.message;
    return `Login failed: ${serverMessage ?? error.message}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `Login failed: ${message}`;
}
