/**
 * Archives of honest, highly repetitive text (issue 36): a log of one repeated line deflates by far more than the
 * 100:1 the readers used to refuse as "a zip bomb", yet SAGE must import its own export, restore its own snapshot
 * and unpack a zip of such files. The bombs stay refused by absolute limits (hostile-archives.test.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { createFakeEmbedder } from "../providers/embedder/fake.ts";
import { createProviders } from "../providers/registry.ts";
import { backupClient } from "../test/backup-client.ts";
import { knowledgeClient } from "../test/knowledge-client.ts";
import { makeZip } from "../test/make-zip.ts";
import { knowledgeView, REPETITIVE_LOG } from "../test/repetitive-log.ts";
import { createTestApp, type TestApp } from "../test/test-app.ts";

let t: TestApp;
let kb: ReturnType<typeof knowledgeClient>;
let backup: ReturnType<typeof backupClient>;
afterEach(async () => t?.close());

async function start() {
  t = await createTestApp({ providers: (config) => ({ ...createProviders(config), embedder: createFakeEmbedder({ id: "fake:a:256" }) }) });
  const cookie = await t.login();
  kb = knowledgeClient(t, cookie);
  backup = backupClient(t, cookie);
}

const LOG = REPETITIVE_LOG;
const view = () => knowledgeView(backup);

async function seedLog() {
  expect(LOG.length).toBeGreaterThan(2_600_000);
  expect((await kb.upload({}, { filename: "display.txt", content: LOG })).statusCode).toBeLessThan(300);
  expect(
    (await backup.call("POST", "/api/files", { type: "note", content: "Quince orchard notes.", userId: 3, conversationId: 0, parentId: 0 })).statusCode,
  ).toBe(201);
  await t.jobs.idle();
}

describe("archives of highly repetitive text", () => {
  it("imports its own export of a 2.6 MB log of one repeated line, and restores the snapshot taken before it", async () => {
    await start();
    await seedLog();
    const before = await view();
    expect(before.items.find((item) => item.name === "display.txt")).toMatchObject({ status: "ready" });

    const archive = await backup.exportZip();
    // Its entries deflate far past 100:1 (the old rule), and the whole zip is a few percent of the log.
    expect(archive.length).toBeLessThan(LOG.length / 10);
    const imported = await backup.importZip(archive);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json().files_imported).toBe(2);
    await t.jobs.idle();
    expect(await view()).toEqual(before);

    // The snapshot taken before the import holds the same log: restoring it works too.
    const snapshotId = imported.json().snapshot_id as number;
    const restored = await backup.call("POST", `/api/knowledge/snapshots/${snapshotId}/restore`, {});
    expect(restored.statusCode, restored.body).toBe(200);
    await t.jobs.idle();
    expect(await view()).toEqual(before);
    const hits = (await backup.call("POST", "/api/search", { query: "heartbeat board-room display" })).json();
    expect(hits[0].metadata.filename).toBe("display.txt");
  });

  it("unpacks an uploaded zip holding the same log", async () => {
    await start();
    const zip = await makeZip([
      ["Logs/display.txt", LOG],
      ["Logs/readme.txt", "The display logs."],
    ]);
    expect(zip.length).toBeLessThan(LOG.length / 100);
    const response = await kb.upload({}, { filename: "Logs.zip", content: zip });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().archive).toMatchObject({ added: 2, duplicates: 0 });
    await t.jobs.idle();
    const log = (await backup.files()).find((item) => item.name === "display.txt")!;
    expect(log).toMatchObject({ status: "ready", path: "Logs/Logs/display.txt" });
    expect((await backup.call("GET", `/api/files/${log.id}/download`)).rawPayload.equals(LOG)).toBe(true);
  });
});
