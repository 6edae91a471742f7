import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Embedder } from "./embedder.ts";

export interface LocalModel {
  folder: string;
  /** True for a path given in SAGE_LOCAL_EMBEDDING_MODEL, false for a Hugging Face id cached in the data dir. */
  explicit: boolean;
  /** Which ONNX file is there: the full-precision export, else the quantised one; null when none is. */
  onnxFile: "model.onnx" | "model_quantized.onnx" | null;
}

/** Where a local model can be found: an explicit folder, or the data dir's cache of a Hugging Face id. */
export function resolveLocalModel(model: string, dataDir: string): LocalModel & { cached: boolean } {
  const explicit = path.isAbsolute(model) || model.startsWith(".");
  const folder = explicit ? path.resolve(model) : path.join(dataDir, "models", model);
  // transformers.js remembers for the whole process which files a model lacks, so a half-copied folder is
  // not taken: it would stay broken until a restart.
  const onnxFile =
    !existsSync(path.join(folder, "config.json")) || !existsSync(path.join(folder, "tokenizer.json"))
      ? null
      : existsSync(path.join(folder, "onnx", "model.onnx"))
        ? "model.onnx"
        : existsSync(path.join(folder, "onnx", "model_quantized.onnx"))
          ? "model_quantized.onnx"
          : null;
  return { folder, explicit, onnxFile, cached: onnxFile !== null };
}

// The package is imported on first use only: loading it and its ONNX runtime costs start-up time.
const TRANSFORMERS_PACKAGE = "@huggingface/transformers";

interface TransformersModule {
  env: { allowLocalModels: boolean; allowRemoteModels: boolean; localModelPath: string; cacheDir: string };
  pipeline(task: string, model: string, options: object): Promise<unknown>;
}
type Extractor = (texts: string[], options: { pooling: "mean" | "cls"; normalize: boolean }) => Promise<{ tolist(): number[][] }>;

// BGE models are trained with this instruction on queries (not on passages).
export const BGE_QUERY_PREFIX = "Represent this sentence for searching relevant passages: ";

/**
 * A local ONNX sentence-embedding model through transformers.js, loaded once on first use. With `allowDownload`
 * a Hugging Face id missing from the data dir is fetched into it (only works when the machine is online).
 * The id carries the dimensions, so a model swapped for another of a different size never shares vectors.
 */
export function createLocalEmbedder(options: { model: string; dataDir: string; allowDownload: boolean }): Embedder {
  const resolved = resolveLocalModel(options.model, options.dataDir);
  const name = path.basename(resolved.folder);
  const isBge = /bge/i.test(name);
  let dimensions = readHiddenSize(resolved.folder);
  let extractor: Promise<{ run: Extractor; pooling: "mean" | "cls" }> | null = null;

  function load() {
    extractor ??= (async () => {
      const transformers = (await import(TRANSFORMERS_PACKAGE)) as TransformersModule;
      const current = resolveLocalModel(options.model, options.dataDir);
      transformers.env.allowLocalModels = true;
      transformers.env.allowRemoteModels = options.allowDownload && !current.explicit;
      // A Hugging Face id is looked up (and cached when downloaded) under <dataDir>/models/<id>; an absolute
      // folder is not a valid id, so transformers.js reads it as a path.
      transformers.env.localModelPath = path.join(options.dataDir, "models");
      transformers.env.cacheDir = path.join(options.dataDir, "models");
      const run = (await transformers.pipeline("feature-extraction", current.explicit ? current.folder : options.model, {
        dtype: current.onnxFile === "model_quantized.onnx" ? "q8" : "fp32",
        // onnxruntime takes every core by default; on a small machine re-vectorising would then starve requests.
        session_options: { intraOpNumThreads: 1, interOpNumThreads: 1 },
      })) as Extractor;
      dimensions = readHiddenSize(current.folder) || dimensions;
      return { run, pooling: readPooling(current.folder) ?? (isBge ? "cls" : "mean") };
    })();
    // A failed load (no network for the download, a broken file) is retried on the next call.
    extractor.catch(() => {
      extractor = null;
    });
    return extractor;
  }

  return {
    get id() {
      return `local:${name}:${dimensions}`;
    },
    get dimensions() {
      return dimensions;
    },
    maxBatch: 32,
    async embed(texts, { kind }) {
      if (texts.length === 0) return [];
      const { run, pooling } = await load();
      const inputs = kind === "query" && isBge ? texts.map((text) => BGE_QUERY_PREFIX + text) : texts;
      const vectors = (await run(inputs, { pooling, normalize: true })).tolist();
      if (vectors[0]) dimensions = vectors[0].length;
      // normalize() divides by the norm: an all-zero output would come back as NaN, which no index should hold.
      return vectors.map((vector) => vector.map((value) => (Number.isFinite(value) ? value : 0)));
    },
  };
}

function readJson(file: string): Record<string, unknown> | null {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    return null;
  }
}

function readHiddenSize(folder: string): number {
  const size = readJson(path.join(folder, "config.json"))?.hidden_size;
  return typeof size === "number" ? size : 0;
}

/** The pooling a sentence-transformers export declares in 1_Pooling/config.json, if it ships one. */
function readPooling(folder: string): "mean" | "cls" | null {
  const pooling = readJson(path.join(folder, "1_Pooling", "config.json"));
  if (pooling?.pooling_mode_cls_token === true) return "cls";
  if (pooling?.pooling_mode_mean_tokens === true) return "mean";
  return null;
}
