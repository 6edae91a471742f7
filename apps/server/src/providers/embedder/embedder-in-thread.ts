import type { Worker } from "node:worker_threads";
import { startThread } from "../../entry-point.ts";
import type { Embedder } from "./embedder.ts";

/** A remote embedder, described so a worker thread can make it (the options are plain data). */
export type RemoteEmbedderSpec =
  | { kind: "gemini"; id: string; dimensions: number; maxBatch: number; options: { apiKey: string; baseUrl?: string; modelId?: string } }
  | { kind: "openai-compatible"; id: string; dimensions: number; maxBatch: number; options: { baseUrl: string; apiKey?: string; modelId: string } };

export interface EmbedRequest {
  id: number;
  texts: string[];
  kind: "query" | "document";
}

export type EmbedReply = { id: number; dimensions: number; flat: Float32Array; error?: undefined } | { id: number; error: string };

/**
 * Runs a remote embedder's HTTP calls in a worker thread. A reply of 100 vectors of 768 numbers is about 850 KB
 * of JSON, and the AI SDK parses and validates it number by number: 20-80 ms of the server's only thread per
 * batch, during which no request was answered. The thread starts on the first call and keeps the process alive
 * only while a call waits on it; if it dies, the calls waiting on it fail and the next call starts a new one.
 * A call of a few texts (a search's query) goes to `direct`, the same embedder on this thread: its reply parses in
 * well under a millisecond, and the two hops to the thread and back added 1.5 ms to every search.
 */
export function embedderInThread(spec: RemoteEmbedderSpec, direct: Embedder): Embedder {
  let worker: Worker | null = null;
  let nextId = 1;
  let dimensions = spec.dimensions;
  const waiting = new Map<number, { resolve(vectors: number[][]): void; reject(error: Error): void }>();

  function start(): Worker {
    const started = startThread(new URL("./embedder-thread.entry.ts", import.meta.url), { workerData: spec, resourceLimits: THREAD_HEAP });
    started.on("message", (reply: EmbedReply) => {
      const request = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (waiting.size === 0) started.unref();
      if (reply.error !== undefined) return request?.reject(new Error(reply.error));
      if (reply.dimensions > 0) dimensions = reply.dimensions;
      const vectors: number[][] = [];
      for (let offset = 0; offset < reply.flat.length; offset += reply.dimensions)
        vectors.push(Array.from(reply.flat.subarray(offset, offset + reply.dimensions)));
      request?.resolve(vectors);
    });
    const failAll = (reason: string) => {
      if (worker === started) worker = null;
      for (const [id, request] of waiting) {
        waiting.delete(id);
        request.reject(new Error(`The embedder stopped: ${reason}`));
      }
    };
    started.on("error", (error) => failAll(error.message));
    started.on("exit", (code) => failAll(`exit code ${code}`));
    return started;
  }

  return {
    id: spec.id,
    get dimensions() {
      return dimensions;
    },
    maxBatch: spec.maxBatch,
    async embed(texts, { kind }) {
      if (texts.length === 0) return [];
      if (texts.length <= DIRECT_MAX_TEXTS) {
        const vectors = await direct.embed(texts, { kind });
        if (vectors[0]?.length) dimensions = vectors[0].length;
        return vectors;
      }
      worker ??= start();
      worker.ref(); // a call waiting on it keeps the process alive; an idle thread does not
      const id = nextId++;
      const request: EmbedRequest = { id, texts, kind };
      return new Promise<number[][]>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker!.postMessage(request);
      });
    },
  };
}

/** Calls of up to this many texts are made on the server's thread. */
const DIRECT_MAX_TEXTS = 4;

/**
 * A reply of 100 x 768 numbers needs a few MB to parse. Left to V8's defaults, the thread's heap grew by 70-90 MB
 * during a large ingest before collecting; capped, it collects sooner.
 */
const THREAD_HEAP = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };
