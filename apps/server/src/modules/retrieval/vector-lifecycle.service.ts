import { setTimeout as delay, setImmediate as yieldToRequests } from "node:timers/promises";
import { countOf } from "@sage/contracts/text";
import { AppError } from "../../http/app-error.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { Embedder } from "../../providers/embedder/embedder.ts";
import type { ChunkStore } from "./index/chunk-store.ts";
import type { Vectors } from "./index/vectors.ts";
import type { Vectorizer } from "./index/vectorizer.ts";

export const REVECTORIZE_JOB = "vectors.revectorize";
/** Vectorises the chunks that have no vector from the current embedder (it appeared or changed); decision 016. */
export const CATCH_UP_JOB = "vectors.catch-up";
/** How long the re-vectorize call waits for a small job before answering that it continues in the background. */
const REVECTORIZE_INLINE_WAIT_MS = 5_000;
export const NO_EMBEDDER_MESSAGE =
  "No embedding model is configured, so search is lexical only and there is nothing to vectorize. Set GEMINI_API_KEY, or SAGE_EMBEDDER with its settings, and restart SAGE.";

/** Reset, re-vectorise and status of a user's vectors. */
export function createVectorLifecycleService(deps: {
  embedder: Embedder | null;
  chunks: Pick<ChunkStore, "countForUser">;
  vectors: Vectors;
  vectorizer: Vectorizer;
  jobs: JobQueue;
  /** Runs before the vectors are removed (a snapshot of the knowledge is taken there). */
  beforeReset(userId: number): Promise<void>;
  /** Users whose chunks are being vectorised in the background: their searches stay lexical meanwhile. */
  catchingUp: Set<number>;
}) {
  const { embedder, vectors, jobs, catchingUp } = deps;

  jobs.register<Record<string, never>>(
    CATCH_UP_JOB,
    async ({ job, progress }) => {
      catchingUp.add(job.userId);
      try {
        await deps.vectorizer.vectorizeUser(job.userId, async (processed, total) => {
          await progress(processed, total);
          // One batch at a time, then requests waiting on the event loop go first.
          await yieldToRequests();
          // A re-vectorize of the same user embeds every chunk, these included: going on would ask the embedder
          // for each of them twice (the bench's 10,000 chunks took 200 calls instead of 100).
          const revectorizing = await jobs.latestOfKind(job.userId, REVECTORIZE_JOB);
          return revectorizing?.status !== "queued" && revectorizing?.status !== "processing";
        });
        await deps.vectorizer.dropOtherEmbeddersIfComplete(job.userId);
      } finally {
        catchingUp.delete(job.userId);
      }
    },
    { onInterrupted: "resume" },
  );

  jobs.register<Record<string, never>>(
    REVECTORIZE_JOB,
    async ({ job, progress }) => {
      await deps.vectorizer.revectorizeUser(job.userId, progress);
      // Every chunk now has a current vector: a catch-up still winding down must not keep searches lexical.
      catchingUp.delete(job.userId);
    },
    { onInterrupted: "resume" },
  );

  return {
    async reset(userId: number) {
      await deps.beforeReset(userId);
      const removed = await vectors.deleteUser(userId);
      return {
        message: `Vector database reset: ${countOf(removed, "vector")} removed. Your files are kept and can be re-vectorized.`,
        vectors_removed: removed,
      };
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
      if (finished?.status === "done")
        // In words (issue 33 item 8); which embedder did it is in the vector status's Details.
        return { message: `Search is ready again for ${countOf(finished.processed, "passage")}.`, processed: finished.processed, job_id: job.id };
      if (finished?.status === "failed") throw new AppError("revectorize_failed", 502, `Re-vectorizing failed: ${finished.error ?? "unknown error"}`);
      const current = await jobs.get(job.id);
      return {
        message: `Preparing search again for ${countOf(current?.total ?? 0, "passage")}; it goes on in the background.`,
        processed: current?.processed ?? 0,
        job_id: job.id,
      };
    },

    /**
     * At start-up: every user with chunks lacking a vector from the current embedder (a key was added, or the
     * embedder changed) gets a background job that vectorises just those, unless one is already queued.
     */
    async startCatchUp() {
      for (const userId of await deps.vectorizer.usersMissingVectors()) {
        catchingUp.add(userId);
        const latest = await jobs.latestOfKind(userId, CATCH_UP_JOB);
        if (latest && (latest.status === "queued" || latest.status === "processing")) continue;
        await jobs.enqueue({ kind: CATCH_UP_JOB, userId });
      }
    },

    async status(userId: number) {
      const counts = await vectors.counts(userId, embedder?.id ?? null);
      const job = await jobs.latestOfKind(userId, REVECTORIZE_JOB);
      const catchUp = await jobs.latestOfKind(userId, CATCH_UP_JOB);
      return {
        embedder: { id: embedder?.id ?? "none", dimensions: embedder?.dimensions ?? 0, lexicalOnly: !embedder },
        chunks: await deps.chunks.countForUser(userId),
        vectorized: embedder ? counts.current : 0,
        stale: counts.other,
        job: job ? { id: job.id, status: job.status, processed: job.processed, total: job.total } : null,
        catchUp: catchUp ? { id: catchUp.id, status: catchUp.status, processed: catchUp.processed, total: catchUp.total } : null,
      };
    },
  };
}

export type VectorLifecycleService = ReturnType<typeof createVectorLifecycleService>;
