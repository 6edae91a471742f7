import { closeSync, openSync, readSync, renameSync, statSync } from "node:fs";
import { crc32 } from "node:zlib";
import { Index, MetricKind, ScalarKind } from "usearch";

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

export const newGraph = (dimensions: number) => new Index({ ...ANN_CONFIG, dimensions });

/** A graph file as the members' file vouches for it. */
export type GraphFile = { bytes: number; crc32: number };

/**
 * Writes an HNSW graph aside and renames it into place; answers its length and checksum. usearch crashes the
 * process on a damaged graph file, so a graph is only ever read when the members' file vouches for both.
 */
export function writeGraph(index: Index, file: string): GraphFile {
  index.save(`${file}.tmp`);
  const graph = { bytes: statSync(`${file}.tmp`).size, crc32: fileCrc32(`${file}.tmp`) };
  renameSync(`${file}.tmp`, file);
  return graph;
}

export const graphMatches = (file: string, graph: GraphFile) => statSync(file).size === graph.bytes && fileCrc32(file) === graph.crc32;
export const inodeOf = (file: string) => statSync(file, { throwIfNoEntry: false })?.ino ?? -1;

/** Members as base64 float64 pairs (conversation -1 for none): 16 MB at a million, decoded in milliseconds. */
export function encodeMembers(members: Iterable<[number, number | null]>): string {
  const values: number[] = [];
  for (const [chunkId, conversationId] of members) values.push(chunkId, conversationId ?? -1);
  return Buffer.from(Float64Array.from(values).buffer).toString("base64");
}

/** Reads `encodeMembers`' form, or the JSON pairs written before decision 052. */
export function* decodeMembers(members: string | [number, number | null][]): Iterable<[number, number | null]> {
  if (Array.isArray(members)) return yield* members;
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
