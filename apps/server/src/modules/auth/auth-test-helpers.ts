import { afterEach, describe, expect, it } from "vitest";
import type { OpenTestDatabase } from "../../test/test-databases.ts";
import { testPasswordHasher } from "../../test/test-password-hasher.ts";
import { createAuthRepo } from "./auth.repo.ts";
import { createAuthService, DEMO_USER_ID } from "./auth.service.ts";

const DAY_MS = 86_400_000;

/** Accounts and sessions, the same on each engine: auth.service.test.ts (SQLite), auth.integration.test.ts. */
export function authCases(engine: string, open: OpenTestDatabase) {
  describe(`accounts and sessions (${engine})`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    async function service(now = () => Date.now()) {
      const database = await open();
      cleanups.push(() => database.close());
      return createAuthService({ repo: createAuthRepo(database.db), hasher: testPasswordHasher, sessionDays: 30, now });
    }

    it("signs in the demonstration account and a new user, whatever the case of the username typed", async () => {
      const auth = await service();
      await auth.ensureDemoUser("demo", "sage-demo");
      const demo = await auth.login("demo", "sage-demo");
      expect(demo.user).toEqual({ id: DEMO_USER_ID, username: "demo" });
      const anna = await auth.createUser("Anna", "a long passphrase");
      expect(anna.id).toBeGreaterThan(DEMO_USER_ID);
      const session = await auth.login("ANNA", "a long passphrase");
      expect(await auth.authenticate(session.token)).toEqual({ id: anna.id, username: "Anna" });
      await expect(auth.createUser("anna", "another passphrase")).rejects.toMatchObject({ status: 409, message: "That username is taken" });
      await expect(auth.login("anna", "wrong")).rejects.toMatchObject({ status: 401, code: "invalid_credentials" });
    });

    it("ends a session at logout and at its expiry, and prunes the expired ones", async () => {
      let clock = Date.parse("2026-11-28T09:00:00Z");
      const auth = await service(() => clock);
      await auth.createUser("berit", "a long passphrase");
      const first = await auth.login("berit", "a long passphrase");
      const second = await auth.login("berit", "a long passphrase");
      await auth.logout(first.token);
      expect(await auth.authenticate(first.token)).toBeNull();
      expect(await auth.authenticate(second.token)).toMatchObject({ username: "berit" });
      clock += 31 * DAY_MS;
      expect(await auth.authenticate(second.token)).toBeNull();
      const pruned = await auth.pruneExpiredSessions();
      expect(Number(pruned[0]?.numDeletedRows)).toBe(1);
    });
  });
}
