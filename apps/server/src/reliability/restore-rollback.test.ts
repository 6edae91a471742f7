/**
 * An import that fails part-way (here: the disk fills while it writes the backup's files, after it has already
 * removed the user's knowledge) must leave the user with exactly what they had: the snapshot taken before it is put
 * back, even when that snapshot holds a file of highly repetitive text (issue 36: "files/305 has a compression
 * ratio over 100:1" left a user without their knowledge base).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { backupClient } from "../test/backup-client.ts";
import { knowledgeClient } from "../test/knowledge-client.ts";
import { knowledgeView, REPETITIVE_LOG } from "../test/repetitive-log.ts";
import { createTestApp, type TestApp } from "../test/test-app.ts";

/** How many restores to fail: each failing one writes its first file, then runs out of disk space. */
const faults = vi.hoisted(() => ({ failNext: 0 }));

vi.mock("../modules/backup/restore-backup.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../modules/backup/restore-backup.ts")>();
  return {
    ...original,
    restoreBackup: (...args: Parameters<typeof original.restoreBackup>) => {
      if (faults.failNext === 0) return original.restoreBackup(...args);
      faults.failNext -= 1;
      const [userId, archive, checked, owned, deps] = args;
      let written = 0;
      const knowledge = {
        ...deps.knowledge,
        async writeFile(key: string, source: Parameters<typeof deps.knowledge.writeFile>[1]) {
          if (++written > 1) throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
          return deps.knowledge.writeFile(key, source);
        },
      };
      return original.restoreBackup(userId, archive, checked, owned, { ...deps, knowledge });
    },
  };
});

let t: TestApp;
let kb: ReturnType<typeof knowledgeClient>;
let backup: ReturnType<typeof backupClient>;
afterEach(async () => {
  faults.failNext = 0;
  await t?.close();
});

const LOG = REPETITIVE_LOG;
const view = () => knowledgeView(backup);

/** The user's knowledge by the time they import an older export: the log and a note besides the exported files. */
async function seed() {
  t = await createTestApp();
  const cookie = await t.login();
  kb = knowledgeClient(t, cookie);
  backup = backupClient(t, cookie);
  for (const [filename, content] of [
    ["minutes.txt", Buffer.from("Board minutes: approve the budget.")],
    ["agenda.txt", Buffer.from("Agenda: the Osprey plan.")],
  ] as const) {
    expect((await kb.upload({}, { filename, content })).statusCode).toBeLessThan(300);
  }
  const archive = await backup.exportZip();
  // What the user has by the time they import: the log and a note besides the exported files.
  expect((await kb.upload({}, { filename: "display.txt", content: LOG })).statusCode).toBeLessThan(300);
  expect(
    (await backup.call("POST", "/api/files", { type: "note", content: "Quince orchard notes.", userId: 3, conversationId: 0, parentId: 0 })).statusCode,
  ).toBe(201);
  await t.jobs.idle();
  const before = await view();
  expect(before.items.map((item) => item.name).sort()).toEqual(["Quince orchard notes.", "agenda.txt", "display.txt", "minutes.txt"]);
  return { archive, before };
}

describe("an import that fails part-way", () => {
  it("puts back everything the user had, a 2.6 MB log of one repeated line included, and says so", async () => {
    const { archive, before } = await seed();
    faults.failNext = 1;
    const imported = await backup.importZip(archive);
    expect(faults.failNext).toBe(0);
    expect(imported.statusCode).toBe(500);
    expect(imported.json()).toEqual({
      code: "import_interrupted",
      error: "Import Failed: the import stopped part-way, so your knowledge base was put back as it was before it. Nothing was lost.",
    });
    await t.jobs.idle();
    expect(await view()).toEqual(before);
    const hits = (await backup.call("POST", "/api/search", { query: "heartbeat board-room display" })).json();
    expect(hits[0].metadata.filename).toBe("display.txt");
  });

  it("when putting it back fails too, says where the user's knowledge is kept, and that snapshot restores it", async () => {
    const { archive, before } = await seed();
    faults.failNext = 2;
    const imported = await backup.importZip(archive);
    expect(faults.failNext).toBe(0);
    expect(imported.statusCode).toBe(500);
    const snapshots = (await backup.call("GET", "/api/knowledge/snapshots")).json() as Array<{ id: number; reason: string; createdAt: string }>;
    expect(snapshots).toHaveLength(1);
    expect(imported.json()).toEqual({
      code: "import_interrupted",
      error: `Import Failed: the import stopped part-way, and putting back what was there stopped too. Your knowledge base as it was is kept as the snapshot of ${snapshots[0]!.createdAt} in Settings; restore it from there.`,
    });
    const restored = await backup.call("POST", `/api/knowledge/snapshots/${snapshots[0]!.id}/restore`, {});
    expect(restored.statusCode, restored.body).toBe(200);
    await t.jobs.idle();
    expect(await view()).toEqual(before);
  });
});
