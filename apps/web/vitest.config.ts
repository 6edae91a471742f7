import { defineConfig, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config.ts";

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      name: "web",
      include: ["src/**/*.test.{ts,tsx}"],
      // Pure tests run in Node; a component test asks for a DOM with `// @vitest-environment happy-dom` (decision 026).
      environment: "node",
      setupFiles: ["src/test/setup.ts"],
      // A hang detector, not a speed check: a component test takes well under a second alone and many times that
      // on a shared two-core machine under load.
      testTimeout: 600_000,
      hookTimeout: 600_000,
      expect: { poll: { timeout: 60_000 } },
      passWithNoTests: true,
      // Files share a worker's module cache (23 s to 9 s); fetch stubs and env are restored after each test.
      isolate: false,
      unstubGlobals: true,
      unstubEnvs: true,
    },
  }),
);
