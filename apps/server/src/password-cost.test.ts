import { makeTempDir } from "@sage/testkit/temp-dir";
import { afterEach, expect, it } from "vitest";
import { demoAppOnDefaults } from "./test/demo-app-on-defaults.ts";

// A system test: production's cost is a few tenths of a second a hash on an idle machine, many seconds on a busy one.
const temp = makeTempDir();
afterEach(() => temp.remove());

/** The app on its defaults, password cost included (no test hasher). */
async function start(env: Record<string, string> = {}) {
  const { store, login, close } = await demoAppOnDefaults(temp.dir, "a-long-password", { env });
  const storedHash = async () => (await store.db.selectFrom("users").select("passwordHash").where("id", "=", 3).executeTakeFirstOrThrow()).passwordHash;
  return { login, storedHash, close };
}

it("hashes passwords with argon2id at production's cost (64 MiB, 3 passes, 4 lanes) unless a test passes a cheaper hasher", async () => {
  const { login, storedHash, close } = await start();
  expect((await login("a-long-password")).statusCode).toBe(200);
  expect((await login("not-the-password")).statusCode).toBe(401);
  expect(await storedHash()).toMatch(/^\$argon2id\$v=19\$m=65536,t=3,p=4\$/);
  expect(await storedHash()).not.toContain("a-long-password");
  await close();
});

it("SAGE_PASSWORD_COST=minimum stores OWASP's minimum (19 MiB, 2 passes, 1 lane); stored passwords keep working when it changes", async () => {
  const light = await start({ SAGE_PASSWORD_COST: "minimum" });
  expect((await light.login("a-long-password")).statusCode).toBe(200);
  expect(await light.storedHash()).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  await light.close();

  const standard = await start();
  expect((await standard.login("a-long-password")).statusCode).toBe(200);
  expect((await standard.login("not-the-password")).statusCode).toBe(401);
  await standard.close();
});
