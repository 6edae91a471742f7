import type { ReactNode } from "react";
import { useRoute } from "wouter";
import { COMPOSER_ID } from "@/features/chat/components/chat-input";
import { SessionGate } from "@/features/auth/components/session-gate";
import { useAuthSession } from "@/features/auth/hooks/use-auth-session";
import { PageLoading } from "./page-loading";
import { TitleBar } from "./title-bar";
import { UtilityBar } from "./utility-bar";

/** The first Tab on a conversation's page: straight to the message box, past the bars and the messages' buttons. */
function SkipToComposer() {
  const [inConversation] = useRoute("/conversations/:id");
  if (!inConversation) return null;
  return (
    <a
      href={`#${COMPOSER_ID}`}
      onClick={(event) => {
        const composer = document.getElementById(COMPOSER_ID);
        if (!composer) return;
        event.preventDefault();
        composer.focus();
      }}
      className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-background focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:ring-2 focus:ring-ring"
    >
      Skip to message box
    </a>
  );
}

export function AppShell({ children }: { children: ReactNode }) {
  const { isLoggedIn } = useAuthSession();
  return (
    <div className="flex h-dvh flex-col">
      {isLoggedIn && <SkipToComposer />}
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
