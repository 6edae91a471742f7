import { useEffect, type ReactNode } from "react";
import { useMe } from "../api/get-me";
import { startSession } from "../auth-session";
import { useAuthSession } from "../hooks/use-auth-session";

/**
 * When local storage says logged in, the server confirms the session (GET /api/auth/me) before
 * protected pages render. A 401 clears the login state (see useUnauthorizedHandler). A network
 * failure keeps the local state so an installed app still starts offline. `fallback` shows while it asks.
 */
export function SessionGate({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const { isLoggedIn, userId } = useAuthSession();
  const me = useMe({ enabled: isLoggedIn });
  const confirmedUserId = me.data?.user.id;

  useEffect(() => {
    if (isLoggedIn && confirmedUserId !== undefined && String(confirmedUserId) !== userId) {
      startSession(confirmedUserId);
    }
  }, [isLoggedIn, confirmedUserId, userId]);

  if (isLoggedIn && me.isPending) return fallback;
  return children;
}
