/**
 * `npm run eval:context-threshold`: the relevance threshold of the chat's knowledge context (decision 038), measured
 * on BEIR SciFact (train queries, read from ../shared/eval/scifact, never copied). Every query takes the chat's
 * context (the top 3 passages of POST /api/search); for each candidate threshold the JSON reports which share of
 * the relevant passages the context keeps, which share of the irrelevant ones it drops, and how many passages
 * everyday messages unrelated to the corpus (an email, a reminder, a greeting) would still have attached.
 * SAGE_SCIFACT_DIR overrides the data folder; `-- --limit=N` runs a quick subset.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { makeTempDir } from "../packages/testkit/src/temp-dir.ts";
import { openStore } from "../apps/server/src/store/open-store.ts";
import { benchRetrieval } from "./lib/retrieval-service.ts";
import { ingestPlainDocument } from "./ingest-plain-document.ts";
import { loadSciFact } from "./scifact-data.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const dataDir =
  process.env.SAGE_SCIFACT_DIR ??
  [path.resolve(repoRoot, "../shared/eval/scifact"), path.resolve(repoRoot, "../../shared/eval/scifact")].find((dir) => existsSync(dir)) ??
  path.resolve(repoRoot, "../shared/eval/scifact");
const limitArg = process.argv.find((arg) => arg.startsWith("--limit="));
const limit = limitArg ? Number(limitArg.slice("--limit=".length)) : null;

/** The chat's context size (chat-turn.service.ts). */
const CONTEXT_SNIPPETS = 3;
const THRESHOLDS = [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5];
/** Messages an executive sends that no scientific abstract answers. */
const UNRELATED = [
  "Draft an email to Anna about moving Thursday's board meeting to 3 pm",
  "Remind me to call the bank tomorrow morning",
  "Good morning, how are you today?",
  "Outline a presentation on our quarterly sales results",
  "What is the weather like in Zurich this weekend?",
  "Book a table for four at an Italian restaurant on Friday",
  "Summarise the key points of my meeting with the investors",
  "Write a thank-you note to the team for the product launch",
  "Can you find a flight from London to New York next Tuesday?",
  "Set a reminder to review the budget before the end of the month",
  "Please translate this sentence into French: we are pleased to announce our results",
  "Who should I invite to the strategy offsite in June?",
];

const round = (value: number) => Math.round(value * 10_000) / 10_000;

async function main() {
  const all = loadSciFact(dataDir);
  const queries = limit ? all.queries.slice(0, limit) : all.queries;
  const temp = makeTempDir();
  const store = openStore({ dataDir: temp.dir });
  try {
    store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (1, 'eval', 'x', ?)").run(new Date().toISOString());
    const itemToDoc = new Map<number, string>();
    store.sqlite.transaction(() => {
      for (const doc of all.corpus) itemToDoc.set(ingestPlainDocument(store.sqlite, { userId: 1, name: doc.title, text: doc.text }), doc.id);
    })();
    const service = benchRetrieval(store.sqlite);
    const context = (text: string) => service.search({ userId: 1, query: text, limit: CONTEXT_SNIPPETS });

    const relevantScores: number[] = [];
    const irrelevantScores: number[] = [];
    let queriesWithRelevant = 0;
    const bestRelevantPerQuery: number[] = [];
    for (const query of queries) {
      const relevant = all.qrels.get(query.id)!;
      let best = -1;
      for (const hit of await context(query.text)) {
        const isRelevant = relevant.has(itemToDoc.get(hit.metadata.file_id)!);
        (isRelevant ? relevantScores : irrelevantScores).push(hit.score);
        if (isRelevant) best = Math.max(best, hit.score);
      }
      if (best >= 0) {
        queriesWithRelevant++;
        bestRelevantPerQuery.push(best);
      }
    }
    const unrelatedScores: number[] = [];
    for (const text of UNRELATED) for (const hit of await context(text)) unrelatedScores.push(hit.score);

    const share = (scores: number[], threshold: number) => (scores.length === 0 ? 0 : scores.filter((score) => score >= threshold).length / scores.length);
    const byThreshold = THRESHOLDS.map((threshold) => ({
      threshold,
      relevant_kept: round(share(relevantScores, threshold)),
      queries_keeping_a_relevant_passage: round(share(bestRelevantPerQuery, threshold) * (queriesWithRelevant / queries.length)),
      irrelevant_dropped: round(1 - share(irrelevantScores, threshold)),
      unrelated_messages_passages: unrelatedScores.filter((score) => score >= threshold).length,
    }));
    const quantile = (scores: number[], q: number) => round([...scores].sort((a, b) => a - b)[Math.floor((scores.length - 1) * q)] ?? 0);
    console.log(
      JSON.stringify(
        {
          dataset: limit ? `scifact-train (first ${queries.length} queries)` : "scifact-train",
          search: "lexical (no embedder in the eval)",
          queries: queries.length,
          queries_with_a_relevant_passage_in_context: queriesWithRelevant,
          relevant_passage_scores: { p5: quantile(relevantScores, 0.05), p10: quantile(relevantScores, 0.1), median: quantile(relevantScores, 0.5) },
          irrelevant_passage_scores: { median: quantile(irrelevantScores, 0.5), p90: quantile(irrelevantScores, 0.9) },
          unrelated_message_scores: { count: unrelatedScores.length, max: round(Math.max(0, ...unrelatedScores)), median: quantile(unrelatedScores, 0.5) },
          by_threshold: byThreshold,
        },
        null,
        2,
      ),
    );
  } finally {
    await store.close();
    temp.remove();
  }
}

await main();
