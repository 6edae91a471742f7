import { defineConfig, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config.ts";

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: { name: "web", include: ["src/**/*.test.{ts,tsx}"], environment: "node", passWithNoTests: true },
  }),
);
