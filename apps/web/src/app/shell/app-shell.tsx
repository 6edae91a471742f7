import type { ReactNode } from "react";
import { SessionGate } from "@/features/auth/components/session-gate";
import { useAuthSession } from "@/features/auth/hooks/use-auth-session";
import { PageLoading } from "./page-loading";
import { TitleBar } from "./title-bar";
import { UtilityBar } from "./utility-bar";

export function AppShell({ children }: { children: ReactNode }) {
  const { isLoggedIn } = useAuthSession();
  return (
    <div className="flex h-dvh flex-col">
      <TitleBar />
      <SessionGate fallback={<PageLoading />}>
        {isLoggedIn && <UtilityBar />}
        <main id="main" className="min-h-0 flex-1 overflow-auto">
          {children}
        </main>
      </SessionGate>
    </div>
  );
}
