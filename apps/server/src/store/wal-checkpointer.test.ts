import { statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { openStore, type Store } from "./open-store.ts";

const temps: { remove(): void }[] = [];
afterEach(() => temps.splice(0).forEach((temp) => temp.remove()));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function writeMegabytes(store: Store, megabytes: number, prefix = "user") {
  const insert = store.sqlite.prepare("INSERT INTO users (username, password_hash, created_at) VALUES (?, ?, 'now')");
  for (let index = 0; index < megabytes * 16; index++) {
    store.sqlite.transaction(() => {
      for (let row = 0; row < 16; row++) insert.run(`${prefix}-${index}-${row}`, "x".repeat(4000));
    })();
  }
}

describe("background WAL checkpoints", () => {
  it("moves committed writes into the database file without the writer checkpointing, and survives a reopen", async () => {
    const temp = makeTempDir();
    temps.push(temp);
    const store = openStore({ dataDir: temp.dir, backgroundCheckpoints: true });
    const file = path.join(temp.dir, "sage.db");
    const before = statSync(file).size;
    // 3 MB stays under the writer's own fallback threshold (40 MB), so only the worker can copy it over.
    writeMegabytes(store, 3);
    for (let waited = 0; statSync(file).size < before + 3_000_000 && waited < 10_000; waited += 50) await sleep(50);
    expect(statSync(file).size).toBeGreaterThan(before + 3_000_000);
    await store.close();

    const reopened = openStore({ dataDir: temp.dir });
    expect((reopened.sqlite.prepare("SELECT count(*) AS n FROM users").get() as { n: number }).n).toBe(3 * 16 * 16);
    expect(reopened.sqlite.pragma("integrity_check", { simple: true })).toBe("ok");
    await reopened.close();
  });

  it("leaves the database file alone when the store is opened without them, until the writer checkpoints at 4 MB", async () => {
    const temp = makeTempDir();
    temps.push(temp);
    const store = openStore({ dataDir: temp.dir });
    const file = path.join(temp.dir, "sage.db");
    const before = statSync(file).size;
    // Beside it, a store with background checkpoints gets the same write: once its file has grown, a checkpointer
    // has had its time, and the store without one must not have moved (instead of a fixed pause).
    const controlTemp = makeTempDir();
    temps.push(controlTemp);
    const control = openStore({ dataDir: controlTemp.dir, backgroundCheckpoints: true });
    const controlFile = path.join(controlTemp.dir, "sage.db");
    const controlBefore = statSync(controlFile).size;
    writeMegabytes(store, 1);
    writeMegabytes(control, 1);
    expect(statSync(file).size).toBe(before);
    while (statSync(controlFile).size < controlBefore + 1_000_000) await sleep(50);
    expect(statSync(file).size).toBe(before);
    await control.close();
    // The writer's own checkpoint (every 1,000 pages, 4 MB) runs inside the commit that crosses it.
    writeMegabytes(store, 4, "more");
    expect(statSync(file).size).toBeGreaterThan(before + 3_000_000);
    await store.close();
  });
});
