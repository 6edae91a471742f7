import { afterEach, describe, expect, it } from "vitest";
import type { OpenTestDatabase } from "../../test/test-databases.ts";
import { createLoginRateLimiter } from "./login-rate-limiter.ts";

/** The login rate limit, the same on each engine: login-rate-limiter.test.ts (SQLite), auth.integration.test.ts. */
export function loginRateLimiterCases(engine: string, open: OpenTestDatabase) {
  describe(`login rate limiter (${engine})`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });
    async function database() {
      const opened = await open();
      cleanups.push(() => opened.close());
      return opened.db;
    }

    it("says how many seconds are left of the window once a client is over the limit", async () => {
      let clock = 1_000_000;
      const limiter = createLoginRateLimiter({ db: await database(), limit: 2, windowMs: 60_000, now: () => clock });
      expect(await limiter.tryAttempt("a")).toEqual({ allowed: true, retryAfterSeconds: 0 });
      clock += 10_000;
      expect(await limiter.tryAttempt("a")).toEqual({ allowed: true, retryAfterSeconds: 0 });
      clock += 5_500;
      expect(await limiter.tryAttempt("a")).toEqual({ allowed: false, retryAfterSeconds: 45 });
      clock += 44_000;
      expect(await limiter.tryAttempt("a")).toEqual({ allowed: false, retryAfterSeconds: 1 });
      expect(await limiter.tryAttempt("b")).toEqual({ allowed: true, retryAfterSeconds: 0 });
      clock += 500;
      expect(await limiter.tryAttempt("a")).toEqual({ allowed: true, retryAfterSeconds: 0 });
    });

    it("counts a client's attempts through every process on the database: the limit holds for all of them together", async () => {
      const db = await database();
      const processes = [0, 1, 2].map(() => createLoginRateLimiter({ db, limit: 5, windowMs: 60_000 }));
      const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => processes[index % 3]!.tryAttempt("203.0.113.9")));
      expect(answers.filter((answer) => answer.allowed)).toHaveLength(5);
      expect(answers.filter((answer) => !answer.allowed).every((answer) => answer.retryAfterSeconds >= 59)).toBe(true);
      expect((await processes[1]!.tryAttempt("198.51.100.4")).allowed).toBe(true);
    });
  });
}
