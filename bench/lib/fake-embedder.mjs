// An embedding server for the bench, speaking both Gemini's REST embeddings (embedContent, batchEmbedContents)
// and OpenAI's POST /v1/embeddings, with the bench corpus's topic-clustered model (corpus.mjs embedText).
// `delayMs` makes every call take that long from arrival (the vectors are computed during the wait), so an
// embedder-bound job's ideal time is exactly calls x delayMs.
import { createServer } from "node:http";
import { embedText } from "./corpus.mjs";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Env for a SAGE server embedding at `dimensions` (768: Gemini; 384: an OpenAI-compatible model) from `origin`. */
export function embedderEnv(origin, dimensions) {
  if (dimensions === 768) return { SAGE_EMBEDDER: "gemini", GEMINI_API_KEY: "bench", GEMINI_BASE_URL: `${origin}/v1beta` };
  return { SAGE_EMBEDDER: "openai-compatible", SAGE_LLM_BASE_URL: `${origin}/v1`, SAGE_EMBEDDING_MODEL: `bench-${dimensions}`, GEMINI_API_KEY: "" };
}

/**
 * A dense unit vector from a cheap generator seeded by the text: as big on the wire as a real embedding, at a
 * fraction of the cost of the corpus model, for scenarios that measure throughput and not what a search finds.
 */
function seededVector(text, dimensions) {
  let seed = 2166136261;
  for (let index = 0; index < text.length; index++) seed = Math.imul(seed ^ text.charCodeAt(index), 16777619) >>> 0;
  const vector = new Float64Array(dimensions);
  let norm = 0;
  for (let index = 0; index < dimensions; index++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    vector[index] = seed / 4294967296 - 0.5;
    norm += vector[index] * vector[index];
  }
  norm = Math.sqrt(norm) || 1;
  return Array.from(vector, (value) => Math.round((value / norm) * 1e6) / 1e6);
}

export async function startFakeEmbedder({ delayMs = 0, openAiDimensions = 384, seededVectors = false } = {}) {
  const calls = [];
  const server = createServer(async (request, response) => {
    const arrivedAt = performance.now();
    const parts = [];
    for await (const part of request) parts.push(part);
    const body = JSON.parse(Buffer.concat(parts).toString("utf8") || "{}");
    const url = new URL(request.url, "http://fake");
    const textOf = (content) => (content?.parts ?? []).map((part) => part.text ?? "").join(" ");
    const values = seededVectors
      ? (text, dimensions) => seededVector(text, dimensions ?? 768)
      : (text, dimensions) => Array.from(embedText(text, dimensions ?? 768), (value) => Math.round(value * 1e6) / 1e6);
    let payload;
    let texts;
    if (url.pathname.endsWith(":batchEmbedContents")) {
      texts = body.requests?.length ?? 0;
      payload = { embeddings: (body.requests ?? []).map((item) => ({ values: values(textOf(item.content), item.outputDimensionality) })) };
    } else if (url.pathname.endsWith(":embedContent")) {
      texts = 1;
      payload = { embedding: { values: values(textOf(body.content), body.outputDimensionality) } };
    } else if (url.pathname === "/v1/embeddings") {
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      texts = inputs.length;
      payload = {
        object: "list",
        model: body.model,
        data: inputs.map((text, index) => ({ object: "embedding", index, embedding: values(text, openAiDimensions) })),
        usage: { prompt_tokens: texts, total_tokens: texts },
      };
    } else {
      response.writeHead(404, { "content-type": "application/json" });
      return response.end(JSON.stringify({ error: { message: `Unknown route ${url.pathname}` } }));
    }
    const json = JSON.stringify(payload);
    const wait = delayMs - (performance.now() - arrivedAt);
    if (wait > 0) await sleep(wait);
    calls.push({ texts, arrivedAt, answeredAt: performance.now() });
    response.writeHead(200, { "content-type": "application/json" });
    response.end(json);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    calls,
    envFor: (dimensions) => embedderEnv(origin, dimensions),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The same fake in a process of its own: computing 100 x 768 numbers takes it 20-85 ms a call, which in the bench's
 * process competed with the bench's own polling; a remote embedder costs the machine nothing. `calls()` answers
 * the calls it has seen so far.
 */
export async function startFakeEmbedderProcess(options = {}) {
  const { fork } = await import("node:child_process");
  const child = fork(new URL("./fake-embedder-child.mjs", import.meta.url), [JSON.stringify(options)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const { origin } = await new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`the fake embedder exited ${code}`)));
  });
  const ask = (request) =>
    new Promise((resolve) => {
      child.once("message", resolve);
      child.send(request);
    });
  return {
    origin,
    envFor: (dimensions) => embedderEnv(origin, dimensions),
    calls: async () => (await ask("calls")).calls,
    close: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.send("close");
      await exited;
    },
  };
}
