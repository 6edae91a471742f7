import { useSyncExternalStore } from "react";
import { getAuthSession, subscribeAuthSession, type AuthSession } from "../auth-session";

export function useAuthSession(): AuthSession {
  return useSyncExternalStore(subscribeAuthSession, getAuthSession, getAuthSession);
}
