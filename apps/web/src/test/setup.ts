import { afterEach } from "vitest";

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
