import { expect, it } from "vitest";
import { openPostgresDb } from "../../store/postgres/open-postgres-db.ts";
import { describeOnPostgres } from "../../test/test-databases.ts";
import { testPasswordHasher } from "../../test/test-password-hasher.ts";
import { authCases } from "./auth-test-helpers.ts";
import { createAuthRepo } from "./auth.repo.ts";
import { createAuthService } from "./auth.service.ts";
import { createLoginRateLimiter } from "./login-rate-limiter.ts";
import { loginRateLimiterCases } from "./login-rate-limiter-test-helpers.ts";

describeOnPostgres("accounts and sessions on PostgreSQL", (databases) => {
  authCases("PostgreSQL", databases.open);
  loginRateLimiterCases("PostgreSQL", databases.open);

  it("a session made on one process is valid on another, and a logout on either ends it on both at once", async () => {
    const database = await databases.open();
    const other = await openPostgresDb({ url: database.url! });
    try {
      const processA = createAuthService({ repo: createAuthRepo(database.db), hasher: testPasswordHasher, sessionDays: 30, shared: true });
      const processB = createAuthService({ repo: createAuthRepo(other.db), hasher: testPasswordHasher, sessionDays: 30, shared: true });
      await processA.createUser("carla", "a long passphrase");
      const session = await processA.login("carla", "a long passphrase");
      expect(await processB.authenticate(session.token)).toMatchObject({ username: "carla" });
      expect(await processA.authenticate(session.token)).toMatchObject({ username: "carla" });
      await processB.logout(session.token);
      expect(await processA.authenticate(session.token)).toBeNull();
      expect(await processB.authenticate(session.token)).toBeNull();
    } finally {
      await other.close();
      await database.close();
    }
  });

  it("a client over the login limit on one process is over it on another (each its own pool)", async () => {
    const database = await databases.open();
    const other = await openPostgresDb({ url: database.url! });
    try {
      const processA = createLoginRateLimiter({ db: database.db, limit: 3, windowMs: 60_000 });
      const processB = createLoginRateLimiter({ db: other.db, limit: 3, windowMs: 60_000 });
      const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => (index % 2 ? processB : processA).tryAttempt("203.0.113.9")));
      expect(answers.filter((answer) => answer.allowed)).toHaveLength(3);
      expect((await processA.tryAttempt("203.0.113.9")).allowed).toBe(false);
      expect((await processB.tryAttempt("203.0.113.9")).allowed).toBe(false);
    } finally {
      await other.close();
      await database.close();
    }
  });
});
