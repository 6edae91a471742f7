import { readdirSync } from "node:fs";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { startServerProcess } from "./server-process.ts";
import { startSlowEmbedder } from "./slow-embedder.ts";

/**
 * SIGKILL during long work (a multi-MB ingestion, a re-vectorise, an import), then restart: the store passes
 * its integrity check, interrupted jobs are resumed to the end rather than left 'processing', an import is all
 * or nothing, and the vectors agree with the chunks: every chunk has exactly one vector from the current
 * embedder, of its dimensions, and no vector outlives its chunk.
 */
type Server = Awaited<ReturnType<typeof startServerProcess>>;
const temps: { remove(): void }[] = [];
let embedder: Awaited<ReturnType<typeof startSlowEmbedder>>;
beforeAll(async () => (embedder = await startSlowEmbedder(100)));
afterAll(async () => {
  await embedder?.close();
  temps.forEach((temp) => temp.remove());
});

/** Logins are not what these servers test: OWASP's minimum hash instead of argon2's 64 MiB (about 0.5 s a login here). */
const SERVER_ENV = { SAGE_PASSWORD_COST: "minimum" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until<T>(probe: () => Promise<T | undefined | false>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value) return value;
    await sleep(50);
  }
}

function client(server: Server, cookie: string) {
  return {
    get: async (url: string) => (await fetch(`${server.url}${url}`, { headers: { cookie } })).json(),
    post: (url: string, body: unknown) =>
      fetch(`${server.url}${url}`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify(body) }),
    upload: (url: string, filename: string, content: Buffer) => {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(content)]), filename);
      return fetch(`${server.url}${url}`, { method: "POST", headers: { cookie }, body: form });
    },
  };
}

/** Every job ended done; the kinds besides background catch-ups (which start whenever chunks lack vectors). */
const jobOutcome = (jobs: { kind: string; status: string }[]) => ({
  allDone: jobs.every((job) => job.status === "done"),
  kinds: jobs.filter((job) => job.kind !== "vectors.catch-up").map((job) => job.kind),
});
function inspect(dataDir: string) {
  const db = new BetterSqlite3(path.join(dataDir, "sage.db"));
  try {
    const one = <T>(sql: string, ...params: unknown[]) => db.prepare(sql).get(...params) as T;
    return {
      integrity: db.pragma("integrity_check", { simple: true }),
      // Every user's full-text table (one per user, lexical-index.ts).
      ftsIntegrity: (() => {
        try {
          for (const userId of db.prepare("SELECT user_id FROM lexical_users").pluck().all() as number[]) {
            db.prepare(`INSERT INTO chunks_fts_${userId}(chunks_fts_${userId}, rank) VALUES ('integrity-check', 0)`).run();
          }
          return "ok";
        } catch (error) {
          return (error as Error).message;
        }
      })(),
      jobs: db.prepare("SELECT kind, status, error FROM jobs ORDER BY id").all() as { kind: string; status: string; error: string | null }[],
      items: one<{ n: number }>("SELECT count(*) AS n FROM knowledge_items WHERE type <> 'folder'").n,
      itemNames: (db.prepare("SELECT name FROM knowledge_items ORDER BY name").all() as { name: string }[]).map((row) => row.name),
      chunks: one<{ n: number }>("SELECT count(*) AS n FROM chunks").n,
      /** Per embedder: vectors, chunks covered, wrong-size vectors, vectors without a chunk. */
      vectors: db
        .prepare(
          `SELECT v.embedder_id AS embedder, count(*) AS vectors, count(c.id) AS covered,
                  sum(length(v.vector) <> v.dimensions * 4) AS misSized, sum(c.id IS NULL) AS orphans
           FROM chunk_vectors v LEFT JOIN chunks c ON c.id = v.chunk_id GROUP BY v.embedder_id ORDER BY v.embedder_id`,
        )
        .all() as { embedder: string; vectors: number; covered: number; misSized: number; orphans: number }[],
    };
  } finally {
    db.close();
  }
}

const outcomes: string[] = [];
afterAll(() => console.log(`crash scenarios:\n  ${outcomes.join("\n  ")}`));

describe("SIGKILL during background jobs", () => {
  const temp = makeTempDir();
  temps.push(temp);
  const MODEL_A = "gemini-embedding-001";
  const MODEL_B = "gemini-embedding-crash-b";

  it("(a) a 1.2 MB TXT ingestion (a background job) is resumed to the end after the restart, vectors and all", async () => {
    const server = await startServerProcess(temp.dir, { ...SERVER_ENV, ...embedder.env(MODEL_A) });
    const api = client(server, await server.login());
    const paragraph = "Herons wade through the shallow estuary at dawn, watching for silver fish beneath the reeds.";
    const content = Buffer.from(Array.from({ length: 12_000 }, (_, index) => `${paragraph} Entry ${index}.`).join("\n\n"));
    expect(content.length).toBeGreaterThan(1_048_576);
    const response = await api.upload("/api/upload", "estuary-log.txt", content);
    expect(response.status).toBe(202);
    // Kill once its chunks are stored and embedding is under way.
    await until(async () => ((await api.get("/api/vectors/status")).vectorized as number) > 0);
    await server.kill();

    const killed = inspect(temp.dir);
    expect(killed.integrity).toBe("ok");
    expect(killed.jobs).toEqual([{ kind: "knowledge.ingest", status: "processing", error: null }]);
    const vectorsAtKill = killed.vectors[0]?.vectors ?? 0;
    expect(vectorsAtKill).toBeLessThan(killed.chunks);

    const restarted = await startServerProcess(temp.dir, { ...SERVER_ENV, ...embedder.env(MODEL_A) });
    const again = client(restarted, await restarted.login());
    const item = await until(async () => {
      const [file] = await again.get("/api/files");
      return file && !["queued", "processing"].includes(file.status) && file;
    });
    expect(item).toMatchObject({ name: "estuary-log.txt", status: "ready", statusReason: null });
    const hits = await (await again.post("/api/search", { query: "herons estuary entry 23999", limit: 3 })).json();
    expect(hits.length).toBeGreaterThan(0);
    await restarted.stop();

    const after = inspect(temp.dir);
    expect(after.integrity).toBe("ok");
    expect(after.ftsIntegrity).toBe("ok");
    expect(jobOutcome(after.jobs)).toEqual({ allDone: true, kinds: ["knowledge.ingest"] });
    expect(after.chunks).toBe(item.chunkCount);
    expect(after.vectors).toEqual([{ embedder: `gemini:${MODEL_A}:768`, vectors: after.chunks, covered: after.chunks, misSized: 0, orphans: 0 }]);
    outcomes.push(
      `ingestion: killed with ${vectorsAtKill}/${killed.chunks} chunks embedded; job resumed after restart -> ready, ${after.chunks} chunks, ${after.chunks} vectors`,
    );
  });

  it("(c) a re-vectorise to a new embedder is resumed after the restart and leaves one current vector per chunk", async () => {
    const server = await startServerProcess(temp.dir, { ...SERVER_ENV, ...embedder.env(MODEL_B) });
    const api = client(server, await server.login());
    const request = api.post("/api/vectors/revectorize", {}).catch(() => undefined); // dies with the server
    await until(async () => {
      const job = (await api.get("/api/vectors/status")).job;
      return job && job.processed > 0 && job.processed < job.total;
    });
    await server.kill();
    await request;

    const killed = inspect(temp.dir);
    expect(killed.integrity).toBe("ok");
    expect(killed.jobs.at(-1)).toEqual({ kind: "vectors.revectorize", status: "processing", error: null });
    const newAtKill = killed.vectors.find((row) => row.embedder.includes(MODEL_B))?.vectors ?? 0;
    expect(newAtKill).toBeGreaterThan(0);
    expect(newAtKill).toBeLessThan(killed.chunks);

    const restarted = await startServerProcess(temp.dir, { ...SERVER_ENV, ...embedder.env(MODEL_B) });
    const again = client(restarted, await restarted.login());
    const status = await until(async () => {
      const current = await again.get("/api/vectors/status");
      return current.job?.status === "done" && current;
    });
    expect(status).toMatchObject({ vectorized: killed.chunks, stale: 0, chunks: killed.chunks });
    await restarted.stop();

    const after = inspect(temp.dir);
    expect(after.integrity).toBe("ok");
    expect(jobOutcome(after.jobs)).toEqual({ allDone: true, kinds: ["knowledge.ingest", "vectors.revectorize"] });
    expect(after.vectors).toEqual([{ embedder: `gemini:${MODEL_B}:768`, vectors: after.chunks, covered: after.chunks, misSized: 0, orphans: 0 }]);
    outcomes.push(
      `re-vectorise: killed with ${newAtKill}/${killed.chunks} chunks re-embedded; job resumed -> ${after.chunks}/${after.chunks} vectors from the new embedder, 0 stale`,
    );
  });
});

function zipOf(entries: Record<string, string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(entries)) zip.addBuffer(Buffer.from(text), name);
  zip.end();
  const parts: Buffer[] = [];
  return new Promise((resolve) => {
    zip.outputStream.on("data", (part: Buffer) => parts.push(part));
    zip.outputStream.on("end", () => resolve(Buffer.concat(parts)));
  });
}

describe("SIGKILL during an import", () => {
  it("(b) leaves the knowledge base either exactly as before or exactly as the backup, at every kill point", async () => {
    const ITEMS = 200;
    const CHUNKS_PER_ITEM = 60;
    const items = Array.from({ length: ITEMS }, (_, index) => ({
      id: index + 1,
      parent_id: null,
      conversation_id: null,
      type: "note",
      name: `imported-${index}`,
      path: `imported-${index}`,
      description: "",
      content: "backup note",
      url: null,
      mime_type: null,
      size: 11,
      created_at: "2025-01-01T00:00:00.000Z",
    }));
    const chunks = items.flatMap((item) =>
      Array.from({ length: CHUNKS_PER_ITEM }, (_, position) => ({
        id: (item.id - 1) * CHUNKS_PER_ITEM + position + 1,
        item_id: item.id,
        position,
        source: "",
        content: `Imported chunk ${position} of ${item.name} about cormorants and grebes.`,
      })),
    );
    const archive = await zipOf({
      "manifest.json": JSON.stringify({ format: "sage-vector-db", version: 1, embedder: null, counts: { items: ITEMS, chunks: chunks.length, vectors: 0 } }),
      "items.jsonl": items.map((item) => JSON.stringify(item)).join("\n"),
      "chunks.jsonl": chunks.map((chunk) => JSON.stringify(chunk)).join("\n"),
      "vectors.jsonl": "",
    });

    const temp = makeTempDir();
    temps.push(temp);
    let server = await startServerProcess(temp.dir, SERVER_ENV);
    let api = client(server, await server.login());
    expect((await api.post("/api/process-note", { type: "note", content: "The note that existed before the import." })).status).toBe(200);
    const before = inspect(temp.dir);
    const seen = { before: 0, applied: 0 };
    let leftovers = 0;
    const tmpFiles = () => {
      try {
        return readdirSync(path.join(temp.dir, "tmp"));
      } catch {
        return [];
      }
    };
    const restoreRows = () => {
      const db = new BetterSqlite3(path.join(temp.dir, "sage.db"), { readonly: true });
      try {
        return db.prepare("SELECT snapshot_id AS snapshotId FROM knowledge_restores").all() as { snapshotId: number | null }[];
      } finally {
        db.close();
      }
    };
    // Kill points: just after the uploaded zip is on disk (it is being checked), and once the restore has taken
    // its snapshot and started writing. The restore writes in batches, so a kill can leave it half done on disk;
    // the next start restores the snapshot taken just before it, in the background, and then the knowledge base
    // must be exactly as before.
    const killPoints: Array<{ label: string; reached: () => boolean }> = [
      { label: "upload landed", reached: () => tmpFiles().length > 0 },
      { label: "restore writing", reached: () => restoreRows().some((row) => row.snapshotId !== null) },
    ];
    let interruptedMidway = 0;
    for (const point of killPoints) {
      const request = api.upload("/api/import_vector_db", "backup.zip", archive).catch(() => undefined);
      await until(async () => point.reached() || (await Promise.race([request, sleep(0).then(() => "pending")])) !== "pending");
      const midway = restoreRows().length > 0;
      await server.kill();
      const reply = await request;
      leftovers += tmpFiles().length;
      server = await startServerProcess(temp.dir, SERVER_ENV);
      await until(async () => restoreRows().length === 0);
      if (midway) interruptedMidway += 1;
      const state = inspect(temp.dir);
      expect(state.integrity).toBe("ok");
      expect(state.ftsIntegrity).toBe("ok");
      const applied = state.items === ITEMS && state.chunks === chunks.length && state.itemNames[0] === "imported-0";
      const untouched = state.items === before.items && state.chunks === before.chunks && JSON.stringify(state.itemNames) === JSON.stringify(before.itemNames);
      expect(applied !== untouched, `kill at "${point.label}": ${state.items} items, ${state.chunks} chunks after the restart`).toBe(true);
      if (reply?.ok) expect(applied).toBe(true); // acknowledged means applied
      seen[applied ? "applied" : "before"] += 1;
      if (applied) break;
      api = client(server, await server.login());
    }
    await server.stop();
    expect(tmpFiles()).toEqual([]);
    outcomes.push(
      `import: ${seen.before + seen.applied} kills (${interruptedMidway} while the restore was writing) -> after the restart ${seen.before} had the old knowledge base back intact, ${seen.applied} the import fully applied, none partial; ${leftovers} interrupted upload(s) removed at the next start`,
    );
  });
});
