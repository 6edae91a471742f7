import { closeSync, existsSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { crc32 } from "node:zlib";
import { Index, MetricKind, ScalarKind } from "usearch";

/** Below this many vectors a partition is searched exactly; at and above it, through HNSW. */
export const HNSW_THRESHOLD = 2000;
/** A scope at most this large is searched exactly even in an HNSW partition (a filtered ANN degrades when narrow). */
const EXACT_SCOPE_LIMIT = 4000;
/**
 * The ANN holds each vector as int8 (decision 050): a quarter of float32's memory, so a million 768-d vectors take
 * about 1 GB with their graph instead of 3.3 GB. Its order is rough, so it only proposes candidates; they are scored
 * again with the stored float vectors. The search expansion is the number of candidates asked for (usearch searches
 * with the larger of the two), so it is set low here and the candidates grow with the partition instead.
 */
export const ANN_CONFIG = {
  // Cosine equals the inner product on unit vectors; usearch's int8 keeps far more of it under cosine (inner product
  // saturated: 5,000 close 8-d vectors lost half their own nearest match among 41 candidates, cosine none).
  metric: MetricKind.Cos,
  quantization: ScalarKind.I8,
  connectivity: 32,
  expansion_add: 128,
  expansion_search: 32,
  multi: false,
};
/**
 * Candidates the ANN proposes for k results in a partition of `size`: enough that rescoring finds the true top k.
 * Each costs a row read from the table (about 22 us: a float32 vector spills to overflow pages). On the bench's
 * vectors: 50 for a search's 40 gave recall@10 1.0 at 100k; at a million, for k = 10, 30 gave 0.80, 120 gave 0.934
 * and 200 gave 0.976 (decision 050).
 */
export const candidatesFor = (k: number, size: number) => (size > 250_000 ? Math.max(3 * k, 200) : k + 10);

export type ScopeFilter = { conversationId?: number | null };
/** A graph file as the members' file vouches for it. */
type GraphFile = { bytes: number; crc32: number };
/** What a saved partition's `.json` holds. Members are base64 float64 pairs (chunk id, conversation id or -1). */
type SavedMeta = {
  dimensions: number;
  graph?: GraphFile;
  delta?: GraphFile;
  members: string | [number, number | null][];
  deltaMembers?: string;
};
/** The stored float vectors of these chunks (the chunk_vectors table); a chunk it lacks is gone. */
export type VectorSource = (chunkIds: number[]) => Map<number, Float32Array>;

/**
 * The in-memory index of one user's vectors from one embedder. Vectors are unit length, so inner product is cosine
 * similarity. Small partitions keep their float vectors and are searched exactly; large ones keep an int8 HNSW graph
 * and read float vectors from `source` only for the candidates they score. Labels are chunk ids; callers verify hits
 * against the table, so a chunk deleted behind the index's back (an FK cascade) is dropped there and forgotten here.
 */
export class VectorPartition {
  private readonly members = new Map<number, number | null>();
  private readonly byConversation = new Map<number | null, Set<number>>();
  private flat: Map<number, Float32Array> | null = new Map();
  /**
   * The saved graph read back at start-up, memory-mapped read-only (usearch `view`): 0.06 s at a million vectors
   * where reading it into memory took 1.4-3.5 s with the server's thread held (decision 052). What it holds of
   * removed members stays in it and is filtered out by `members`.
   */
  private base: { index: Index; file: string; graph: GraphFile; inode: number } | null = null;
  /** The HNSW graph that takes additions: every vector when built here, or only those since `base` was read. */
  private ann: Index | null = null;
  /** Float vectors read from the source for exact scope searches and rescoring; bounded to two scopes' worth. */
  private readonly floatCopies = new Map<number, Float32Array>();
  /** Changed since it was last saved or read back: only then is it worth rewriting (about 1 GB at 1M x 768). */
  private dirty = true;

  constructor(
    readonly dimensions: number,
    private readonly source: VectorSource,
  ) {}

  get size(): number {
    return this.members.size;
  }

  has(chunkId: number): boolean {
    return this.members.has(chunkId);
  }

  add(chunkId: number, conversationId: number | null, vector: Float32Array): void {
    if (this.members.has(chunkId)) this.remove(chunkId);
    this.dirty = true;
    this.members.set(chunkId, conversationId);
    let set = this.byConversation.get(conversationId);
    if (!set) this.byConversation.set(conversationId, (set = new Set()));
    set.add(chunkId);
    if (this.flat) {
      this.flat.set(chunkId, vector);
      if (this.flat.size >= HNSW_THRESHOLD) this.promote();
      return;
    }
    (this.ann ??= new Index({ ...ANN_CONFIG, dimensions: this.dimensions })).add(BigInt(chunkId), vector);
  }

  remove(chunkId: number): void {
    const conversationId = this.members.get(chunkId);
    if (conversationId === undefined) return;
    this.dirty = true;
    this.members.delete(chunkId);
    this.byConversation.get(conversationId)?.delete(chunkId);
    this.floatCopies.delete(chunkId);
    if (this.flat) this.flat.delete(chunkId);
    else if (this.ann?.contains(BigInt(chunkId))) this.ann.remove(BigInt(chunkId));
  }

  /** The k most similar chunk ids within the scope, best first, with their exact similarity. */
  search(query: Float32Array, scope: ScopeFilter, k: number): { chunkId: number; similarity: number }[] {
    if (this.members.size === 0 || k <= 0) return [];
    const inScope = this.scopeSize(scope);
    if (this.flat) return topK(this.scopedIds(scope) ?? this.members.keys(), (chunkId) => dot(query, this.flat!.get(chunkId)!), k);
    // A scope of every member needs no filter, so the ANN serves it as well as any; exact search of a few thousand
    // vectors on each query was most of a busy server's CPU.
    if (inScope <= EXACT_SCOPE_LIMIT && inScope < this.members.size) return this.rescore(query, this.scopedIds(scope)!, k);
    // A wider scope than every member's: the ANN is asked for as many more candidates as the scope is smaller, and
    // the ones outside it are dropped before rescoring.
    const wanted = Math.min(this.members.size, Math.ceil((candidatesFor(k, this.members.size) * this.members.size) / inScope));
    const candidates: number[] = [];
    for (const chunkId of this.annCandidates(query, wanted)) {
      const conversationId = this.members.get(chunkId);
      if (conversationId === undefined) continue;
      if (inScope === this.members.size || conversationId === null || conversationId === scope.conversationId) candidates.push(chunkId);
    }
    return this.rescore(query, candidates, k);
  }

  /** Count, largest and sum of the member ids: equal to the table's when a read-back index is up to date. */
  summary(): { count: number; maxChunkId: number; sumChunkIds: number } {
    let maxChunkId = 0;
    let sumChunkIds = 0;
    for (const chunkId of this.members.keys()) {
      if (chunkId > maxChunkId) maxChunkId = chunkId;
      sumChunkIds += chunkId;
    }
    return { count: this.members.size, maxChunkId, sumChunkIds };
  }

  /**
   * Writes an HNSW partition so the next start-up reads it instead of rebuilding; false when unchanged. A graph read
   * back from `basePath` stays as it is on disk and only what was added since is written, as a delta graph beside it.
   * Each file is written aside and renamed into place, the graphs first: usearch crashes the process on a damaged
   * graph file, so `load` reads only graphs whose length and checksum the members' file vouches for.
   */
  save(basePath: string): boolean {
    if ((!this.ann && !this.base) || !this.dirty) return false;
    const file = `${basePath}.usearch`;
    let graph: GraphFile;
    let delta: GraphFile | undefined;
    let baseMembers: [number, number | null][] = [...this.members];
    let deltaMembers: [number, number | null][] = [];
    if (this.base && this.base.file === file && inodeOf(file) === this.base.inode) {
      graph = this.base.graph;
      if (this.ann && this.ann.size() > 0) {
        delta = writeGraph(this.ann, `${basePath}.delta.usearch`);
        const inDelta = (chunkId: number) => this.ann!.contains(BigInt(chunkId)) as boolean;
        deltaMembers = baseMembers.filter(([chunkId]) => inDelta(chunkId));
        baseMembers = baseMembers.filter(([chunkId]) => !inDelta(chunkId));
      }
    } else if (this.base) {
      // The graph read back is gone from disk (a re-vectorise discards saved indexes) or saved elsewhere: written
      // again from the mapping, with the additions beside it.
      graph = writeGraph(this.base.index, file);
      this.base = { ...this.base, file, graph, inode: inodeOf(file) };
      this.dirty = true;
      return this.save(basePath);
    } else {
      graph = writeGraph(this.ann!, file);
    }
    if (!delta) rmSync(`${basePath}.delta.usearch`, { force: true });
    const meta: SavedMeta = { dimensions: this.dimensions, graph, delta, members: encodeMembers(baseMembers), deltaMembers: encodeMembers(deltaMembers) };
    writeFileSync(`${basePath}.json.tmp`, JSON.stringify(meta));
    renameSync(`${basePath}.json.tmp`, `${basePath}.json`);
    // A float32 graph that hnswlib wrote before decision 050: never read again.
    if (existsSync(`${basePath}.hnsw`)) rmSync(`${basePath}.hnsw`, { force: true });
    this.dirty = false;
    return true;
  }

  /**
   * Keeps only the members the table still has under the same conversation (`live`: chunk id -> conversation id)
   * and returns how many of the table's ids it lacks. A saved index can only lag the table by whole rows: chunk
   * ids are never reused and a vector under an id changes only in a re-vectorise, which discards saved indexes.
   */
  retainLive(live: Map<number, number | null>): number[] {
    for (const [chunkId, conversationId] of [...this.members]) {
      if (live.get(chunkId) !== conversationId) this.remove(chunkId);
    }
    const missing: number[] = [];
    for (const chunkId of live.keys()) if (!this.members.has(chunkId)) missing.push(chunkId);
    return missing;
  }

  /**
   * Reads a saved partition: its graph memory-mapped, the delta graph (if any) into memory, and the members. Null
   * when there is none or the graph cannot be read; a delta that cannot be read is left out with its members, which
   * the vector store then adds again from the table like any the saved index lacks.
   */
  static load(basePath: string, source: VectorSource): VectorPartition | null {
    try {
      const meta = JSON.parse(readFileSync(`${basePath}.json`, "utf8")) as SavedMeta;
      const file = `${basePath}.usearch`;
      if (!meta.graph || !matches(file, meta.graph)) return null;
      const index = new Index({ ...ANN_CONFIG, dimensions: meta.dimensions });
      index.view(file);
      if (index.dimensions() !== meta.dimensions) return null;
      const partition = new VectorPartition(meta.dimensions, source);
      partition.flat = null;
      partition.base = { index, file, graph: meta.graph, inode: inodeOf(file) };
      // Members listed as JSON pairs (before decision 052) are written in the current form at the next save.
      partition.dirty = Array.isArray(meta.members);
      partition.addMembers(decodeMembers(meta.members));
      const deltaFile = `${basePath}.delta.usearch`;
      if (meta.delta && meta.deltaMembers && matches(deltaFile, meta.delta)) {
        const ann = new Index({ ...ANN_CONFIG, dimensions: meta.dimensions });
        ann.load(deltaFile);
        partition.ann = ann;
        partition.addMembers(decodeMembers(meta.deltaMembers));
      }
      return partition;
    } catch {
      return null;
    }
  }

  private addMembers(members: Iterable<[number, number | null]>) {
    for (const [chunkId, conversationId] of members) {
      this.members.set(chunkId, conversationId);
      let set = this.byConversation.get(conversationId);
      if (!set) this.byConversation.set(conversationId, (set = new Set()));
      set.add(chunkId);
    }
  }

  /**
   * About `wanted` nearest members by the ANN graphs, unverified and unordered. The mapped graph still holds
   * members removed since it was saved, so it is asked for as many more as it has of them.
   */
  private annCandidates(query: Float32Array, wanted: number): Set<number> {
    const keys = new Set<number>();
    const added = this.ann?.size() ?? 0;
    if (this.base) {
      const size = this.base.index.size();
      const live = Math.max(1, this.members.size - added);
      for (const key of this.base.index.search(query, Math.min(size, Math.ceil((wanted * size) / live)), 1).keys) keys.add(Number(key));
    }
    if (added > 0) for (const key of this.ann!.search(query, Math.min(wanted, added), 1).keys) keys.add(Number(key));
    return keys;
  }

  /** How many members the scope sees, without listing them. */
  private scopeSize(scope: ScopeFilter): number {
    if (scope.conversationId === undefined) return this.members.size;
    const system = this.byConversation.get(null)?.size ?? 0;
    if (scope.conversationId === null) return system;
    return system + (this.byConversation.get(scope.conversationId)?.size ?? 0);
  }

  private scopedIds(scope: ScopeFilter): number[] | null {
    if (scope.conversationId === undefined) return null;
    const system = [...(this.byConversation.get(null) ?? [])];
    if (scope.conversationId === null) return system;
    return system.concat([...(this.byConversation.get(scope.conversationId) ?? [])]);
  }

  /** The k best of these members by their stored float vectors; a member the source no longer has is forgotten. */
  private rescore(query: Float32Array, chunkIds: number[], k: number): { chunkId: number; similarity: number }[] {
    const vectors = new Map<number, Float32Array>();
    const missing: number[] = [];
    for (const chunkId of chunkIds) {
      const copy = this.floatCopies.get(chunkId);
      if (copy) vectors.set(chunkId, copy);
      else missing.push(chunkId);
    }
    if (missing.length > 0) {
      const read = this.source(missing);
      if (this.floatCopies.size + missing.length > 2 * EXACT_SCOPE_LIMIT) this.floatCopies.clear();
      for (const chunkId of missing) {
        const vector = read.get(chunkId);
        if (!vector) {
          this.remove(chunkId);
          continue;
        }
        vectors.set(chunkId, vector);
        this.floatCopies.set(chunkId, vector);
      }
    }
    return topK(vectors.keys(), (chunkId) => dot(query, vectors.get(chunkId)!), k);
  }

  private promote() {
    const flat = this.flat!;
    this.flat = null;
    this.ann = new Index({ ...ANN_CONFIG, dimensions: this.dimensions });
    for (const [chunkId, vector] of flat) this.ann.add(BigInt(chunkId), vector);
  }
}

/** Writes an HNSW graph aside and renames it into place; answers what the members' file records of it. */
function writeGraph(index: Index, file: string): GraphFile {
  index.save(`${file}.tmp`);
  const graph = { bytes: statSync(`${file}.tmp`).size, crc32: fileCrc32(`${file}.tmp`) };
  renameSync(`${file}.tmp`, file);
  return graph;
}

const matches = (file: string, graph: GraphFile) => statSync(file).size === graph.bytes && fileCrc32(file) === graph.crc32;
const inodeOf = (file: string) => statSync(file, { throwIfNoEntry: false })?.ino ?? -1;

/** Members as base64 float64 pairs: 16 MB at a million, parsed in milliseconds where a JSON array took 0.6 s. */
function encodeMembers(members: [number, number | null][]): string {
  const values = new Float64Array(members.length * 2);
  members.forEach(([chunkId, conversationId], index) => {
    values[index * 2] = chunkId;
    values[index * 2 + 1] = conversationId ?? -1;
  });
  return Buffer.from(values.buffer).toString("base64");
}

function* decodeMembers(members: string | [number, number | null][]): Iterable<[number, number | null]> {
  if (Array.isArray(members)) return yield* members; // written before decision 052
  const bytes = Buffer.from(members, "base64");
  const values = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
  for (let index = 0; index < values.length; index += 2) yield [values[index]!, values[index + 1] === -1 ? null : values[index + 1]!];
}

/** CRC-32 of a file read a megabyte at a time (a graph of a million vectors is a gigabyte: about 0.15 s). */
function fileCrc32(file: string): number {
  const buffer = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(file, "r");
  try {
    let crc = 0;
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) crc = crc32(buffer.subarray(0, read), crc);
    return crc;
  } finally {
    closeSync(fd);
  }
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += a[index]! * b[index]!;
  return sum;
}

/** The k ids scoring highest, best first; keeps k entries instead of sorting every candidate. */
function topK(ids: Iterable<number>, score: (chunkId: number) => number, k: number): { chunkId: number; similarity: number }[] {
  const best: { chunkId: number; similarity: number }[] = [];
  if (k <= 0) return best;
  for (const chunkId of ids) {
    const similarity = score(chunkId);
    if (best.length === k && similarity <= best[k - 1]!.similarity) continue;
    let at = best.length === k ? k - 1 : best.length;
    while (at > 0 && best[at - 1]!.similarity < similarity) at--;
    best.splice(at, 0, { chunkId, similarity });
    if (best.length > k) best.pop();
  }
  return best;
}
