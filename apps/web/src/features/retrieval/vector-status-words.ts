import type { VectorStatus } from "@sage/contracts/retrieval";

/** Counts as people read them: 1,240 rather than 1240. */
export const count = (value: number) => value.toLocaleString("en-US");

const passages = (value: number) => `${count(value)} ${value === 1 ? "passage" : "passages"}`;
const isRunning = (job: { status: string } | null | undefined) => !!job && (job.status === "queued" || job.status === "processing");

/**
 * The search index's state in words an executive reads at a glance (decision 038): "Search is ready for all 12
 * passages". `details` is the same state as an engineer reads it (the embedder's id, chunks and vectors), shown
 * behind Details.
 */
export function vectorStatusWords(status: VectorStatus): { summary: string; details: string } {
  const { embedder, chunks, vectorized, stale, job, catchUp } = status;
  const running = isRunning(job);
  const catchingUp = isRunning(catchUp);
  const details = embedder.lexicalOnly
    ? `No embedder configured: lexical (keyword) search only. ${count(chunks)} ${chunks === 1 ? "chunk" : "chunks"} indexed.`
    : `Embedder ${embedder.id}: ${count(vectorized)} of ${count(chunks)} ${chunks === 1 ? "chunk" : "chunks"} vectorized.` +
      (running && job ? ` Re-vectorizing: ${count(job.processed)} of ${count(job.total)}.` : "") +
      (stale > 0 ? ` ${count(stale)} stale ${stale === 1 ? "vector" : "vectors"} from another embedder.` : "");
  let summary: string;
  if (embedder.lexicalOnly) summary = "Search finds your documents by their words; finding them by meaning needs a search model, which is not connected.";
  else if (running && job) summary = `Preparing search again: ${count(job.processed)} of ${passages(job.total)} done.`;
  else if (chunks === 0) summary = "Search is ready. There is nothing to prepare yet.";
  else if (vectorized >= chunks) summary = chunks === 1 ? "Search is ready for your 1 passage." : `Search is ready for all ${passages(chunks)}.`;
  else
    summary =
      `Search by meaning is ready for ${count(vectorized)} of ${passages(chunks)}` +
      (catchingUp ? "; the rest are being prepared, and are found by their words meanwhile." : "; the rest are found by their words only.");
  if (stale > 0 && !running && !catchingUp) summary += " Some passages were prepared by an earlier search model: Re-vectorize DB prepares them again.";
  return { summary, details };
}
