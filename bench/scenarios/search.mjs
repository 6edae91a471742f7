import path from "node:path";
import { figure, percentile, round } from "../lib/figure.mjs";
import { passage, queries } from "../lib/corpus.mjs";
import { startFakeEmbedder } from "../lib/fake-embedder.mjs";
import { postJson } from "../lib/post-json.mjs";
import { openInProcess, savedIndexFor } from "../lib/search-limit.mjs";
import { buildMissingIndexes, waitForVectorIndex } from "../lib/vector-index-ready.mjs";
import { searchStore } from "../lib/search-store.mjs";
import { memoryOf, ROOT, startChild, startSage } from "../lib/server.mjs";
import { rng } from "../lib/seed-chunks.mjs";
import { waitUntilQuiet } from "../lib/settle.mjs";

const BARE_SEARCH = path.join(ROOT, "bench/lib/bare-search-server.mjs");
const QUERIES = 50;
const SEARCH_CANDIDATES = 40; // retrieval.service: max(limit x 4, 40) with the default limit 5
const RECOMMEND_CANDIDATES = 80; // recommend asks searchChunks for max(limit x 4, 20) = 20 chunks -> 80 candidates

/** Sentences like a conversation message, the input recommendations get. */
function messages(count) {
  const random = rng(123);
  return Array.from({ length: count }, (_, index) => passage(random, (index * 37) % 300, 160).split(/(?<=\.)\s/)[0]);
}

async function timeOnce(run, item) {
  const startedAt = performance.now();
  await run(item);
  return performance.now() - startedAt;
}

async function timeEach(items, rounds, run) {
  const ms = [];
  for (let round = 0; round < rounds; round++) for (const item of items) ms.push(await timeOnce(run, item));
  return ms;
}

const stats = (ms) => ({ p50: percentile(ms, 50), p95: percentile(ms, 95) });

/**
 * Hybrid search (BM25 over FTS5 fused with HNSW vectors) on a synthetic store, in-process (the service called
 * directly) and over HTTP (POST /api/search on the built server); the limit is the bare ANN (on the very index
 * the service loaded) plus the bare FTS5 query on the same store. At 10k files the run also measures
 * POST /api/recommend-files. Searches are timed only once the vector index answers.
 */
export async function search({ quick, scales: given }) {
  const scales =
    given ??
    (quick
      ? [{ files: 1000, dimensions: [384] }]
      : [
          { files: 1000, dimensions: [384, 768] },
          { files: 10_000, dimensions: [384, 768] },
        ]);
  const rounds = quick ? 2 : 4;
  const searchQueries = queries(QUERIES);
  const recommendQueries = messages(QUERIES);
  const out = [];
  const fake = await startFakeEmbedder();
  try {
    for (const scale of scales) {
      const chunks = scale.files * 10;
      const dataDir = await searchStore({ files: scale.files, chunksPerFile: 10, dimensions: scale.dimensions });
      await buildMissingIndexes(dataDir, scale.dimensions);
      for (const dimensions of scale.dimensions) {
        const params = { chunks, files: scale.files, dimensions, queries: QUERIES, rounds };
        const withRecommend = scale.files >= 10_000 || quick;

        // In-process: the service on the index it loaded (and the limit on that same index); then the built server.
        const local = await openInProcess(dataDir, dimensions);
        const localIndex = await local.warm();
        for (const query of searchQueries) await local.search(query);
        const recallAt10 = local.recall(searchQueries);
        const savedIndex = savedIndexFor(dataDir, dimensions);
        const spawnedAt = performance.now();
        const sage = await startSage({ dataDir, env: fake.envFor(dimensions), label: "search" });
        const serviceMs = [];
        const limitMs = [];
        const recommendLimitMs = [];
        const idleLimitMs = [];
        const httpMs = [];
        const bareMs = [];
        // SAGE's time minus the bare server's for the same query at the same moment: the queries' own spread
        // (2-10 ms at 100k) cancels out, which the difference of two p50s leaves in.
        const pairedMs = [];
        const recommendMs = [];
        let bare;
        let indexReadyMs;
        let settledMs;
        let rssMb;
        try {
          const cookie = await sage.login();
          const searchOnce = (query) => postJson(`${sage.url}/api/search`, cookie, { query, limit: 5 });
          const recommendOnce = (text) => postJson(`${sage.url}/api/recommend-files`, cookie, { query_text: text, limit: 5 });
          await waitForVectorIndex(searchOnce);
          indexReadyMs = performance.now() - spawnedAt;
          // Just started, the server still loads its document reader (pdf.js) and more on the other core.
          settledMs = await waitUntilQuiet(sage.pid);
          for (const query of searchQueries) await searchOnce(query);
          if (withRecommend) for (const text of recommendQueries) await recommendOnce(text);
          bare = await startChild(BARE_SEARCH, [dataDir, String(dimensions)], { nodeArgs: ["--import", "tsx"] });
          const bareOnce = (query) => postJson(`${bare.url}/api/search`, "", { query, limit: 5 });
          await waitUntilQuiet(bare.pid);
          for (const query of searchQueries) await bareOnce(query);
          // Rounds alternate between the service in this process and the servers over HTTP, so both see the
          // machine in the same state (on this shared 2-core machine it drifts within a minute).
          for (let round = 0; round < rounds; round++) {
            for (const query of searchQueries) {
              serviceMs.push(await timeOnce(local.search, query));
              limitMs.push(local.bare(query, SEARCH_CANDIDATES).totalMs);
            }
            if (withRecommend) for (const text of recommendQueries) recommendLimitMs.push(local.bare(text, RECOMMEND_CANDIDATES).totalMs);
            // SAGE and the bare server answer each query in turn (which goes first alternates), so the difference
            // between them is taken in the same instants of this machine.
            for (const [index, query] of searchQueries.entries()) {
              const sageFirst = (index + round) % 2 === 0;
              const firstMs = await timeOnce(sageFirst ? searchOnce : bareOnce, query);
              const secondMs = await timeOnce(sageFirst ? bareOnce : searchOnce, query);
              const [sageMs, bareServerMs] = sageFirst ? [firstMs, secondMs] : [secondMs, firstMs];
              httpMs.push(sageMs);
              bareMs.push(bareServerMs);
              pairedMs.push(sageMs - bareServerMs);
            }
            if (withRecommend) recommendMs.push(...(await timeEach(recommendQueries, 1, recommendOnce)));
          }
          // The same bare queries, each after the process idled 1 ms, as a request over HTTP always finds it
          // (it waited for the request): reported beside the HTTP figures, not used as their limit.
          for (const query of searchQueries) {
            await new Promise((resolve) => setTimeout(resolve, 1));
            idleLimitMs.push(local.bare(query, SEARCH_CANDIDATES).totalMs);
          }
          rssMb = memoryOf(sage.pid).rssMb;
        } finally {
          await bare?.stop();
          await sage.stop();
          await local.close();
        }
        const limit = stats(limitMs);
        const idleLimit = stats(idleLimitMs);
        const service = stats(serviceMs);
        const http = stats(httpMs);
        const bareServer = stats(bareMs);
        const recommend = withRecommend ? stats(recommendMs) : null;

        const tag = chunks >= 1_000_000 ? `${chunks / 1_000_000}m_${dimensions}d` : `${chunks / 1000}k_${dimensions}d`;
        const detail = { ...params, limitP50Ms: round(limit.p50), limitP95Ms: round(limit.p95) };
        const idleDetail = { limitAfterIdleP50Ms: round(idleLimit.p50), limitAfterIdleP95Ms: round(idleLimit.p95) };
        out.push(
          figure({
            name: `search.http_p95.${tag}`,
            value: http.p95,
            unit: "ms",
            limit: limit.p95,
            better: "lower",
            target: chunks >= 1_000_000 ? "<= 30 ms" : chunks >= 100_000 ? "<= 20 ms and <= 2x limit" : null,
            params: { ...detail, ...idleDetail, p50Ms: round(http.p50), serverRssMb: round(rssMb, 0) },
          }),
          // The p50 over HTTP is printed without its 2x target (decision 021): the least server around the same search
          // is already at 1.8x here (params.bareServerRatio), so what it measured beyond the service was this machine's
          // round trip. Its parts are held instead: the service's p50 within 2x, SAGE's HTTP layer within 0.5 ms.
          figure({
            name: `search.http_p50.${tag}`,
            value: http.p50,
            unit: "ms",
            limit: limit.p50,
            better: "lower",
            target: null,
            params: { ...detail, ...idleDetail, bareServerP50Ms: round(bareServer.p50), bareServerRatio: round(bareServer.p50 / limit.p50) },
          }),
          figure({
            name: `search.service_p95.${tag}`,
            value: service.p95,
            unit: "ms",
            limit: limit.p95,
            better: "lower",
            target: "<= 2x limit",
            params: { ...detail, p50Ms: round(service.p50) },
          }),
          figure({
            name: `search.service_p50.${tag}`,
            value: service.p50,
            unit: "ms",
            limit: limit.p50,
            better: "lower",
            target: "<= 2x limit",
            params: detail,
          }),
          // What a search over HTTP costs beyond the same service called in-process: the target that replaced "2x the
          // bare limit" at 10k. Its limit is what the least server around the same search adds (bare-search-server.mjs).
          figure({
            name: `search.http_added_p50.${tag}`,
            value: http.p50 - service.p50,
            unit: "ms",
            limit: bareServer.p50 - service.p50,
            better: "lower",
            target: null,
            params: {
              httpP50Ms: round(http.p50),
              serviceP50Ms: round(service.p50),
              bareServerP50Ms: round(bareServer.p50),
              settledMs: round(settledMs, 0),
              ...idleDetail,
            },
          }),
          // SAGE's own part of it: the median of SAGE's time minus the bare server's for the same query, asked one
          // after the other. On this virtual machine the round trip alone takes 0.5 ms and more (docs/decisions/021).
          figure({
            name: `search.http_layer_p50.${tag}`,
            value: percentile(pairedMs, 50),
            unit: "ms",
            better: "lower",
            target: "<= 0.5 ms",
            params: {
              pairs: pairedMs.length,
              pairedP25Ms: round(percentile(pairedMs, 25)),
              pairedP75Ms: round(percentile(pairedMs, 75)),
              differenceOfP50sMs: round(http.p50 - bareServer.p50),
              httpP50Ms: round(http.p50),
              bareServerP50Ms: round(bareServer.p50),
              serviceP50Ms: round(service.p50),
            },
          }),
          // Issue 34's million: the server's memory with its index loaded, and what the ANN finds of the exact top 10.
          figure({
            name: `search.server_rss.${tag}`,
            value: rssMb,
            unit: "MB",
            better: "lower",
            target: chunks >= 1_000_000 ? "<= 2048 MB" : null,
            params,
          }),
          figure({
            name: `search.ann_recall_at_10.${tag}`,
            value: recallAt10,
            unit: "recall",
            better: "higher",
            target: chunks >= 1_000_000 ? ">= 0.95" : null,
            params: { ...params, note: "the service's vector search (ANN candidates rescored) against an exact scan of the table's vectors" },
          }),
          figure({
            name: `search.index_ready.${tag}`,
            value: indexReadyMs,
            unit: "ms",
            better: "lower",
            target: chunks >= 1_000_000 ? "<= 5000 ms" : null,
            params: {
              ...params,
              savedIndex,
              note: savedIndex
                ? "server spawn to vector hits, reading back the index saved by an earlier run"
                : "server spawn to vector hits, building the index from the table (BM25 answers meanwhile)",
              inProcessMs: round(localIndex.ms, 0),
              inProcessReadBack: localIndex.readBack,
            },
          }),
        );
        if (recommend) {
          const recommendLimit = stats(recommendLimitMs);
          out.push(
            figure({
              name: `recommend.http_p95.${tag}`,
              value: recommend.p95,
              unit: "ms",
              limit: recommendLimit.p95,
              better: "lower",
              target: "<= 30 ms",
              params: { ...params, p50Ms: round(recommend.p50), limitP50Ms: round(recommendLimit.p50), candidates: RECOMMEND_CANDIDATES },
            }),
          );
        }
        for (const item of out.filter((entry) => entry.name.endsWith(tag))) console.error(`#   ${item.name}: ${item.value} ${item.unit} (limit ${item.limit})`);
      }
    }
  } finally {
    await fake.close();
  }
  return out;
}
