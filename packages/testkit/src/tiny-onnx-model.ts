import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { FLOAT, INT64, initializer, model, node, valueInfo } from "./tiny-onnx-model-proto.ts";

export interface TinyOnnxModelOptions {
  /** Width of every token vector (the model's hidden_size). */
  hiddenSize?: number;
  /** Groups of words about one topic: they share most of their vector, so a query can match a synonym. */
  topics?: string[][];
  /** Further words, each with a vector of its own. Anything else is [UNK]. */
  words?: string[];
}

/** Topics and words of the default vocabulary; tests may pass their own. */
export const TINY_MODEL_TOPICS = [
  ["car", "automobile", "vehicle", "engine", "tyres", "road", "driving", "garage"],
  ["bread", "baking", "flour", "oven", "dough", "yeast", "kitchen", "recipe"],
  ["star", "planet", "telescope", "galaxy", "orbit", "astronomy", "comet", "moon"],
  ["money", "bank", "loan", "interest", "savings", "budget", "finance", "invoice"],
];
export const TINY_MODEL_WORDS = ["the", "a", "of", "and", "to", "in", "is", "my", "for", "on", "with", "notes", "txt", "md"];

const SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];

/**
 * Writes a tiny BERT-like sentence-embedding model that transformers.js loads like a real export: config.json,
 * tokenizer.json (WordPiece) + tokenizer_config.json, and onnx/model.onnx. The graph looks each token up in an
 * embedding table and adds the masked sum of the sequence to every position, so both mean pooling and CLS
 * pooling give the (weighted) bag of words: texts sharing words or topics come out close. Weights derive from
 * the words themselves, so the same word always gets the same vector.
 */
export function writeTinyOnnxModel(folder: string, options: TinyOnnxModelOptions = {}): { folder: string; hiddenSize: number; vocab: string[] } {
  const hiddenSize = options.hiddenSize ?? 32;
  const topics = options.topics ?? TINY_MODEL_TOPICS;
  const words = options.words ?? TINY_MODEL_WORDS;
  const topicOf = new Map<string, number>();
  topics.forEach((group, index) => group.forEach((word) => topicOf.set(word.toLowerCase(), index)));
  const vocab = [...new Set([...SPECIAL_TOKENS, ...topics.flat(), ...words].map((word) => (word.startsWith("[") ? word : word.toLowerCase())))];

  const rows = vocab.map((token) => {
    if (token === "[PAD]") return new Array<number>(hiddenSize).fill(0);
    // Special tokens and unknown words weigh little, as in a trained model where they carry no topic.
    if (token.startsWith("[")) return unitVector(token, hiddenSize).map((value) => value * 0.1);
    const own = unitVector(`word:${token}`, hiddenSize);
    const topic = topicOf.get(token);
    if (topic === undefined) return own;
    const shared = unitVector(`topic:${topic}`, hiddenSize);
    return own.map((value, index) => 0.8 * shared[index]! + 0.6 * value);
  });

  mkdirSync(path.join(folder, "onnx"), { recursive: true });
  writeFileSync(
    path.join(folder, "config.json"),
    JSON.stringify({ architectures: ["BertModel"], model_type: "bert", hidden_size: hiddenSize, vocab_size: vocab.length, max_position_embeddings: 512 }),
  );
  writeFileSync(path.join(folder, "tokenizer.json"), JSON.stringify(tokenizerJson(vocab)));
  writeFileSync(
    path.join(folder, "tokenizer_config.json"),
    JSON.stringify({
      tokenizer_class: "BertTokenizer",
      do_lower_case: true,
      model_max_length: 512,
      pad_token: "[PAD]",
      unk_token: "[UNK]",
      cls_token: "[CLS]",
      sep_token: "[SEP]",
      mask_token: "[MASK]",
    }),
  );
  writeFileSync(path.join(folder, "onnx", "model.onnx"), onnxGraph(rows, hiddenSize));
  return { folder, hiddenSize, vocab };
}

/** A deterministic +-1/sqrt(n) vector derived from `seed`. */
function unitVector(seed: string, size: number): number[] {
  const bits: number[] = [];
  for (let block = 0; bits.length < size; block++) {
    for (const byte of createHash("sha256").update(`${seed}#${block}`).digest()) for (let bit = 0; bit < 8; bit++) bits.push((byte >> bit) & 1);
  }
  return bits.slice(0, size).map((bit) => (bit ? 1 : -1) / Math.sqrt(size));
}

function onnxGraph(rows: number[][], hiddenSize: number): Uint8Array {
  return model(
    {
      name: "tiny-sentence-embedder",
      fields: [
        node("Gather", ["embeddings", "input_ids"], ["tokens"]),
        node("Cast", ["attention_mask"], ["mask"], { to: FLOAT }),
        node("Unsqueeze", ["mask", "last_axis"], ["mask_3d"]),
        node("Mul", ["tokens", "mask_3d"], ["masked"]),
        node("ReduceSum", ["masked", "sequence_axis"], ["context"]), // keepdims=1: [batch, 1, hidden]
        node("Add", ["tokens", "context"], ["last_hidden_state"]),
        initializer("embeddings", FLOAT, [rows.length, hiddenSize], rows.flat()),
        initializer("last_axis", INT64, [1], [2]),
        initializer("sequence_axis", INT64, [1], [1]),
        valueInfo(11, "input_ids", INT64, ["batch_size", "sequence_length"]),
        valueInfo(11, "attention_mask", INT64, ["batch_size", "sequence_length"]),
        valueInfo(12, "last_hidden_state", FLOAT, ["batch_size", "sequence_length", hiddenSize]),
      ],
    },
    13,
  );
}

/** A Hugging Face tokenizers file for a lower-casing BERT WordPiece tokenizer over `vocab`. */
function tokenizerJson(vocab: string[]) {
  const id = (token: string) => vocab.indexOf(token);
  const special = (token: string) => ({ SpecialToken: { id: token, type_id: 0 } });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((token) => ({
      id: id(token),
      content: token,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [special("[CLS]"), { Sequence: { id: "A", type_id: 0 } }, special("[SEP]")],
      pair: [
        special("[CLS]"),
        { Sequence: { id: "A", type_id: 0 } },
        special("[SEP]"),
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(["[CLS]", "[SEP]"].map((token) => [token, { id: token, ids: [id(token)], tokens: [token] }])),
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((token, index) => [token, index])),
    },
  };
}
