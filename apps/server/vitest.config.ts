import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "server",
    include: ["src/**/*.test.ts"],
    environment: "node",
    // A hang detector, not a speed check: a loaded two-core machine runs a 2 s test in 30 s (speed lives in
    // `npm run bench`). Waits for a condition poll until it holds, up to a minute.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    expect: { poll: { timeout: 60_000 } },
  },
});
