import { readFileSync } from "node:fs";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { makeDocx, makePdf } from "../documents/test/test-documents.ts";
import { makeDocxBomb } from "./document-bombs.ts";
import { startServerProcess } from "./server-process.ts";

/**
 * Document bombs against the real server in a child process: a 1 MB .docx whose word/document.xml expands to
 * 300 MB (it took the server down at 4.4 GB, and again at every restart as its job resumed), and the same bomb
 * with its sizes hidden. Each must fail its own item with a clear reason while the server answers throughout,
 * stays small, keeps its process, and processes good documents beside them; after a restart nothing resumes.
 */
const MB = 1_048_576;
const temp = makeTempDir();
afterAll(() => temp.remove());

const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) / 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("document bombs", () => {
  it("fail their own items with the reason; the server never notices, and nothing resumes after a restart", async () => {
    // A lower per-document memory limit than the default 1024 MB, so the hidden bomb reaches it quickly.
    const env = { SAGE_DOCUMENT_MEMORY_MB: "384" };
    const server = await startServerProcess(temp.dir, env);
    const cookie = await server.login();
    const upload = async (filename: string, content: Buffer) => {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(content)]), filename);
      const response = await fetch(`${server.url}/api/upload`, { method: "POST", headers: { cookie }, body: form });
      expect(response.status, filename).toBeLessThan(300);
      return (await response.json()).file.id as number;
    };
    const files = async () =>
      (await (await fetch(`${server.url}/api/files`, { headers: { cookie } })).json()) as Array<{ id: number; status: string; statusReason: string | null }>;

    // /api/health is asked every 50 ms from the first upload until every item has settled.
    const health: number[] = [];
    let settled = false;
    const prober = (async () => {
      while (!settled) {
        const startedAt = performance.now();
        const response = await fetch(`${server.url}/api/health`);
        expect(response.status).toBe(200);
        health.push(performance.now() - startedAt);
        await sleep(50);
      }
    })();

    const bomb = await upload("board-minutes.docx", await makeDocxBomb(300 * MB));
    const hidden = await upload("board-minutes-2.docx", await makeDocxBomb(400 * MB, { hideSize: true }));
    const goodDocx = await upload("plan.docx", await makeDocx());
    const goodPdf = await upload("report.pdf", await makePdf([["Herons wade."], ["Egrets fish."]]));
    for (const deadline = Date.now() + 120_000; ;) {
      const items = await files();
      if (items.every((item) => !["queued", "processing"].includes(item.status))) break;
      expect(Date.now(), JSON.stringify(items)).toBeLessThan(deadline);
      await sleep(200);
    }
    settled = true;
    await prober;

    const byId = new Map((await files()).map((item) => [item.id, item]));
    expect(byId.get(bomb)).toMatchObject({ status: "failed", statusReason: "The document is too large to process: it expands to more than 256 MB" });
    expect(byId.get(hidden)).toMatchObject({
      status: "failed",
      statusReason: "The document is too large to process: reading it needed more than 384 MB of memory",
    });
    expect(byId.get(goodDocx)?.status).toBe("ready");
    expect(byId.get(goodPdf)?.status).toBe("ready");
    const serverPeakMb = peakRssMb(server.pid);
    expect(serverPeakMb, "the server's own peak memory").toBeLessThan(400);
    process.kill(server.pid, 0); // still the same process: it never went down
    console.log(
      `document bombs: server peak RSS ${Math.round(serverPeakMb)} MB; /api/health ${health.length} probes, max ${Math.round(Math.max(...health))} ms`,
    );

    await server.stop();
    const restarted = await startServerProcess(temp.dir, env);
    // A document uploaded after the restart is read: the queue has recovered and taken jobs oldest first, so a bomb
    // it resumed would have been taken (and counted an attempt) before this one.
    const restartedCookie = await restarted.login();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(await makePdf([["Cranes nest."]]))]), "after-restart.pdf");
    const afterRestart = (await (await fetch(`${restarted.url}/api/upload`, { method: "POST", headers: { cookie: restartedCookie }, body: form })).json()).file
      .id;
    for (;;) {
      const items = (await (await fetch(`${restarted.url}/api/files`, { headers: { cookie: restartedCookie } })).json()) as Array<{
        id: number;
        status: string;
      }>;
      const status = items.find((item) => item.id === afterRestart)?.status;
      if (status !== "queued" && status !== "processing") {
        expect(status).toBe("ready");
        break;
      }
      await sleep(200);
    }
    const db = new BetterSqlite3(path.join(temp.dir, "sage.db"), { readonly: true });
    try {
      const jobs = db.prepare("SELECT item_id AS itemId, status, attempts, error FROM jobs WHERE item_id IN (?, ?) ORDER BY item_id").all(bomb, hidden);
      expect(jobs).toEqual([
        { itemId: bomb, status: "failed", attempts: 1, error: byId.get(bomb)!.statusReason },
        { itemId: hidden, status: "failed", attempts: 1, error: byId.get(hidden)!.statusReason },
      ]);
    } finally {
      db.close();
      await restarted.stop();
    }
  });
});
