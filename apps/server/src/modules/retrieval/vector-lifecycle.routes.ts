import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { setTimeout as delay } from "node:timers/promises";
import type BetterSqlite3 from "better-sqlite3";
import type { FastifyInstance } from "fastify";
import {
  EXPORT_DEFAULT_FILENAME,
  IMPORT_INVALID_FORMAT_MESSAGE,
  IMPORT_INVALID_FORMAT_TITLE,
  IMPORT_MAX_BYTES,
  IMPORT_TOO_LARGE_TITLE,
} from "@sage/contracts/retrieval";
import { AppError, badRequest } from "../../http/app-error.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { Embedder } from "../../providers/embedder/embedder.ts";
import { exportVectorDb } from "./export-vector-db.ts";
import { applyBackup, readBackup } from "./import-vector-db.ts";
import type { VectorStore } from "./vector-store.ts";
import type { Vectorizer } from "./vectorizer.ts";

export const REVECTORIZE_JOB = "vectors.revectorize";
/** How long the re-vectorize call waits for a small job before answering that it continues in the background. */
const REVECTORIZE_INLINE_WAIT_MS = 5_000;
export const NO_EMBEDDER_MESSAGE =
  "No embedding model is configured, so search is lexical only and there is nothing to vectorize. Set GEMINI_API_KEY, or SAGE_EMBEDDER with its settings, and restart SAGE.";

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export function registerVectorLifecycleRoutes(
  app: FastifyInstance,
  deps: { sqlite: BetterSqlite3.Database; embedder: Embedder | null; vectors: VectorStore; vectorizer: Vectorizer; jobs: JobQueue; tempDir: string },
) {
  const db = () => deps.sqlite;

  deps.jobs.register<Record<string, never>>(
    REVECTORIZE_JOB,
    async ({ job, progress }) => {
      await deps.vectorizer.revectorizeUser(job.userId, progress);
    },
    { onInterrupted: "resume" },
  );

  async function startRevectorize(userId: number) {
    const job = await deps.jobs.enqueue({ kind: REVECTORIZE_JOB, userId });
    const finished = await Promise.race([
      deps.jobs.waitFor(job.id),
      delay(REVECTORIZE_INLINE_WAIT_MS, null, { ref: false }),
    ]);
    return { job, finished };
  }

  app.post("/api/reset_vector_db", async (request) => {
    const user = requireUser(request);
    const removed = db().prepare("DELETE FROM chunk_vectors WHERE user_id = ?").run(user.id).changes;
    deps.vectors.forgetUser(user.id);
    return { message: `Vector database reset: ${removed} vectors removed. Your files are kept and can be re-vectorized.`, vectors_removed: removed };
  });

  app.get("/api/export_vector_db", async (request, reply) => {
    const user = requireUser(request);
    reply.header("content-type", "application/zip");
    reply.header("content-disposition", `attachment; filename="${EXPORT_DEFAULT_FILENAME}"`);
    return reply.send(exportVectorDb(db(), user.id, deps.embedder));
  });

  app.post("/api/import_vector_db", async (request) => {
    const user = requireUser(request);
    if (!request.isMultipart()) throw badRequest(`${IMPORT_INVALID_FORMAT_TITLE}: ${IMPORT_INVALID_FORMAT_MESSAGE}`, "invalid_file_format");
    const file = await request.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1 } });
    if (!file) throw badRequest(`${IMPORT_INVALID_FORMAT_TITLE}: ${IMPORT_INVALID_FORMAT_MESSAGE}`, "invalid_file_format");
    if (!/\.zip$/i.test(file.filename)) {
      file.file.resume();
      throw badRequest(`${IMPORT_INVALID_FORMAT_TITLE}: ${IMPORT_INVALID_FORMAT_MESSAGE}`, "invalid_file_format");
    }
    await mkdir(deps.tempDir, { recursive: true });
    const zipPath = path.join(deps.tempDir, `import-${user.id}-${Date.now()}-${Math.random().toString(36).slice(2)}.zip`);
    try {
      await pipeline(file.file, createWriteStream(zipPath));
      if (file.file.truncated) {
        throw new AppError("file_too_large", 413, `${IMPORT_TOO_LARGE_TITLE}: the file is over ${megabytes(IMPORT_MAX_BYTES)}; the maximum is 100MB.`);
      }
      const backup = await readBackup(zipPath);
      const result = applyBackup(db(), user.id, backup, deps.embedder?.id ?? null);
      deps.vectors.forgetUser(user.id);
      let message = `Imported ${result.filesImported} files from the backup.`;
      if (!result.vectorsKept && deps.embedder && backup.chunks.length > 0) {
        await deps.jobs.enqueue({ kind: REVECTORIZE_JOB, userId: user.id });
        message += ` Their vectors came from ${backup.manifest.embedder?.id ?? "no embedder"}, so they are being re-embedded with ${deps.embedder.id}.`;
      }
      return { message, files_imported: result.filesImported };
    } finally {
      await rm(zipPath, { force: true });
    }
  });

  app.post("/api/vectors/revectorize", async (request) => {
    const user = requireUser(request);
    if (!deps.embedder) throw new AppError("no_embedder", 409, NO_EMBEDDER_MESSAGE);
    const { job, finished } = await startRevectorize(user.id);
    if (finished?.status === "done") return { message: `Re-vectorized ${finished.processed} chunks with ${deps.embedder.id}.`, processed: finished.processed, job_id: job.id };
    if (finished?.status === "failed") throw new AppError("revectorize_failed", 502, `Re-vectorizing failed: ${finished.error ?? "unknown error"}`);
    const current = await deps.jobs.get(job.id);
    return { message: `Re-vectorizing ${current?.total ?? 0} chunks in the background.`, processed: current?.processed ?? 0, job_id: job.id };
  });

  app.get("/api/vectors/status", async (request) => {
    const user = requireUser(request);
    const count = (sql: string, ...params: unknown[]) => (db().prepare(sql).get(...params) as { n: number }).n;
    const chunks = count("SELECT count(*) AS n FROM chunks WHERE user_id = ?", user.id);
    const vectorized = deps.embedder ? count("SELECT count(*) AS n FROM chunk_vectors WHERE user_id = ? AND embedder_id = ?", user.id, deps.embedder.id) : 0;
    const stale = count("SELECT count(*) AS n FROM chunk_vectors WHERE user_id = ? AND embedder_id <> ?", user.id, deps.embedder?.id ?? "");
    const job = db()
      .prepare("SELECT id, status, processed, total FROM jobs WHERE user_id = ? AND kind = ? ORDER BY id DESC LIMIT 1")
      .get(user.id, REVECTORIZE_JOB) as { id: number; status: string; processed: number; total: number } | undefined;
    return {
      embedder: { id: deps.embedder?.id ?? "none", dimensions: deps.embedder?.dimensions ?? 0, lexicalOnly: !deps.embedder },
      chunks,
      vectorized,
      stale,
      job: job ?? null,
    };
  });
}
