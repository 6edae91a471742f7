import { makeTempDir } from "@sage/testkit/temp-dir";
import { afterEach, expect, it } from "vitest";
import { createApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { createProviders } from "./providers/registry.ts";
import { openStore } from "./store/open-store.ts";
import { demoAppOnDefaults } from "./test/demo-app-on-defaults.ts";
import { testPasswordHasher } from "./test/test-password-hasher.ts";

const temp = makeTempDir();
afterEach(() => temp.remove());

/** The app on its defaults, but for a test's password cost. */
const start = (password: string) => demoAppOnDefaults(temp.dir, password, { deps: { passwordHasher: testPasswordHasher } });

it("a login right after start-up waits for the demo account to follow a changed password", async () => {
  const first = await start("first-password");
  expect((await first.login("first-password")).statusCode).toBe(200);
  await first.close();

  const second = await start("second-password");
  const [changed, old] = await Promise.all([second.login("second-password"), second.login("first-password")]);
  expect(changed.statusCode).toBe(200);
  expect(old.statusCode).toBe(401);
  await second.close();
});

it("a restarted server listens before it resumes its jobs, so a long job never keeps it from answering (issue 52)", async () => {
  const config = loadConfig({ SAGE_DATA_DIR: temp.dir, SAGE_WEB_DIR: `${temp.dir}/no-web`, SAGE_LOG_LEVEL: "silent" });
  const store = openStore({ dataDir: config.dataDir });
  const built = await createApp({
    config,
    store,
    providers: createProviders(config),
    logger: false,
    passwordHasher: testPasswordHasher,
    startJobsOn: "listen",
  });
  await built.accountsReady;
  // A job the last process was running when it stopped: this start resumes it.
  const stamp = new Date().toISOString();
  await store.db
    .insertInto("jobs")
    .values({ kind: "test.long-read", userId: 3, itemId: null, payload: "{}", status: "processing", attempts: 1, createdAt: stamp, updatedAt: stamp })
    .execute();
  const listeningWhenRun: boolean[] = [];
  built.jobs.register("test.long-read", async () => void listeningWhenRun.push(built.app.server.listening), { onInterrupted: "resume" });
  await built.app.listen({ port: 0, host: "127.0.0.1" });
  const [job] = await store.db.selectFrom("jobs").select("id").where("kind", "=", "test.long-read").execute();
  expect((await built.jobs.waitFor(job!.id)).status).toBe("done");
  expect(listeningWhenRun).toEqual([true]);
  await built.app.close();
  await store.close();
});
