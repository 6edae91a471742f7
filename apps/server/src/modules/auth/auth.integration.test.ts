import { expect, it } from "vitest";
import { openPostgresDb } from "../../store/postgres/open-postgres-db.ts";
import { describeOnPostgres } from "../../test/test-databases.ts";
import { testPasswordHasher } from "../../test/test-password-hasher.ts";
import { authCases } from "./auth-test-helpers.ts";
import { createAuthRepo } from "./auth.repo.ts";
import { createAuthService } from "./auth.service.ts";

describeOnPostgres("accounts and sessions on PostgreSQL", (databases) => {
  authCases("PostgreSQL", databases.open);

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
});
