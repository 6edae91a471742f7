// `npm run bench [-- --quick] [-- --only=name,name]`: prints one JSON object per figure and writes
// bench/results/latest.json. Figures sit beside a limit measured in the same run; see docs/benchmarks.md.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { SERVER_ENTRY } from "./lib/server.mjs";
import { httpApi } from "./scenarios/http-api.mjs";
import { coldStart } from "./scenarios/cold-start.mjs";
import { webVitals } from "./scenarios/web-vitals.mjs";
import { chatTtft } from "./scenarios/chat-ttft.mjs";
import { chatTurn } from "./scenarios/chat-turn.mjs";
import { channelReply } from "./scenarios/channel-reply.mjs";
import { search } from "./scenarios/search.mjs";
import { ingestPdf } from "./scenarios/ingest-pdf.mjs";
import { ingestTxt } from "./scenarios/ingest-txt.mjs";
import { ingest1m } from "./scenarios/ingest-1m.mjs";
import { revectorize } from "./scenarios/revectorize.mjs";
import { healthDuringIngest } from "./scenarios/health-during-ingest.mjs";
import { largeTextJobs } from "./scenarios/large-text-jobs.mjs";
import { notesUnderLoad } from "./scenarios/notes-under-load.mjs";
import { backupImport } from "./scenarios/backup-import.mjs";
import { ocrPdf } from "./scenarios/ocr-pdf.mjs";
import { schedules } from "./scenarios/schedules.mjs";
import { mailSync } from "./scenarios/mail-sync.mjs";
import { hostileMailbox } from "./scenarios/hostile-mailbox.mjs";
import { searchPostgres } from "./scenarios/search-postgres.mjs";
import { httpPostgres } from "./scenarios/http-postgres.mjs";
import { dossier } from "./scenarios/dossier.ts";
import { triage } from "./scenarios/triage.ts";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const only = args
  .find((arg) => arg.startsWith("--only="))
  ?.slice(7)
  .split(",");

const scenarios = {
  "http-api": httpApi,
  "cold-start": coldStart,
  "chat-ttft": chatTtft,
  "chat-turn": chatTurn,
  "channel-reply": channelReply,
  "web-vitals": webVitals,
  search,
  "ingest-pdf": ingestPdf,
  "ingest-txt": ingestTxt,
  revectorize,
  "backup-import": backupImport,
  "health-during-ingest": healthDuringIngest,
  "large-text-jobs": largeTextJobs,
  "notes-under-load": notesUnderLoad,
  schedules,
  "mail-sync": mailSync,
  "hostile-mailbox": hostileMailbox,
  dossier,
  triage,
  "ocr-pdf-300": ocrPdf,
  // A million chunks at 768 dimensions (issue 34): the first run generates the store and builds its index (about
  // 20 minutes here), later runs read both back.
  "search-1m": (options) => search({ ...options, scales: [{ files: 100_000, dimensions: [768] }] }),
  "ingest-1m": ingest1m,
  // PostgreSQL beside SQLite (issue 34): a copy of the 100k store into a PostgreSQL started for the run.
  "search-postgres": searchPostgres,
  // The HTTP API on PostgreSQL beside SQLite, and two processes on one database beside one (issue 34).
  "http-postgres": httpPostgres,
};

// Long runs only when named (`--only=ocr-pdf-300`): a 300-page OCR takes most of an hour on 2 cores.
const OPT_IN = new Set(["ocr-pdf-300", "search-1m", "ingest-1m", "search-postgres", "http-postgres"]);

if (!existsSync(SERVER_ENTRY)) {
  console.error("The server is not built: run `npm run build` first.");
  process.exit(1);
}

const results = [];
for (const [name, run] of Object.entries(scenarios)) {
  if (only ? !only.includes(name) : OPT_IN.has(name)) continue;
  const startedAt = Date.now();
  try {
    for (const item of await run({ quick })) {
      results.push(item);
      console.log(JSON.stringify(item));
    }
  } catch (error) {
    const failure = { name, error: String(error?.stack ?? error) };
    results.push(failure);
    console.log(JSON.stringify(failure));
  }
  console.error(`# ${name} took ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
}

mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
const report = {
  date: new Date().toISOString(),
  quick,
  machine: { cpus: cpus().length, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version },
  figures: results,
};
writeFileSync(new URL("./results/latest.json", import.meta.url), JSON.stringify(report, null, 2));
