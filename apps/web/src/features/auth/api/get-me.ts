import { sessionUserResponseSchema, type SessionUserResponse } from "@sage/contracts/auth";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { getJson } from "@/lib/api-client";

/** The session's user, or null when the server answers 401. */
export function getMe(): Promise<SessionUserResponse | null> {
  return getJson("/api/auth/me", sessionUserResponseSchema);
}

export const meQueryOptions = queryOptions({ queryKey: ["auth", "me"], queryFn: getMe });

export function useMe(options: { enabled?: boolean } = {}) {
  return useQuery({ ...meQueryOptions, enabled: options.enabled ?? true });
}
