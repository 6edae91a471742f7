import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Toaster } from "@/components/ui/toaster";
import { TooltipProvider } from "@/components/ui/tooltip";
import { useUnauthorizedHandler } from "@/features/auth/hooks/use-unauthorized-handler";
import { ThemeProvider } from "@/features/theme/theme-provider";
import { queryClient } from "@/lib/query-client";

function UnauthorizedHandler() {
  useUnauthorizedHandler();
  return null;
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <TooltipProvider delayDuration={300}>
          <UnauthorizedHandler />
          {children}
          <Toaster />
        </TooltipProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
