import { afterEach } from "vitest";
import { scalePolls } from "@/lib/poll-every";

// A screen that asks the server again every 2 s asks every 100 ms here: tests wait for what they expect, never sleep.
scalePolls(0.05);

if (typeof document !== "undefined") {
  const { configure } = await import("@testing-library/react");
  // findBy and waitFor wait up to 1 s by default; a shared two-core machine under load can take longer to render.
  configure({ asyncUtilTimeout: 60_000 });
}

// Component tests run in a DOM: unmount what a test rendered and clear its toasts, so the next test starts clean.
afterEach(async () => {
  if (typeof document === "undefined") return;
  const [{ cleanup }, { removeAllToasts }] = await Promise.all([import("@testing-library/react"), import("@/components/ui/use-toast")]);
  cleanup();
  removeAllToasts();
});
