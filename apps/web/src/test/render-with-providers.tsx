import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactElement } from "react";
import { Toaster } from "@/components/ui/toaster";
import { createQueryClient } from "@/lib/query-client";

/**
 * Renders `ui` as the app would (its own query client and the toasts), with a user to act through. The user
 * types without pauses, clicks without hovering first (no test here looks at hover), and may pick any file in a
 * file chooser (as a browser's "All files" lets them).
 */
export function renderWithProviders(ui: ReactElement) {
  const queryClient = createQueryClient();
  const user = userEvent.setup({ delay: null, applyAccept: false, skipHover: true });
  const result = render(
    <QueryClientProvider client={queryClient}>
      {ui}
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, user, queryClient };
}
