import { setTimeout as delay } from "node:timers/promises";
import { countOf } from "@sage/contracts/text";
import { AppError } from "../../http/app-error.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { Embedder } from "../../providers/embedder/embedder.ts";
import type { ChunkStore } from "./index/chunk-store.ts";
import type { VectorStore } from "./index/vector-store.ts";
import type { Vectorizer } from "./index/vectorizer.ts";

export const REVECTORIZE_JOB = "vectors.revectorize";
/** How long the re-vectorize call waits for a small job before answering that it continues in the background. */
const REVECTORIZE_INLINE_WAIT_MS = 5_000;
export const NO_EMBEDDER_MESSAGE =
  "No embedding model is configured, so search is lexical only and there is nothing to vectorize. Set GEMINI_API_KEY, or SAGE_EMBEDDER with its settings, and restart SAGE.";

/** Reset, re-vectorise and status of a user's vectors. */
export function createVectorLifecycleService(deps: {
  embedder: Embedder | null;
  chunks: Pick<ChunkStore, "countForUser">;
  vectors: VectorStore;
  vectorizer: Vectorizer;
  jobs: JobQueue;
  /** Runs before the vectors are removed (a snapshot of the knowledge is taken there). */
  beforeReset(userId: number): Promise<void>;
}) {
  const { embedder, vectors, jobs } = deps;

  jobs.register<Record<string, never>>(
    REVECTORIZE_JOB,
    async ({ job, progress }) => {
      await deps.vectorizer.revectorizeUser(job.userId, progress);
    },
    { onInterrupted: "resume" },
  );

  return {
    async reset(userId: number) {
      await deps.beforeReset(userId);
      const removed = vectors.deleteUser(userId);
      return { message: `Vector database reset: ${countOf(removed, "vector")} removed. Your files are kept and can be re-vectorized.`, vectors_removed: removed };
    },

    /** Queues a re-vectorise in the background (after an import whose vectors came from another embedder). */
    async revectorizeInBackground(userId: number) {
      await jobs.enqueue({ kind: REVECTORIZE_JOB, userId });
    },

    /** Re-embeds every chunk; answers when done, or after a few seconds with the job continuing in the background. */
    async revectorize(userId: number) {
      if (!embedder) throw new AppError("no_embedder", 409, NO_EMBEDDER_MESSAGE);
      const job = await jobs.enqueue({ kind: REVECTORIZE_JOB, userId });
      const finished = await Promise.race([jobs.waitFor(job.id), delay(REVECTORIZE_INLINE_WAIT_MS, null, { ref: false })]);
      if (finished?.status === "done") return { message: `Re-vectorized ${countOf(finished.processed, "chunk")} with ${embedder.id}.`, processed: finished.processed, job_id: job.id };
      if (finished?.status === "failed") throw new AppError("revectorize_failed", 502, `Re-vectorizing failed: ${finished.error ?? "unknown error"}`);
      const current = await jobs.get(job.id);
      return { message: `Re-vectorizing ${countOf(current?.total ?? 0, "chunk")} in the background.`, processed: current?.processed ?? 0, job_id: job.id };
    },

    async status(userId: number) {
      const counts = vectors.counts(userId, embedder?.id ?? null);
      const job = await jobs.latestOfKind(userId, REVECTORIZE_JOB);
      return {
        embedder: { id: embedder?.id ?? "none", dimensions: embedder?.dimensions ?? 0, lexicalOnly: !embedder },
        chunks: deps.chunks.countForUser(userId),
        vectorized: embedder ? counts.current : 0,
        stale: counts.other,
        job: job ? { id: job.id, status: job.status, processed: job.processed, total: job.total } : null,
      };
    },
  };
}

export type VectorLifecycleService = ReturnType<typeof createVectorLifecycleService>;
