import { okResponseSchema } from "@sage/contracts/auth";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { toast } from "@/components/ui/use-toast";
import { apiRequest } from "@/lib/api-client";
import { clearSession } from "../auth-session";

export async function logout(): Promise<void> {
  await apiRequest("/api/auth/logout", { method: "POST", schema: okResponseSchema, notifyUnauthorized: false });
}

/** Logs out on the server, then always clears the local state, the cache, and goes to /login. */
export function useLogout() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: logout,
    onSettled: (_data, error) => {
      if (error) console.warn("Logout call failed; clearing the local session anyway.", error);
      clearSession();
      queryClient.clear();
      toast({ title: "Logged out", description: "You have been logged out successfully" });
      navigate("/login", { replace: true });
    },
  });
}
