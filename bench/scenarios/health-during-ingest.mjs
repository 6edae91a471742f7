import { readFileSync } from "node:fs";
import { startFakeEmbedder } from "../lib/fake-embedder.mjs";
import { figure, percentile, round } from "../lib/figure.mjs";
import { probeHealthDuring } from "../lib/health-probe.mjs";
import { jobDurationMs, uploadAndWait } from "../lib/ingest.mjs";
import { memoryOf, startSage } from "../lib/server.mjs";
import { reportPdf } from "./ingest-pdf.mjs";
import { notesText } from "./ingest-txt.mjs";

/**
 * How long /api/health waits while a 300-page PDF and a 20 MB text file (5 MB with --quick) ingest at once, with
 * an embedder answering at once (the bench's fake, 384 dims), so extraction, chunking, FTS5 indexing, embedding
 * and vector insertion all run. The limit beside it is the same pinger on the same server idle just before.
 */
export async function healthDuringIngest({ quick }) {
  const pdf = readFileSync(await reportPdf());
  const text = Buffer.from(notesText(quick ? 5 * 2 ** 20 : 20 * 2 ** 20, 20));
  const fake = await startFakeEmbedder({ delayMs: 0 });
  const sage = await startSage({ label: "health", env: fake.envFor(384) });
  try {
    const cookie = await sage.login();
    const { latencies: idle } = await probeHealthDuring(sage.url, () => new Promise((resolve) => setTimeout(resolve, 3000)));
    const startedAt = performance.now();
    const {
      result: [pdfItem, textItem],
      latencies: during,
    } = await probeHealthDuring(sage.url, () =>
      Promise.all([
        uploadAndWait(sage, cookie, { filename: "annual-report.pdf", bytes: pdf, type: "application/pdf" }),
        uploadAndWait(sage, cookie, { filename: "notes.txt", bytes: text, type: "text/plain" }),
      ]),
    );
    const wallMs = performance.now() - startedAt;
    const params = {
      pdfPages: 300,
      textMb: round(text.length / 2 ** 20, 1),
      chunks: pdfItem.chunkCount + textItem.chunkCount,
      pings: during.length,
      p50Ms: round(percentile(during, 50), 1),
      p90Ms: round(percentile(during, 90), 1),
      maxMs: round(Math.max(...during), 1),
      idleP50Ms: round(percentile(idle, 50), 2),
      idleP99Ms: round(percentile(idle, 99), 2),
      pdfJobMs: jobDurationMs(sage.dataDir, { itemId: pdfItem.id }),
      textJobMs: jobDurationMs(sage.dataDir, { itemId: textItem.id }),
      ingestWallMs: round(wallMs, 0),
      peakRssMb: round(memoryOf(sage.pid).peakMb, 0),
      embedder: "bench fake, 384 dims, no delay",
    };
    return [
      figure({
        name: "health.p99_during_ingest",
        value: percentile(during, 99),
        unit: "ms",
        limit: percentile(idle, 99),
        better: "lower",
        target: "<= 50 ms",
        params,
      }),
    ];
  } finally {
    await sage.stop();
    await fake.close();
  }
}
