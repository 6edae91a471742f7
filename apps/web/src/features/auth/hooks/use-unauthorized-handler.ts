import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { onUnauthorized } from "@/lib/api-client";
import { clearSession, getAuthSession } from "../auth-session";

/**
 * A 401 from any API call means the server no longer knows this session: clear the login
 * state and the cache. The router then sends the user to /login.
 */
export function useUnauthorizedHandler(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onUnauthorized(() => {
        if (!getAuthSession().isLoggedIn) return;
        clearSession();
        queueMicrotask(() => queryClient.clear());
      }),
    [queryClient],
  );
}
