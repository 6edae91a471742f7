/**
 * Knowledge calls pass the user id (`?userId=3`, `userId` in bodies and forms). It is the
 * logged-in user's id from local storage; the server checks it matches the session (403 otherwise).
 */
export function sessionUserId(): string {
  try {
    return window.localStorage.getItem("userId") ?? "";
  } catch {
    return "";
  }
}
