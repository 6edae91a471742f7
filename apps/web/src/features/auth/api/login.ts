import { sessionUserResponseSchema, type LoginRequest, type SessionUserResponse } from "@sage/contracts/auth";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { apiRequest } from "@/lib/api-client";
import { startSession } from "../auth-session";
import { meQueryOptions } from "./get-me";

export function login(credentials: LoginRequest): Promise<SessionUserResponse> {
  return apiRequest("/api/auth/login", {
    method: "POST",
    body: credentials,
    schema: sessionUserResponseSchema,
    // A 401 here means wrong credentials, not a lost session.
    notifyUnauthorized: false,
  });
}

export function useLogin() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: login,
    onSuccess: (session) => {
      const { user } = session;
      // The login reply already confirms the session: no need to ask /api/auth/me again.
      queryClient.setQueryData(meQueryOptions.queryKey, session);
      startSession(user.id);
      navigate("/conversations", { replace: true });
    },
  });
}
