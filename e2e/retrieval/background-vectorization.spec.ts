import { spawn, execFile, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { E2E_PORT } from "../support/ports.ts";

// A SAGE of its own (not the shared e2e server): it runs first without an embedder, then restarts with one.
const PORT = E2E_PORT + 20;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const SERVER = fileURLToPath(new URL("../../apps/server/dist/main.js", import.meta.url));
const CLI = fileURLToPath(new URL("../../apps/server/dist/cli.js", import.meta.url));
const NOTES = 6;

/** A Gemini embedding endpoint that holds every batch until released, so the progress can be watched. */
function gatedEmbeddings() {
  const held: Array<() => void> = [];
  let open = false;
  const server: Server = createServer((request, response: ServerResponse) => {
    let raw = "";
    request.on("data", (part: Buffer) => (raw += part.toString("utf8")));
    request.on("end", () => {
      const body = JSON.parse(raw || "{}") as { requests?: Array<{ outputDimensionality?: number }>; outputDimensionality?: number };
      const vector = (dimensions = 768) => Array.from({ length: dimensions }, (_, index) => (index === 0 ? 1 : 0));
      const answer = () => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify(
            request.url?.includes(":batchEmbedContents")
              ? { embeddings: (body.requests ?? []).map((item) => ({ values: vector(item.outputDimensionality) })) }
              : { embedding: { values: vector(body.outputDimensionality) } },
          ),
        );
      };
      if (open) answer();
      else held.push(answer);
    });
  });
  return {
    server,
    release() {
      open = true;
      for (const answer of held.splice(0)) answer();
    },
  };
}

async function startSage(dataDir: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [SERVER], {
    env: { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", SAGE_DATA_DIR: dataDir, SAGE_LOG_LEVEL: "warn", SAGE_LOGIN_RATE_LIMIT: "10000", ...env },
    stdio: "ignore",
  });
  await expect.poll(async () => (await fetch(`${ORIGIN}/api/health`).catch(() => null))?.status ?? 0, { timeout: 30_000 }).toBe(200);
  return child;
}

async function stopSage(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

test("adding an embedder starts background vectorization with visible progress", async ({ page }) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "sage-e2e-vectorize-"));
  const gate = gatedEmbeddings();
  await new Promise<void>((resolve) => gate.server.listen(0, "127.0.0.1", resolve));
  const embedOrigin = `http://127.0.0.1:${(gate.server.address() as AddressInfo).port}`;
  let sage: ChildProcess | undefined;
  try {
    // Without a model key: notes are stored and searchable by words, with no vectors.
    sage = await startSage(dataDir, { SAGE_EMBEDDER: "none", GEMINI_API_KEY: "" });
    const credentials = { username: "vectors-e2e", password: "vectors-e2e-password" };
    await promisify(execFile)(process.execPath, [CLI, "add-user", credentials.username, credentials.password], {
      env: { ...process.env, SAGE_DATA_DIR: dataDir, SAGE_LOG_LEVEL: "silent" },
    });
    const login = await fetch(`${ORIGIN}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(credentials),
    });
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    for (let index = 0; index < NOTES; index++) {
      const note = await fetch(`${ORIGIN}/api/process-note`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ content: `Osprey memo ${index}: the board approved the fleet budget.`, description: "memo" }),
      });
      expect(note.status).toBe(200);
    }
    await stopSage(sage);

    // The key is added: SAGE restarts with an embedder and vectorises the stored chunks by itself.
    sage = await startSage(dataDir, { SAGE_EMBEDDER: "gemini", GEMINI_API_KEY: "e2e-fake-key", GEMINI_BASE_URL: `${embedOrigin}/v1beta` });
    await page.goto(`${ORIGIN}/login`);
    await page.getByLabel("Username").fill(credentials.username);
    await page.getByLabel("Password").fill(credentials.password);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/conversations$/);
    await page.goto(`${ORIGIN}/settings`);
    const status = page.getByTestId("vector-status");
    await expect(status.getByRole("status")).toHaveText(
      `Search by meaning is ready for 0 of ${NOTES} passages; the rest are being prepared, and are found by their words meanwhile.`,
    );
    await expect(status).toContainText(`0 of ${NOTES} chunks vectorized.`);

    gate.release();
    await expect(status.getByRole("status")).toHaveText(`Search is ready for all ${NOTES} passages.`);
    await expect(status).toContainText(`${NOTES} of ${NOTES} chunks vectorized.`);
  } finally {
    if (sage) await stopSage(sage);
    gate.release();
    await new Promise((resolve) => gate.server.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
});
