import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { createFakeEmbedder } from "../../providers/embedder/fake.ts";
import type { Embedder } from "../../providers/embedder/embedder.ts";
import { createProviders } from "../../providers/registry.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { holdingDocuments, seedKnowledge } from "./retrieval-test-helpers.ts";
import { CATCH_UP_JOB } from "./vector-lifecycle.service.ts";

let t: TestApp;
afterEach(async () => t.close());
const DEMO_USER = 3;

/** A fake embedder whose document batches wait until released, so a test can look while the job runs. */
function gatedEmbedder() {
  const fake = createFakeEmbedder({ id: "fake:new:256" });
  return { ...holdingDocuments(fake), calls: fake.calls };
}

type App = Pick<TestApp, "app" | "jobs">;
const status = async (on: App, cookie: string) => (await on.app.inject({ method: "GET", url: "/api/vectors/status", headers: { cookie } })).json();
const search = async (on: App, cookie: string, query: string) =>
  (await on.app.inject({ method: "POST", url: "/api/search", headers: { cookie }, payload: { query, limit: 5 } })).json();

/** SAGE restarted with `embedder` over what the test stored while it ran without one (chunks, no vectors). */
async function restartWith(embedder: Embedder): Promise<App> {
  const restarted = await t.reopenApp({ providers: { ...createProviders(t.config), embedder } });
  reopened.push(restarted);
  return restarted;
}
const reopened: App[] = [];
const releaseAfter: Array<() => void> = [];
afterEach(async () => {
  for (const release of releaseAfter.splice(0)) release();
  for (const app of reopened.splice(0)) await app.app.close();
});

describe("background vectorization when an embedder appears", () => {
  it("vectorizes chunks stored without vectors on its own, shows progress, and keeps search lexical meanwhile", async () => {
    const gated = gatedEmbedder();
    // Knowledge added while SAGE ran without an embedder: chunks, no vectors.
    t = await createTestApp();
    for (let index = 0; index < 3; index++)
      await seedKnowledge(t, {
        userId: DEMO_USER,
        name: `memo-${index}.txt`,
        chunks: [`Memo ${index} about the Osprey budget.`, `Appendix ${index} on fleet costs.`],
      });
    const cookie = await t.login();

    const app = await restartWith(gated.embedder); // the app becomes ready: the embedder is new, so the job starts by itself
    releaseAfter.push(gated.release); // a failure below must not leave the job, and the app's close, waiting at the gate
    // The job shows as processing once claimed, and its total once it has counted (on PostgreSQL a moment later).
    await expect.poll(async () => (await status(app, cookie)).catchUp).toMatchObject({ status: "processing", total: 6 });
    const during = await status(app, cookie);
    expect(during).toMatchObject({ chunks: 6, vectorized: 0, catchUp: { status: "processing", total: 6 } });
    const hits = await search(app, cookie, "Osprey budget");
    expect(hits.length).toBe(3);
    expect(gated.calls.filter((call) => call.kind === "query")).toEqual([]);

    gated.release();
    await app.jobs.idle();
    expect(await status(app, cookie)).toMatchObject({ chunks: 6, vectorized: 6, catchUp: { status: "done", processed: 6, total: 6 } });
    await search(app, cookie, "Osprey budget");
    expect(gated.calls.filter((call) => call.kind === "query").length).toBe(1);
  });

  it("starts nothing when every chunk already has a vector from the current embedder", async () => {
    const embedder = createFakeEmbedder({ id: "fake:same:256" });
    t = await createTestApp({ providers: (config) => ({ ...createProviders(config), embedder }) });
    const cookie = await t.login();
    const upload = await t.app.inject({
      method: "POST",
      url: "/api/process-note",
      headers: { cookie },
      payload: { content: "Osprey budget note", description: "n" },
    });
    expect(upload.statusCode).toBe(200);
    // A short note's vectors come just after the answer (issue 35).
    await expect.poll(async () => (await t.app.inject({ method: "GET", url: "/api/vectors/status", headers: { cookie } })).json().vectorized).toBe(1);
    const reopened = await t.reopen();
    try {
      const after = (await reopened.inject({ method: "GET", url: "/api/vectors/status", headers: { cookie } })).json();
      expect(after).toMatchObject({ vectorized: 1, catchUp: null });
      expect(
        await t.store.db
          .selectFrom("jobs")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("kind", "=", CATCH_UP_JOB)
          .executeTakeFirst(),
      ).toEqual({
        n: 0,
      });
    } finally {
      await reopened.close();
    }
  });

  it("replaces an earlier embedder's vectors: vectorizes every chunk for the new one, then drops the old ones", async () => {
    const old = createFakeEmbedder({ id: "fake:old:256" });
    t = await createTestApp({ providers: (config) => ({ ...createProviders(config), embedder: old }) });
    const cookie = await t.login();
    await t.app.inject({ method: "POST", url: "/api/process-note", headers: { cookie }, payload: { content: "Kestrel fleet note", description: "n" } });
    const vectorsOf = async (id: string) =>
      (await sql<{ n: number }>`SELECT count(*) AS n FROM chunk_vectors WHERE embedder_id = ${id}`.execute(t.store.db)).rows[0]!.n;
    await expect.poll(() => vectorsOf("fake:old:256")).toBe(1);

    const reopened = await t.reopen({ providers: { ...createProviders(t.config), embedder: createFakeEmbedder({ id: "fake:new:256" }) } });
    try {
      await expect.poll(() => vectorsOf("fake:new:256")).toBe(1);
      await expect.poll(() => vectorsOf("fake:old:256")).toBe(0);
    } finally {
      await reopened.close();
    }
  });

  it("gives way to a re-vectorize of the same user, so no chunk is embedded twice over", async () => {
    const gated = gatedEmbedder();
    t = await createTestApp();
    await seedKnowledge(t, {
      userId: DEMO_USER,
      name: "fleet.txt",
      chunks: Array.from({ length: 20 }, (_, index) => `Fleet note ${index} on the Osprey.`),
    });
    const cookie = await t.login();
    const app = await restartWith({ ...gated.embedder, maxBatch: 2 });
    releaseAfter.push(gated.release);
    await expect.poll(async () => (await status(app, cookie)).catchUp?.status).toBe("processing");

    const revectorizing = app.app.inject({ method: "POST", url: "/api/vectors/revectorize", headers: { cookie }, payload: {} });
    await expect.poll(async () => (await status(app, cookie)).job?.status).toMatch(/queued|processing/);
    gated.release();
    expect((await revectorizing).statusCode).toBe(200);
    await app.jobs.idle();

    expect(await status(app, cookie)).toMatchObject({ chunks: 20, vectorized: 20, job: { status: "done", processed: 20 }, catchUp: { status: "done" } });
    const embedded = gated.calls.filter((call) => call.kind === "document").reduce((sum, call) => sum + call.texts.length, 0);
    // The re-vectorize's 20, and at most the two batches the catch-up had asked for before it saw the job.
    expect(embedded).toBeLessThanOrEqual(24);
  });
});
