import { afterEach } from "vitest";

// Component tests run in a DOM: unmount what a test rendered and clear its toasts, so the next test starts clean.
afterEach(async () => {
  if (typeof document === "undefined") return;
  const [{ cleanup }, { removeAllToasts }] = await Promise.all([import("@testing-library/react"), import("@/components/ui/use-toast")]);
  cleanup();
  removeAllToasts();
});
