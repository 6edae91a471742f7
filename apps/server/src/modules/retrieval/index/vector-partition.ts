import { readFileSync, writeFileSync } from "node:fs";
import hnswlib from "hnswlib-node";

/** Below this many vectors a partition is searched exactly; at and above it, through HNSW. */
export const HNSW_THRESHOLD = 2000;
/** A scope at most this large is searched exactly even in an HNSW partition (filtered HNSW degrades when narrow). */
const EXACT_SCOPE_LIMIT = 4000;

export type ScopeFilter = { conversationId?: number | null };

/**
 * The in-memory ANN index of one user's vectors from one embedder. Vectors are unit length, so inner product is
 * cosine similarity. Labels are chunk ids; callers verify hits against the table, so a chunk deleted behind the
 * index's back (an FK cascade) is dropped there and forgotten here.
 */
export class VectorPartition {
  private readonly members = new Map<number, number | null>();
  private readonly byConversation = new Map<number | null, Set<number>>();
  private flat: Map<number, Float32Array> | null = new Map();
  private hnsw: hnswlib.HierarchicalNSW | null = null;
  /**
   * Copies of HNSW points read by exact searches. Reading a point back from hnswlib builds a JavaScript array of
   * every dimension: under load that was 65% of the server's CPU (notes-under-load bench). Bounded to two scopes'
   * worth (12 MB at 384 dimensions).
   */
  private readonly pointCopies = new Map<number, Float32Array>();
  private capacity = 0;
  /** Changed since it was last saved or read back: only then is it worth rewriting (170 MB at 100k x 384). */
  private dirty = true;

  constructor(readonly dimensions: number) {}

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
    this.ensureCapacity(this.members.size + 1);
    this.hnsw!.addPoint(Array.from(vector), chunkId, true);
  }

  remove(chunkId: number): void {
    const conversationId = this.members.get(chunkId);
    if (conversationId === undefined) return;
    this.dirty = true;
    this.members.delete(chunkId);
    this.byConversation.get(conversationId)?.delete(chunkId);
    this.pointCopies.delete(chunkId);
    if (this.flat) this.flat.delete(chunkId);
    else this.hnsw!.markDelete(chunkId);
  }

  /** The k most similar chunk ids within the scope, best first. */
  search(query: Float32Array, scope: ScopeFilter, k: number): { chunkId: number; similarity: number }[] {
    if (this.members.size === 0) return [];
    const inScope = this.scopeSize(scope);
    // A scope of every member needs no filter, so HNSW serves it as well as any; exact search of a few thousand
    // vectors on each query was most of a busy server's CPU.
    if (this.flat || (inScope <= EXACT_SCOPE_LIMIT && inScope < this.members.size)) {
      return topK(this.scopedIds(scope) ?? this.members.keys(), (chunkId) => dot(query, this.vectorOf(chunkId)), k);
    }
    const hnsw = this.hnsw!;
    hnsw.setEf(Math.max(64, k * 2));
    // A scope holding every member (a conversation without files of its own, over the system knowledge) needs no
    // filter: the filter is a call into JavaScript for every node HNSW visits, which made such searches 10x slower.
    const { conversationId } = scope;
    const filter =
      inScope === this.members.size ? undefined : (label: number) => this.members.get(label) === null || this.members.get(label) === conversationId;
    const found = hnsw.searchKnn(Array.from(query), Math.min(k, inScope), filter);
    return found.neighbors.map((chunkId, index) => ({ chunkId, similarity: 1 - found.distances[index]! }));
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

  /** Writes an HNSW partition (index + members) so the next start-up reads it instead of rebuilding; false when unchanged. */
  save(basePath: string): boolean {
    if (!this.hnsw || !this.dirty) return false;
    this.hnsw.writeIndexSync(`${basePath}.hnsw`);
    writeFileSync(`${basePath}.json`, JSON.stringify({ dimensions: this.dimensions, members: [...this.members] }));
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

  /** Reads a saved partition (index + members); null when there is none or it cannot be read. */
  static load(basePath: string): VectorPartition | null {
    try {
      const meta = JSON.parse(readFileSync(`${basePath}.json`, "utf8")) as { dimensions: number; members: [number, number | null][] };
      const partition = new VectorPartition(meta.dimensions);
      const hnsw = new hnswlib.HierarchicalNSW("ip", meta.dimensions);
      hnsw.readIndexSync(`${basePath}.hnsw`, true);
      partition.flat = null;
      partition.hnsw = hnsw;
      partition.capacity = hnsw.getMaxElements();
      partition.dirty = false;
      for (const [chunkId, conversationId] of meta.members) {
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

  private vectorOf(chunkId: number): Float32Array {
    if (this.flat) return this.flat.get(chunkId)!;
    let copy = this.pointCopies.get(chunkId);
    if (!copy) {
      if (this.pointCopies.size >= 2 * EXACT_SCOPE_LIMIT) this.pointCopies.clear();
      copy = Float32Array.from(this.hnsw!.getPoint(chunkId));
      this.pointCopies.set(chunkId, copy);
    }
    return copy;
  }

  private promote() {
    const flat = this.flat!;
    this.flat = null;
    this.capacity = 0;
    this.hnsw = new hnswlib.HierarchicalNSW("ip", this.dimensions);
    this.ensureCapacity(flat.size * 2);
    for (const [chunkId, vector] of flat) this.hnsw.addPoint(Array.from(vector), chunkId, true);
  }

  private ensureCapacity(needed: number) {
    if (!this.hnsw) return;
    if (this.capacity === 0) {
      this.capacity = Math.max(needed, HNSW_THRESHOLD * 2);
      this.hnsw.initIndex({ maxElements: this.capacity, m: 16, efConstruction: 100, allowReplaceDeleted: true });
    } else if (this.hnsw.getCurrentCount() >= this.capacity) {
      // Full slots may be deleted ones that replaceDeleted would reuse; growing anyway is simpler and safe.
      this.capacity *= 2;
      this.hnsw.resizeIndex(this.capacity);
    }
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
