/** The login state, isLoggedIn and userId, kept in local storage so it survives reloads and other tabs see it. */
export const IS_LOGGED_IN_STORAGE_KEY = "isLoggedIn";
export const USER_ID_STORAGE_KEY = "userId";

export interface AuthSession {
  isLoggedIn: boolean;
  userId: string | null;
}

const listeners = new Set<() => void>();
let snapshot: AuthSession = readSession();

function readSession(): AuthSession {
  try {
    return {
      isLoggedIn: window.localStorage.getItem(IS_LOGGED_IN_STORAGE_KEY) === "true",
      userId: window.localStorage.getItem(USER_ID_STORAGE_KEY),
    };
  } catch {
    return { isLoggedIn: false, userId: null };
  }
}

function refresh(): void {
  const next = readSession();
  if (next.isLoggedIn === snapshot.isLoggedIn && next.userId === snapshot.userId) return;
  snapshot = next;
  for (const listener of [...listeners]) listener();
}

export function getAuthSession(): AuthSession {
  return snapshot;
}

export function subscribeAuthSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function startSession(userId: number): void {
  try {
    window.localStorage.setItem(IS_LOGGED_IN_STORAGE_KEY, "true");
    window.localStorage.setItem(USER_ID_STORAGE_KEY, String(userId));
  } catch {
    // Storage unavailable: the session lasts until reload.
    snapshot = { isLoggedIn: true, userId: String(userId) };
    for (const listener of [...listeners]) listener();
    return;
  }
  refresh();
}

export function clearSession(): void {
  try {
    window.localStorage.removeItem(IS_LOGGED_IN_STORAGE_KEY);
    window.localStorage.removeItem(USER_ID_STORAGE_KEY);
  } catch {
    snapshot = { isLoggedIn: false, userId: null };
    for (const listener of [...listeners]) listener();
    return;
  }
  refresh();
}

// A login or logout in another tab.
if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key === IS_LOGGED_IN_STORAGE_KEY || event.key === USER_ID_STORAGE_KEY) refresh();
  });
}
