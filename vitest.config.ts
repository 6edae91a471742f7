import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      "apps/server/vitest.config.ts",
      "apps/web/vitest.config.ts",
      "packages/*/vitest.config.ts",
      { test: { name: "repo", include: ["scripts/**/*.test.ts"], environment: "node", testTimeout: 60_000 } },
    ],
  },
});
