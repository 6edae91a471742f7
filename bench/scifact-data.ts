import { readFileSync } from "node:fs";
import path from "node:path";

export interface SciFact {
  corpus: { id: string; title: string; text: string }[];
  queries: { id: string; text: string }[];
  /** query id -> relevant corpus ids */
  qrels: Map<string, Set<string>>;
}

/** Loads BEIR SciFact (train split) from the shared eval folder; it is never copied into the repo. */
export function loadSciFact(dir: string): SciFact {
  const lines = (file: string) =>
    readFileSync(path.join(dir, file), "utf8")
      .split("\n")
      .filter((line) => line.trim());
  const corpus = lines("corpus.jsonl").map((line) => {
    const row = JSON.parse(line) as { _id: string; title: string; text: string };
    return { id: row._id, title: row.title, text: row.text };
  });
  const qrels = new Map<string, Set<string>>();
  for (const line of lines("qrels/train.tsv").slice(1)) {
    const [queryId, corpusId, score] = line.split("\t");
    if (Number(score) <= 0) continue;
    if (!qrels.has(queryId)) qrels.set(queryId, new Set());
    qrels.get(queryId)!.add(corpusId);
  }
  const queries = lines("queries.jsonl")
    .map((line) => JSON.parse(line) as { _id: string; text: string })
    .filter((row) => qrels.has(row._id))
    .map((row) => ({ id: row._id, text: row.text }));
  return { corpus, queries, qrels };
}

/** Binary-relevance nDCG@k and recall@k of one ranked list. */
export function ndcgAt(ranked: string[], relevant: Set<string>, k: number): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, index) => {
    if (relevant.has(id)) dcg += 1 / Math.log2(index + 2);
  });
  let ideal = 0;
  for (let index = 0; index < Math.min(k, relevant.size); index++) ideal += 1 / Math.log2(index + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

export function recallAt(ranked: string[], relevant: Set<string>, k: number): number {
  const top = new Set(ranked.slice(0, k));
  let found = 0;
  for (const id of relevant) if (top.has(id)) found++;
  return relevant.size === 0 ? 0 : found / relevant.size;
}
