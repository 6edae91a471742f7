// A deterministic synthetic corpus that behaves like real text for an index: a Zipf-distributed vocabulary
// (English stopwords at the head, 30k pseudo-words behind), files about topics whose words cluster, and
// embeddings that are dense and topic-clustered (as a real model's are) rather than one-hot bags of words.
import { createHash } from "node:crypto";
import { rng } from "./seed-chunks.mjs";

const STOPWORDS =
  "the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you were her she there been one all we their has would when if so no will more".split(
    " ",
  );
const SYLLABLES = "ka lo ri men ta vo sel du pra nik bel tor ran shi quo ve lam dor fe gus hal ix om pet ru sa ti un wen yor zel ba ce di fo gri".split(" ");
const VOCABULARY_SIZE = 30_000;
const TOPICS = 300;
const TOPIC_WORDS = 40;
const TOPIC_SHARE = 0.2;

function buildVocabulary() {
  const random = rng(7);
  const words = [...STOPWORDS];
  const seen = new Set(words);
  while (words.length < VOCABULARY_SIZE) {
    const syllables = 2 + Math.floor(random() * 3);
    let word = "";
    for (let i = 0; i < syllables; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  // Zipf (s = 1): the cumulative distribution, sampled by binary search.
  const cdf = new Float64Array(words.length);
  let total = 0;
  for (let rank = 0; rank < words.length; rank++) cdf[rank] = total += 1 / (rank + 1);
  for (let rank = 0; rank < words.length; rank++) cdf[rank] /= total;
  const topics = [];
  const wordTopic = new Map();
  for (let t = 0; t < TOPICS; t++) {
    const own = [];
    while (own.length < TOPIC_WORDS) {
      const word = words[500 + Math.floor(random() * 19_500)];
      if (wordTopic.has(word)) continue;
      wordTopic.set(word, t);
      own.push(word);
    }
    topics.push(own);
  }
  return { words, cdf, topics, wordTopic };
}

let vocabulary;
const vocab = () => (vocabulary ??= buildVocabulary());

function zipfWord(random) {
  const { words, cdf } = vocab();
  const target = random();
  let low = 0;
  let high = cdf.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (cdf[mid] < target) low = mid + 1;
    else high = mid;
  }
  return words[low];
}

/** A ~`chars`-character passage about `topic`: sentences of 8-20 words, a fifth of them topic words. */
export function passage(random, topic, chars = 950) {
  const own = vocab().topics[topic];
  let text = "";
  while (text.length < chars) {
    const length = 8 + Math.floor(random() * 13);
    const sentence = [];
    for (let i = 0; i < length; i++) sentence.push(random() < TOPIC_SHARE ? own[Math.floor(random() * own.length)] : zipfWord(random));
    sentence[0] = sentence[0][0].toUpperCase() + sentence[0].slice(1);
    text += (text ? (random() < 0.15 ? "\n\n" : " ") : "") + sentence.join(" ") + ".";
  }
  return text;
}

export const VECTOR_PROBE = "vectorprobe";

/** The text the vectorizer would embed for a search store's first chunk (search-store.mjs seeds from rng(42)). */
export function firstChunkText() {
  return `${fileName(0)}\n${passage(rng(42), fileTopic(0))}`;
}

export const fileTopic = (fileIndex) => (fileIndex * 7919) % TOPICS;
export const fileName = (fileIndex) => `${vocab().topics[fileTopic(fileIndex)][fileIndex % TOPIC_WORDS]}-notes-${fileIndex}.txt`;

/** `count` search queries of 2-4 words: topic words, a mid-frequency word, sometimes a stopword. */
export function queries(count, seed = 99) {
  const random = rng(seed);
  const { words, topics } = vocab();
  const out = [];
  for (let q = 0; q < count; q++) {
    const own = topics[Math.floor(random() * TOPICS)];
    const parts = [own[Math.floor(random() * own.length)], own[Math.floor(random() * own.length)], words[100 + Math.floor(random() * 3000)]];
    if (random() < 0.5) parts.splice(1, 0, STOPWORDS[Math.floor(random() * 10)]);
    if (random() < 0.3) parts.push(own[Math.floor(random() * own.length)]);
    out.push(parts.join(" "));
  }
  return out;
}

const centroids = new Map();
function gaussian(random) {
  return Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
}
function centroid(topic, dimensions) {
  const key = `${topic}:${dimensions}`;
  let vector = centroids.get(key);
  if (!vector) {
    const random = rng(1000 + topic * 31 + dimensions);
    vector = new Float32Array(dimensions);
    for (let i = 0; i < dimensions; i++) vector[i] = gaussian(random);
    normalizeInPlace(vector);
    centroids.set(key, vector);
  }
  return vector;
}
function normalizeInPlace(vector) {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < vector.length; i++) vector[i] /= norm;
  return vector;
}

/**
 * The bench's embedding model: the mix of the topics whose words the text uses, plus text-seeded noise, unit
 * length. Same-topic texts land at cosine ~0.5-0.8, unrelated ones near 0, like a real model's.
 */
export function embedText(text, dimensions) {
  // The probe is in no chunk (BM25 finds nothing) but embeds exactly as the store's first chunk: a search for
  // it finds something only once the vector index answers.
  if (text.trim() === VECTOR_PROBE) return embedText(firstChunkText(), dimensions);
  const { wordTopic } = vocab();
  const weights = new Map();
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const topic = wordTopic.get(word);
    if (topic !== undefined) weights.set(topic, (weights.get(topic) ?? 0) + 1);
  }
  const vector = new Float32Array(dimensions);
  const random = rng(createHash("sha1").update(text).digest().readInt32BE(0));
  const noise = 0.9 / Math.sqrt(dimensions);
  for (let i = 0; i < dimensions; i++) vector[i] = gaussian(random) * noise;
  let total = 0;
  for (const weight of weights.values()) total += weight;
  for (const [topic, weight] of weights) {
    const center = centroid(topic, dimensions);
    for (let i = 0; i < dimensions; i++) vector[i] += (center[i] * weight) / total;
  }
  return normalizeInPlace(vector);
}
