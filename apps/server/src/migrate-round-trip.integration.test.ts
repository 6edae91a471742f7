import { rmSync } from "node:fs";
import { POSTGRES_MISSING, postgresInstalled, startPostgres, type PostgresServer } from "@sage/testkit/postgres-server";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePdf } from "./documents/test/test-documents.ts";
import { createFakeEmbedder } from "./providers/embedder/fake.ts";
import { createProviders } from "./providers/registry.ts";
import { copySqliteToPostgres } from "./store/postgres/copy-to-postgres.ts";
import { knowledgeClient } from "./test/knowledge-client.ts";
import { createPostgresTestApp, createTestApp, type TestApp } from "./test/test-app.ts";

const installed = postgresInstalled();
if (!installed) console.warn(POSTGRES_MISSING);

const embedder = () => createFakeEmbedder({ id: "fake:a:256", related: [["automobile", "vehicle"]] });
const QUERIES = ["harbour lease", "vehicle fleet", "automobile", "museum gala seating", "quarterly revenue"];

/** What a user sees of an installation: the files listed, every file's bytes, and each query's results in order. */
async function whatTheUserSees(t: TestApp) {
  const kb = knowledgeClient(t, await t.login());
  const files = ((await kb.call("GET", "/api/files")).json() as Array<{ id: number; name: string; status: string; type: string; chunkCount: number }>)
    .map(({ id, name, status, type, chunkCount }) => ({ id, name, status, type, chunkCount }))
    .sort((a, b) => a.id - b.id);
  const downloads: Record<string, string> = {};
  for (const file of files.filter((item) => item.type === "file")) {
    const response = await kb.call("GET", `/api/files/${file.id}/download`);
    expect(response.statusCode).toBe(200);
    downloads[file.name] = response.rawPayload.toString("base64");
  }
  const searches: Record<string, string[]> = {};
  for (const query of QUERIES) {
    const results = (await kb.call("POST", "/api/search", { query })).json() as Array<{ content: string; metadata: { filename: string } }>;
    searches[query] = results.map((result) => `${result.metadata.filename}: ${result.content}`);
  }
  return { files, downloads, searches };
}

/** Issue 34: `sage migrate` moves an installation from SQLite to PostgreSQL, and the user finds it as they left it. */
describe.skipIf(!installed)("an installation copied from SQLite to PostgreSQL", () => {
  let postgres: PostgresServer;
  const filesDir = makeTempDir();
  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(async () => {
    await postgres?.stop();
    filesDir.remove();
  });

  it("downloads every file byte for byte and answers every search with the same results in the same order", async () => {
    const sqlite = await createTestApp({ providers: (config) => ({ ...createProviders(config), embedder: embedder() }) });
    const dataDir = sqlite.config.dataDir;
    try {
      const kb = knowledgeClient(sqlite, await sqlite.login());
      const folder = await kb.folder("Board");
      for (const [fields, file] of [
        [{}, { filename: "lease.txt", content: Buffer.from("Quarterly review: the harbour lease renews in March.\n\nVehicle fleet costs fell by a tenth.\n") }],
        [{ parentId: folder.id }, { filename: "revenue.pdf", content: await makePdf([["Quarterly revenue grew twelve percent."], ["Margins held."]]) }],
        [{}, { filename: "café résumé.md", content: Buffer.from("# Offsite\n\nCafé budget: croissants for the museum gala team.\n") }],
      ] as const)
        expect((await kb.upload(fields, file)).statusCode).toBe(200);
      expect((await kb.call("POST", "/api/process-note", { type: "note", content: "Call Anna about the museum gala seating." })).statusCode).toBe(200);
      await sqlite.jobs.idle();
      const before = await whatTheUserSees(sqlite);
      expect(before.files.filter((file) => file.status === "ready").length).toBeGreaterThanOrEqual(3);
      expect(Object.keys(before.downloads)).toHaveLength(3);
      expect(Object.values(before.searches).every((results) => results.length > 0)).toBe(true);
      // "automobile" is in no document: found by meaning, so the copied vectors are searched too.
      expect(before.searches.automobile![0]).toMatch(/^lease\.txt: /);
      await sqlite.app.close();
      await sqlite.store.close();

      const url = await postgres.createDatabase();
      const report = await copySqliteToPostgres({ dataDir, url, filesDir: filesDir.dir });
      expect(report.files.count).toBe(3);

      const moved = await createPostgresTestApp(url, {
        env: { SAGE_FILES_DIR: filesDir.dir },
        providers: (config) => ({ ...createProviders(config), embedder: embedder() }),
      });
      try {
        const after = await whatTheUserSees(moved as unknown as TestApp);
        expect(after.files).toEqual(before.files);
        expect(after.downloads).toEqual(before.downloads);
        expect(after.searches).toEqual(before.searches);
      } finally {
        await moved.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
