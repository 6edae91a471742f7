import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Embedder } from "./embedder.ts";

/** Where a local model can be found: an explicit folder, or the data dir's cache of a Hugging Face id. */
export function resolveLocalModel(model: string, dataDir: string): { folder: string; cached: boolean } {
  if (path.isAbsolute(model) || model.startsWith(".")) {
    const folder = path.resolve(model);
    return { folder, cached: hasOnnxModel(folder) };
  }
  const folder = path.join(dataDir, "models", model);
  return { folder, cached: hasOnnxModel(folder) };
}

function hasOnnxModel(folder: string): boolean {
  return existsSync(path.join(folder, "config.json")) && (existsSync(path.join(folder, "onnx", "model.onnx")) || existsSync(path.join(folder, "onnx", "model_quantized.onnx")));
}

const TRANSFORMERS_PACKAGE = "@huggingface/transformers";

interface TransformersModule {
  env: { allowLocalModels: boolean; allowRemoteModels: boolean; localModelPath: string; cacheDir: string };
  pipeline(task: string, model: string, options: object): Promise<unknown>;
}

// BGE models are trained with this instruction on queries (not on passages) and CLS pooling.
const BGE_QUERY_PREFIX = "Represent this sentence for searching relevant passages: ";

/**
 * A local ONNX sentence-embedding model through transformers.js, loaded once on first use. With `allowDownload`
 * a Hugging Face id missing from the data dir is fetched into it (only when the machine is online).
 */
export function createLocalEmbedder(options: { model: string; dataDir: string; allowDownload: boolean }): Embedder {
  const { folder } = resolveLocalModel(options.model, options.dataDir);
  const name = path.basename(options.model);
  const isBge = /bge/i.test(options.model);
  let dimensions = readHiddenSize(folder);
  let extractor: Promise<(texts: string[], options: object) => Promise<{ tolist(): number[][] }>> | null = null;

  function load() {
    extractor ??= (async () => {
      // Optional dependency (its ONNX runtime is large): `npm install @huggingface/transformers` to enable.
      const transformers = (await import(TRANSFORMERS_PACKAGE)) as TransformersModule;
      transformers.env.allowLocalModels = true;
      transformers.env.allowRemoteModels = options.allowDownload;
      transformers.env.localModelPath = path.dirname(folder);
      transformers.env.cacheDir = path.join(options.dataDir, "models");
      const modelPath = path.isAbsolute(options.model) || options.model.startsWith(".") ? path.basename(folder) : options.model;
      const pipe = await transformers.pipeline("feature-extraction", modelPath, { dtype: "fp32" });
      dimensions = readHiddenSize(folder) || dimensions;
      return pipe as unknown as (texts: string[], options: object) => Promise<{ tolist(): number[][] }>;
    })();
    extractor.catch(() => {
      extractor = null;
    });
    return extractor;
  }

  return {
    id: `local:${name}`,
    get dimensions() {
      return dimensions;
    },
    maxBatch: 32,
    async embed(texts, { kind }) {
      if (texts.length === 0) return [];
      const pipe = await load();
      const inputs = kind === "query" && isBge ? texts.map((text) => BGE_QUERY_PREFIX + text) : texts;
      const output = await pipe(inputs, { pooling: isBge ? "cls" : "mean", normalize: true });
      const vectors = output.tolist();
      if (vectors[0]) dimensions = vectors[0].length;
      return vectors;
    },
  };
}

function readHiddenSize(folder: string): number {
  try {
    const config = JSON.parse(readFileSync(path.join(folder, "config.json"), "utf8")) as { hidden_size?: number };
    return config.hidden_size ?? 0;
  } catch {
    return 0;
  }
}
