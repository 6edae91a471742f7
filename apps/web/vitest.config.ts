import { defineConfig, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config.ts";

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      name: "web",
      include: ["src/**/*.test.{ts,tsx}"],
      // Every file gets a DOM (decision 026, amended by decision 112): with one environment a worker serves every file,
      // where switching between Node and happy-dom started a new worker, and re-imported the modules, each time.
      environment: "happy-dom",
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
