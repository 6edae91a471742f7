import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { VectorGraphs, readSavedMeta, type MergeJob } from "./vector-graphs.ts";
import type { GraphFile } from "./vector-graph-file.ts";

/** Below this many vectors a partition is searched exactly; at and above it, through HNSW. */
export const HNSW_THRESHOLD = 2000;
/** A scope at most this large is searched exactly even in an HNSW partition (a filtered ANN degrades when narrow). */
const EXACT_SCOPE_LIMIT = 4000;
/** Where a partition changes how it searches; injectable so tests exercise the same paths at a tenth of the size. */
export type PartitionLimits = { hnswThreshold: number; exactScopeLimit: number };
const PARTITION_LIMITS: PartitionLimits = { hnswThreshold: HNSW_THRESHOLD, exactScopeLimit: EXACT_SCOPE_LIMIT };
/**
 * Candidates the ANN proposes for k results in a partition of `size`: enough that rescoring finds the true top k.
 * Each costs a row read from the table (about 22 us: a float32 vector spills to overflow pages). On the bench's
 * vectors: 50 for a search's 40 gave recall@10 1.0 at 100k; at a million, for k = 10, 30 gave 0.80, 120 gave 0.934
 * and 200 gave 0.976 (decision 050).
 */
export const candidatesFor = (k: number, size: number) => (size > 250_000 ? Math.max(3 * k, 200) : k + 10);

export type ScopeFilter = { conversationId?: number | null };
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
  /** The HNSW graphs of a partition past the HNSW threshold (null while it is small and searched exactly). */
  private graphs: VectorGraphs | null = null;
  /** Float vectors read from the source for exact scope searches and rescoring; bounded to two scopes' worth. */
  private readonly floatCopies = new Map<number, Float32Array>();
  /** Changed since it was last saved or read back: only then is it worth rewriting (about 1 GB at 1M x 768). */
  private dirty = true;
  private readonly limits: PartitionLimits;

  constructor(
    readonly dimensions: number,
    private readonly source: VectorSource,
    limits: Partial<PartitionLimits> = {},
  ) {
    this.limits = { ...PARTITION_LIMITS, ...limits };
  }

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
      if (this.flat.size >= this.limits.hnswThreshold) this.promote();
      return;
    }
    this.graphs!.add(chunkId, vector);
  }

  remove(chunkId: number): void {
    const conversationId = this.members.get(chunkId);
    if (conversationId === undefined) return;
    this.dirty = true;
    this.members.delete(chunkId);
    this.byConversation.get(conversationId)?.delete(chunkId);
    this.floatCopies.delete(chunkId);
    if (this.flat) this.flat.delete(chunkId);
    else this.graphs!.remove(chunkId);
  }

  /** The k most similar chunk ids within the scope, best first, with their exact similarity. */
  search(query: Float32Array, scope: ScopeFilter, k: number): { chunkId: number; similarity: number }[] {
    if (this.members.size === 0 || k <= 0) return [];
    const inScope = this.scopeSize(scope);
    if (this.flat) return topK(this.scopedIds(scope) ?? this.members.keys(), (chunkId) => dot(query, this.flat!.get(chunkId)!), k);
    // A scope of every member needs no filter, so the ANN serves it as well as any; exact search of a few thousand
    // vectors on each query was most of a busy server's CPU.
    if (inScope <= this.limits.exactScopeLimit && inScope < this.members.size) return this.rescore(query, this.scopedIds(scope)!, k);
    // A wider scope than every member's: the ANN is asked for as many more candidates as the scope is smaller, and
    // the ones outside it are dropped before rescoring.
    const wanted = Math.min(this.members.size, Math.ceil((candidatesFor(k, this.members.size) * this.members.size) / inScope));
    const candidates: number[] = [];
    for (const chunkId of this.graphs!.candidates(query, wanted)) {
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
   * Writes an HNSW partition so the next start-up reads it instead of rebuilding; false when unchanged. The graphs
   * go first (vector-graphs.ts), then the members' file that vouches for them, written aside and renamed.
   */
  save(basePath: string): boolean {
    if (!this.graphs || !this.dirty) return false;
    const meta = this.graphs.save(basePath, this.members);
    if (!meta) return false;
    writeFileSync(`${basePath}.json.tmp`, JSON.stringify(meta));
    renameSync(`${basePath}.json.tmp`, `${basePath}.json`);
    this.graphs.removeUnused(basePath);
    // A float32 graph that hnswlib wrote before decision 050: never read again.
    if (existsSync(`${basePath}.hnsw`)) rmSync(`${basePath}.hnsw`, { force: true });
    this.dirty = false;
    return true;
  }

  /** Whether the partition's graphs are due a merge in a thread (vector-graphs.ts). */
  mergeDue(minimum?: number): boolean {
    return this.graphs?.mergeDue(minimum) ?? false;
  }

  beginMerge(basePath: string): MergeJob {
    return this.graphs!.beginMerge(basePath);
  }

  /** Takes in a finished merge; the caller saves, so the members' file names the new graph. */
  finishMerge(graph: GraphFile): void {
    this.graphs!.finishMerge(graph);
    this.dirty = true;
  }

  abandonMerge(): void {
    this.graphs?.abandonMerge();
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
   * Reads a saved partition: its graph memory-mapped, any graphs of later additions into memory, and the members.
   * Null when there is none or its graph cannot be read.
   */
  static load(basePath: string, source: VectorSource, limits: Partial<PartitionLimits> = {}): VectorPartition | null {
    try {
      const meta = readSavedMeta(basePath);
      const read = meta && VectorGraphs.load(basePath, meta);
      if (!read) return null;
      const partition = new VectorPartition(meta.dimensions, source, limits);
      partition.flat = null;
      partition.graphs = read.graphs;
      // Members listed as JSON pairs (before decision 052) are written in the current form at the next save.
      partition.dirty = Array.isArray(meta.members);
      for (const [chunkId, conversationId] of read.members) {
        partition.members.set(chunkId, conversationId);
        let set = partition.byConversation.get(conversationId);
        if (!set) partition.byConversation.set(conversationId, (set = new Set()));
        set.add(chunkId);
      }
      return partition;
    } catch {
      return null;
    }
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
      if (this.floatCopies.size + missing.length > 2 * this.limits.exactScopeLimit) this.floatCopies.clear();
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
    this.graphs = new VectorGraphs(this.dimensions);
    for (const [chunkId, vector] of flat) this.graphs.add(chunkId, vector);
  }
}

/** Four sums at once: twice as fast in V8 as one (117 against 64 ms for 100,000 768-d vectors here). */
export function dot(a: Float32Array, b: Float32Array): number {
  let first = 0;
  let second = 0;
  let third = 0;
  let fourth = 0;
  const whole = a.length - (a.length % 4);
  let index = 0;
  for (; index < whole; index += 4) {
    first += a[index]! * b[index]!;
    second += a[index + 1]! * b[index + 1]!;
    third += a[index + 2]! * b[index + 2]!;
    fourth += a[index + 3]! * b[index + 3]!;
  }
  for (; index < a.length; index++) first += a[index]! * b[index]!;
  return first + second + third + fourth;
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
