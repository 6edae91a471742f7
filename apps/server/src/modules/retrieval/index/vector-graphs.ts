import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { Index } from "usearch";
import { decodeMembers, encodeMembers, graphMatches, inodeOf, newGraph, writeGraph, type GraphFile } from "./vector-graph-file.ts";

type Members = ReadonlyMap<number, number | null>;
type Delta = { index: Index; ids: Set<number> };
type Mapped = { index: Index; file: string; graph: GraphFile; inode: number };

/** What a merge thread does (vector-merge.ts): the mapped graph, less `stale`, plus `added` read from the table. */
export interface MergeJob {
  dimensions: number;
  baseFile: string;
  stale: number[];
  added: number[];
  /** Where the merged graph is written (aside, then renamed). */
  out: string;
}

/** What a saved partition's `.json` holds; member lists are `encodeMembers`' form. */
export interface SavedMeta {
  dimensions: number;
  /** `file` is a name in the same folder; before merges existed it was always `<base>.usearch`. */
  graph?: GraphFile & { file?: string };
  members: string | [number, number | null][];
  stale?: string;
  deltas?: (GraphFile & { file: string; members: string })[];
}

/** Below this many vectors held in memory beside the mapped graph, no merge is worth a thread's gigabyte. */
export const MERGE_MINIMUM = 20_000;

/**
 * The HNSW graphs of one large partition (decision 052). A graph saved earlier is memory-mapped read-only (`base`),
 * which start-up reads in 0.06 s at a million vectors where loading it took 1.4-3.5 s; vectors added since go into
 * in-memory graphs (`deltas`, only the newest takes additions). A removed or replaced vector stays in `base`, marked
 * stale. Once the deltas or the stale marks pass a fifth of `base`, a worker thread merges them into a new file
 * (vector-merge.ts), which replaces `base` when done. A partition built in memory is one delta until first saved.
 */
export class VectorGraphs {
  private base: Mapped | null = null;
  /** Members whose vector in `base` no longer counts: removed, or replaced by one in a delta. */
  private stale = new Set<number>();
  private deltas: Delta[] = [];
  /** While a merge runs: how many of the oldest deltas it takes in, what went stale in them or in `base` since. */
  private merging: { deltas: number; stale: Set<number>; out: string } | null = null;
  /** The graph files the last save named. */
  private kept: string[] = [];

  constructor(readonly dimensions: number) {}

  add(chunkId: number, vector: Float32Array): void {
    let last = this.deltas.at(-1);
    if (!last || (this.merging && this.deltas.length <= this.merging.deltas)) this.deltas.push((last = { index: newGraph(this.dimensions), ids: new Set() }));
    last.index.add(BigInt(chunkId), vector);
    last.ids.add(chunkId);
  }

  /** Forgets a member's vector (removed, or about to be replaced). */
  remove(chunkId: number): void {
    for (const [position, delta] of this.deltas.entries()) {
      if (!delta.ids.delete(chunkId)) continue;
      delta.index.remove(BigInt(chunkId));
      if (this.merging && position < this.merging.deltas) this.merging.stale.add(chunkId);
      return;
    }
    if (!this.base) return;
    this.stale.add(chunkId);
    this.merging?.stale.add(chunkId);
  }

  /** About `wanted` nearest members, unverified and unordered; `base` is asked for more as it holds stale ones. */
  candidates(query: Float32Array, wanted: number): Set<number> {
    const keys = new Set<number>();
    if (this.base) {
      const size = this.base.index.size();
      const live = Math.max(1, size - this.stale.size);
      for (const key of this.base.index.search(query, Math.min(size, Math.ceil((wanted * size) / live)), 1).keys) keys.add(Number(key));
    }
    for (const delta of this.deltas) {
      if (delta.ids.size === 0) continue;
      for (const key of delta.index.search(query, Math.min(wanted, delta.ids.size), 1).keys) keys.add(Number(key));
    }
    return keys;
  }

  /** Whether enough has changed beside the mapped graph to merge it again (and no merge runs). */
  mergeDue(minimum = MERGE_MINIMUM): boolean {
    if (!this.base || this.merging) return false;
    const limit = Math.max(minimum, this.base.index.size() / 5);
    return this.deltas.reduce((sum, delta) => sum + delta.ids.size, 0) >= limit || this.stale.size >= limit;
  }

  /** Starts a merge of everything held now; later additions go to a new delta. */
  beginMerge(basePath: string): MergeJob {
    const out = `${basePath}.g${Date.now().toString(36)}.usearch`;
    this.merging = { deltas: this.deltas.length, stale: new Set(), out };
    const added = this.deltas.flatMap((delta) => [...delta.ids]);
    return { dimensions: this.dimensions, baseFile: this.base!.file, stale: [...this.stale], added, out };
  }

  /** Maps the merged graph in place of `base` and drops the deltas it took in. */
  finishMerge(graph: GraphFile): void {
    const { deltas, stale, out } = this.merging!;
    const index = newGraph(this.dimensions);
    index.view(out);
    this.base = { index, file: out, graph, inode: inodeOf(out) };
    this.deltas = this.deltas.slice(deltas);
    this.stale = stale;
    this.merging = null;
  }

  abandonMerge(): void {
    if (this.merging) for (const file of [this.merging.out, `${this.merging.out}.tmp`]) rmSync(file, { force: true });
    this.merging = null;
  }

  /**
   * Writes what is not on disk yet beside `basePath` and answers the meta that vouches for it, or null when there is
   * no graph. A graph built in memory is written whole and mapped from then on; a mapped graph is left as it is on
   * disk (or written again from the mapping if its file went: a re-vectorise discards saved indexes); each delta is
   * written beside it under a new name. The caller writes the meta, then calls `removeUnused`.
   */
  save(basePath: string, members: Members): SavedMeta | null {
    if (!this.base || inodeOf(this.base.file) !== this.base.inode || path.dirname(this.base.file) !== path.dirname(basePath)) {
      const file = `${basePath}.usearch`;
      if (this.base) {
        this.base = { ...this.base, file, graph: writeGraph(this.base.index, file), inode: inodeOf(file) };
      } else {
        // Dropped from the deltas only once written and mapped: a failed write keeps the graph searchable.
        const whole = this.deltas[0];
        if (!whole) return null;
        const graph = writeGraph(whole.index, file);
        const index = newGraph(this.dimensions);
        index.view(file);
        this.base = { index, file, graph, inode: inodeOf(file) };
        this.deltas.shift();
      }
    }
    const inDelta = (chunkId: number) => this.deltas.some((delta) => delta.ids.has(chunkId));
    // Named afresh at each save, so the files the members' file on disk names stay whole until the new one replaces it.
    const saveName = Date.now().toString(36);
    const deltas = this.deltas
      .filter((delta) => delta.ids.size > 0)
      .map((delta, position) => {
        const file = `${basePath}.delta-${saveName}-${position}.usearch`;
        return { file: path.basename(file), ...writeGraph(delta.index, file), members: encodeMembers(memberPairs(delta.ids, members)) };
      });
    const baseMembers = [...members].filter(([chunkId]) => !inDelta(chunkId));
    this.kept = [path.basename(this.base.file), ...deltas.map((delta) => delta.file)];
    return {
      dimensions: this.dimensions,
      graph: { ...this.base.graph, file: path.basename(this.base.file) },
      members: encodeMembers(baseMembers),
      stale: encodeMembers([...this.stale].map((chunkId) => [chunkId, null])),
      deltas,
    };
  }

  /** Reads the graphs a meta vouches for, with their members; null when the mapped graph cannot be read. */
  static load(basePath: string, meta: SavedMeta): { graphs: VectorGraphs; members: [number, number | null][] } | null {
    if (!meta.graph) return null;
    const file = path.join(path.dirname(basePath), meta.graph.file ?? `${path.basename(basePath)}.usearch`);
    if (!graphMatches(file, meta.graph)) return null;
    const index = newGraph(meta.dimensions);
    index.view(file);
    if (index.dimensions() !== meta.dimensions) return null;
    const graphs = new VectorGraphs(meta.dimensions);
    graphs.base = { index, file, graph: meta.graph, inode: inodeOf(file) };
    const members = [...decodeMembers(meta.members)];
    if (meta.stale) for (const [chunkId] of decodeMembers(meta.stale)) graphs.stale.add(chunkId);
    // A delta that does not match what was recorded is left out with its members: the vector store adds those
    // chunks again from the table, as any the saved index lacks.
    for (const delta of meta.deltas ?? []) {
      const deltaFile = path.join(path.dirname(basePath), delta.file);
      if (!graphMatches(deltaFile, delta)) continue;
      const deltaIndex = newGraph(meta.dimensions);
      deltaIndex.load(deltaFile);
      const deltaMembers = [...decodeMembers(delta.members)];
      graphs.deltas.push({ index: deltaIndex, ids: new Set(deltaMembers.map(([chunkId]) => chunkId)) });
      members.push(...deltaMembers);
    }
    return { graphs, members };
  }

  /**
   * Deletes the partition's graph files the last saved members' file does not name (merged away, earlier deltas,
   * leftovers of a crash); called once that file is in place, so a crash between leaves every named file whole.
   */
  removeUnused(basePath: string) {
    const kept = this.kept;
    const prefix = `${path.basename(basePath)}.`;
    const running = this.merging ? path.basename(this.merging.out) : null;
    for (const name of readdirSync(path.dirname(basePath))) {
      if (!name.startsWith(prefix) || !/\.usearch(\.tmp)?$/.test(name) || kept.includes(name)) continue;
      if (running && name.startsWith(running)) continue;
      rmSync(path.join(path.dirname(basePath), name), { force: true });
    }
  }
}

function* memberPairs(ids: Iterable<number>, members: Members): Iterable<[number, number | null]> {
  for (const chunkId of ids) yield [chunkId, members.get(chunkId) ?? null];
}

/** The saved meta beside `basePath`, or null. */
export function readSavedMeta(basePath: string): SavedMeta | null {
  try {
    return JSON.parse(readFileSync(`${basePath}.json`, "utf8")) as SavedMeta;
  } catch {
    return null;
  }
}

/** The mapped graph's file a saved partition names (the bench reads it for its bare limit). */
export function savedGraphFile(basePath: string): string | null {
  const meta = readSavedMeta(basePath);
  return meta?.graph ? path.join(path.dirname(basePath), meta.graph.file ?? `${path.basename(basePath)}.usearch`) : null;
}
