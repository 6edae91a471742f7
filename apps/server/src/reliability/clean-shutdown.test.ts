import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { descendants } from "./process-tree.ts";
import { startServerProcess } from "./server-process.ts";

/**
 * A server asked to stop (SIGTERM) goes through its whole shutdown. An idle document reader is unref'd, so the
 * server used to end while it waited for that reader's exit, before the rest of its shutdown ran: the reader's temp
 * folder stayed behind, one per stop.
 */
const temp = makeTempDir();
afterAll(() => temp.remove());

it("a stopped server closes its store and leaves no document reader's temp folder behind", async () => {
  const server = await startServerProcess(temp.dir, { SAGE_PASSWORD_COST: "minimum" });
  let stopped = false;
  try {
    const cookie = await server.login();
    const form = new FormData();
    form.append("file", new Blob(["Herons wade in the shallows at dawn."]), "herons.txt");
    expect((await fetch(`${server.url}/api/upload`, { method: "POST", headers: { cookie }, body: form })).status).toBeLessThan(300);
    for (;;) {
      const items = (await (await fetch(`${server.url}/api/files`, { headers: { cookie } })).json()) as Array<{ status: string }>;
      if (items.every((item) => item.status === "ready")) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The reader that read it is idle now, waiting for the next document.
    const readerTemps = descendants(server.pid)
      .filter((found) => found.command.includes("conversion-process"))
      .map((reader) => /(?:^|\0)TMPDIR=([^\0]*)/.exec(readFileSync(`/proc/${reader.pid}/environ`, "utf8"))![1]!);
    expect(readerTemps.length).toBeGreaterThan(0);
    expect(readerTemps.every((folder) => existsSync(folder))).toBe(true);

    await server.stop();
    stopped = true;
    // The last connection's close folds the WAL into the database and removes it.
    expect(existsSync(path.join(temp.dir, "sage.db-wal")), "the store was not closed").toBe(false);
    expect(readerTemps.filter((folder) => existsSync(folder))).toEqual([]);
  } finally {
    if (!stopped) await server.kill();
  }
});
