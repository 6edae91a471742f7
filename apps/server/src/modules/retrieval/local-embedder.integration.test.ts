import path from "node:path";
import { sql } from "kysely";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { writeTinyOnnxModel } from "@sage/testkit/tiny-onnx-model";
import { createFakeEmbedder } from "../../providers/embedder/fake.ts";
import { createProviders } from "../../providers/registry.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { knowledgeClient } from "../../test/knowledge-client.ts";
import { holdingDocuments } from "./retrieval-test-helpers.ts";
import { rowCount } from "../../test/row-count.ts";

// The real path: SAGE_EMBEDDER=local, createProviders, transformers.js and onnxruntime, over a model the test writes.
const models = makeTempDir();
const tinyModel = writeTinyOnnxModel(path.join(models.dir, "tiny-bert"));
const LOCAL_ID = `local:tiny-bert:${tinyModel.hiddenSize}`;
const LOCAL_ENV = { SAGE_EMBEDDER: "local", SAGE_LOCAL_EMBEDDING_MODEL: tinyModel.folder };
afterAll(() => models.remove());

let t: TestApp;
afterEach(async () => t.close());

const vectorRows = async () =>
  (await sql`SELECT embedder_id AS id, dimensions, count(*) AS n FROM chunk_vectors GROUP BY embedder_id, dimensions`.execute(t.store.db)).rows;

async function addKnowledge(cookie: string) {
  const kb = knowledgeClient(t, cookie);
  const upload = await kb.upload(
    {},
    { filename: "service-log.txt", content: Buffer.from("The car needs new tyres and the engine was checked."), type: "text/plain" },
  );
  expect(upload.json()).toMatchObject({ status: "success", chunks_processed: 1 });
  expect(upload.json().warning).toBeUndefined();
  const note = await kb.call("POST", "/api/process-note", { type: "note", content: "Baking bread: flour, yeast and a hot oven." });
  expect(note.json()).toMatchObject({ status: "success", chunks_processed: 1 });
  expect(note.json().warning).toBeUndefined();
  // A short note's vectors come just after the answer (issue 35): both items are vectorised before the test reads.
  await expect.poll(() => rowCount(t.store.db, "chunk_vectors")).toBe(2);
}

const search = (app: TestApp["app"], cookie: string, query: string) =>
  app.inject({ method: "POST", url: "/api/search", headers: { cookie }, payload: { query } });

describe("local ONNX embedder end to end", () => {
  it("vectorises uploads and notes with the local model and finds by meaning what BM25 misses", async () => {
    t = await createTestApp({ env: LOCAL_ENV });
    const cookie = await t.login();
    await addKnowledge(cookie);

    expect(await vectorRows()).toEqual([{ id: LOCAL_ID, dimensions: tinyModel.hiddenSize, n: 2 }]);
    const status = (await t.app.inject({ method: "GET", url: "/api/vectors/status", headers: { cookie } })).json();
    expect(status).toMatchObject({ embedder: { id: LOCAL_ID, dimensions: tinyModel.hiddenSize, lexicalOnly: false }, chunks: 2, vectorized: 2, stale: 0 });

    // "automobile" appears in no document: only the vector side can match it.
    const byMeaning = (await search(t.app, cookie, "automobile")).json();
    expect(byMeaning[0]).toMatchObject({ metadata: { filename: "service-log.txt" } });
    expect(byMeaning[0].score).toBeGreaterThan(0);
    expect(byMeaning.map((result: { content: string }) => result.content)).not.toContain("Baking bread: flour, yeast and a hot oven.");

    const byWord = (await search(t.app, cookie, "yeast oven")).json();
    expect(byWord[0].content).toBe("Baking bread: flour, yeast and a hot oven.");
  });

  it("re-vectorises with the local model after a switch from another embedder, never mixing their vectors", async () => {
    const previous = createFakeEmbedder({ id: "fake:previous:256", related: [["automobile", "car"]] });
    t = await createTestApp({ env: LOCAL_ENV, providers: (config) => ({ ...createProviders(config), embedder: previous }) });
    const cookie = await t.login();
    await addKnowledge(cookie);
    expect(await vectorRows()).toEqual([{ id: "fake:previous:256", dimensions: 256, n: 2 }]);

    const providers = createProviders(t.config);
    const holding = holdingDocuments(providers.embedder!);
    const local = await t.reopen({ providers: { ...providers, embedder: holding.embedder } });
    try {
      const status = (await local.inject({ method: "GET", url: "/api/vectors/status", headers: { cookie } })).json();
      expect(status).toMatchObject({ embedder: { id: LOCAL_ID, lexicalOnly: false }, vectorized: 0, stale: 2 });
      // Until re-vectorised, the old vectors are not compared with local query vectors: search is lexical only.
      expect((await search(local, cookie, "automobile")).json()).toEqual([]);
      holding.release();

      const revectorized = await local.inject({ method: "POST", url: "/api/vectors/revectorize", headers: { cookie }, payload: {} });
      expect(revectorized.statusCode).toBe(200);
      expect(revectorized.json()).toMatchObject({ processed: 2 });
      expect(await vectorRows()).toEqual([{ id: LOCAL_ID, dimensions: tinyModel.hiddenSize, n: 2 }]);
      expect((await search(local, cookie, "automobile")).json()[0]).toMatchObject({ metadata: { filename: "service-log.txt" } });
    } finally {
      holding.release(); // a failed look must not leave the work held past close
      await local.close();
    }
  });

  it("treats a model of another size as another embedder", async () => {
    const wider = writeTinyOnnxModel(path.join(models.dir, "wider", "tiny-bert"), { hiddenSize: 48 });
    t = await createTestApp({ env: LOCAL_ENV });
    const cookie = await t.login();
    await addKnowledge(cookie);

    const config = { ...t.config, embedder: { ...t.config.embedder, localModel: wider.folder } };
    const providers = createProviders(config);
    const holding = holdingDocuments(providers.embedder!);
    const local = await t.reopen({ config, providers: { ...providers, embedder: holding.embedder } });
    try {
      const status = (await local.inject({ method: "GET", url: "/api/vectors/status", headers: { cookie } })).json();
      expect(status).toMatchObject({ embedder: { id: "local:tiny-bert:48", dimensions: 48 }, vectorized: 0, stale: 2 });
      expect((await search(local, cookie, "automobile")).json()).toEqual([]);
    } finally {
      holding.release(); // a failed look must not leave the work held past close
      await local.close();
    }
  });
});
