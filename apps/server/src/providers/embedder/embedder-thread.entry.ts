// Runs in a worker thread (embedder-in-thread.ts starts it): makes the remote embedder named in workerData and
// answers each request with one Float32Array holding every vector, its buffer transferred rather than copied.
import { parentPort, workerData } from "node:worker_threads";
import type { Embedder } from "./embedder.ts";
import { createGeminiEmbedder } from "./gemini.ts";
import { createOpenAiCompatibleEmbedder } from "./openai-compatible.ts";
import type { EmbedRequest, EmbedReply, RemoteEmbedderSpec } from "./embedder-in-thread.ts";

const spec = workerData as RemoteEmbedderSpec;
const embedder: Embedder = spec.kind === "gemini" ? createGeminiEmbedder(spec.options) : createOpenAiCompatibleEmbedder(spec.options);

parentPort!.on("message", async ({ id, texts, kind }: EmbedRequest) => {
  let reply: EmbedReply;
  try {
    const vectors = await embedder.embed(texts, { kind });
    const dimensions = vectors[0]?.length ?? 0;
    const flat = new Float32Array(vectors.length * dimensions);
    vectors.forEach((vector, index) => flat.set(vector, index * dimensions));
    reply = { id, dimensions, flat };
    parentPort!.postMessage(reply, [flat.buffer]);
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
    parentPort!.postMessage(reply);
  }
});
