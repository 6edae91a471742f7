import { writeFileSync } from "node:fs";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { startServerProcess } from "./server-process.ts";

/** SIGKILL the server mid-work, restart it, and check nothing acknowledged was lost and the store is sound. */
const temps: { remove(): void }[] = [];
afterEach(() => temps.splice(0).forEach((temp) => temp.remove()));

describe("crash during a burst of message saves", () => {
  it("keeps every acknowledged message and passes the integrity check after SIGKILL", async () => {
    const temp = makeTempDir();
    temps.push(temp);
    const server = await startServerProcess(temp.dir);
    const cookie = await server.login();
    const headers = { cookie, "content-type": "application/json" };
    const conversation = await (await fetch(`${server.url}/api/conversations`, { method: "POST", headers, body: JSON.stringify({ name: "Burst" }) })).json();

    const acknowledged: string[] = [];
    let sent = 0;
    let killed = false;
    const worker = async (lane: number) => {
      for (let i = 0; !killed; i++) {
        const content = `lane ${lane} message ${i}`;
        sent += 1;
        try {
          const response = await fetch(`${server.url}/api/conversations/${conversation.id}/messages`, {
            method: "POST",
            headers,
            body: JSON.stringify({ role: "user", content }),
          });
          if (response.ok) acknowledged.push(content);
        } catch {
          return; // the server died under this request: not acknowledged
        }
      }
    };
    const lanes = Array.from({ length: 8 }, (_, lane) => worker(lane));
    while (acknowledged.length < 150) await new Promise((resolve) => setTimeout(resolve, 5));
    killed = true;
    await server.kill();
    await Promise.all(lanes);

    const db = new BetterSqlite3(path.join(temp.dir, "sage.db"));
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    db.close();

    const restarted = await startServerProcess(temp.dir);
    const again = await restarted.login();
    const messages: { content: string }[] = await (
      await fetch(`${restarted.url}/api/conversations/${conversation.id}/messages`, { headers: { cookie: again } })
    ).json();
    const stored = new Set(messages.map((message) => message.content));
    const lost = acknowledged.filter((content) => !stored.has(content));
    expect(lost).toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(150);
    console.log(`crash burst: ${sent} sent, ${acknowledged.length} acknowledged, ${messages.length} stored after restart, 0 lost`);
    await restarted.stop();
  });
});

describe("start-up on a data folder it cannot write", () => {
  it("exits with a clear error and creates no database", async () => {
    const temp = makeTempDir();
    temps.push(temp);
    const blocker = path.join(temp.dir, "a-file");
    writeFileSync(blocker, "x");
    await expect(startServerProcess(path.join(blocker, "data"))).rejects.toThrow(/SAGE could not start: The data folder .* is not writable/);
  });
});
