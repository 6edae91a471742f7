import type { Config } from "../../config.ts";
import type { Embedder } from "./embedder.ts";
import { embedderInThread } from "./embedder-in-thread.ts";
import { createGeminiEmbedder } from "./gemini.ts";
import { createLocalEmbedder, resolveLocalModel } from "./local.ts";
import { createOpenAiCompatibleEmbedder } from "./openai-compatible.ts";

export interface EmbedderSetup {
  /** null: search is lexical only. */
  embedder: Embedder | null;
  /** One line for the start-up log and the settings page. */
  description: string;
}

/**
 * Picks the embedder from config. 'auto' takes the best one available without any network probe: Gemini with a
 * key, an OpenAI-compatible server with SAGE_EMBEDDING_MODEL, a local model already in the data dir, else none.
 * Never throws: a missing piece means lexical search, said plainly.
 */
export function createEmbedder(config: Pick<Config, "embedder" | "llm" | "dataDir">): EmbedderSetup {
  const { kind, model, localModel } = config.embedder;
  // Remote embedders answer batches in a worker thread (embedder-in-thread.ts): parsing their replies stays off
  // the server's thread. The one made here answers the small calls (a search's query) itself.
  const gemini = () => {
    if (!config.llm.geminiApiKey) return none("Gemini embeddings need GEMINI_API_KEY");
    const options = { apiKey: config.llm.geminiApiKey, baseUrl: config.llm.geminiBaseUrl, modelId: model };
    const direct = createGeminiEmbedder(options);
    return setup(embedderInThread({ kind: "gemini", id: direct.id, dimensions: direct.dimensions, maxBatch: direct.maxBatch, options }, direct));
  };
  const openAi = () => {
    if (!config.llm.baseUrl || !model) return none("OpenAI-compatible embeddings need SAGE_LLM_BASE_URL and SAGE_EMBEDDING_MODEL");
    const options = { baseUrl: config.llm.baseUrl, apiKey: config.llm.apiKey, modelId: model };
    const direct = createOpenAiCompatibleEmbedder(options);
    return setup(embedderInThread({ kind: "openai-compatible", id: direct.id, dimensions: direct.dimensions, maxBatch: direct.maxBatch, options }, direct));
  };
  const local = (allowDownload: boolean) => {
    const resolved = resolveLocalModel(localModel, config.dataDir);
    // A folder is used as it is; only a Hugging Face id can be downloaded (into the data dir) on first use.
    if (!resolved.cached && (resolved.explicit || !allowDownload)) {
      return none(`no local ONNX model in ${resolved.folder} (it needs config.json, tokenizer.json and onnx/model.onnx)`);
    }
    const embedder = createLocalEmbedder({ model: localModel, dataDir: config.dataDir, allowDownload });
    return resolved.cached ? setup(embedder) : { embedder, description: `local:${localModel} (downloaded into ${resolved.folder} on first use)` };
  };

  switch (kind) {
    case "none":
      return none("SAGE_EMBEDDER=none");
    case "gemini":
      return gemini();
    case "openai-compatible":
      return openAi();
    case "local":
      return local(true);
    case "auto": {
      if (config.llm.geminiApiKey) return gemini();
      if (config.llm.baseUrl && model) return openAi();
      return local(false);
    }
  }
}

function setup(embedder: Embedder): EmbedderSetup {
  return { embedder, description: embedder.id };
}

function none(reason: string): EmbedderSetup {
  return { embedder: null, description: `none (lexical search only: ${reason})` };
}
