import { Readable } from "node:stream";
import yazl from "yazl";
import type { KnowledgeBackupPort } from "../knowledge/knowledge.module.ts";
import type { MemoryBackupPort } from "../memory/memory.module.ts";
import type { RetrievalBackupPort } from "../retrieval/retrieval.module.ts";

export const BACKUP_FORMAT = "sage-vector-db";
export const BACKUP_VERSION = 1;
const PAGE = 500;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  exported_at: string;
  embedder: { id: string; dimensions: number } | null;
  counts: { items: number; chunks: number; vectors: number };
}

/**
 * A zip of the user's knowledge: manifest.json, items.jsonl (the tree), chunks.jsonl (texts and sources) and
 * vectors.jsonl (base64 float32, current embedder only) and memories.jsonl (what SAGE remembers about the user). Rows are read a page at a time as the zip is pulled,
 * so memory stays flat and no statement is held open across awaits.
 */
export async function exportBackup(userId: number, ports: { knowledge: KnowledgeBackupPort; retrieval: RetrievalBackupPort; memory: MemoryBackupPort }): Promise<Readable> {
  const { knowledge, retrieval } = ports;
  const embedder = retrieval.exportedEmbedder(userId);
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    exported_at: new Date().toISOString(),
    embedder,
    counts: {
      items: await knowledge.countItems(userId),
      chunks: retrieval.countChunks(userId),
      vectors: embedder ? retrieval.countVectors(userId, embedder.id) : 0,
    },
  };

  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2)), "manifest.json");
  zip.addReadStream(pagedLines((after) => knowledge.exportPage(userId, after, PAGE), (row) => row.id), "items.jsonl");
  zip.addReadStream(pagedLines((after) => retrieval.chunkPage(userId, after, PAGE), (row) => row.id), "chunks.jsonl");
  zip.addReadStream(
    embedder ? pagedLines((after) => retrieval.vectorPage(userId, embedder.id, after, PAGE), (row) => row.chunk_id) : Readable.from([]),
    "vectors.jsonl",
  );
  const memories = (await ports.memory.list(userId)).map(({ content, source, createdAt, updatedAt }) => ({ content, source, createdAt, updatedAt }));
  zip.addBuffer(Buffer.from(memories.map((memory) => `${JSON.stringify(memory)}\n`).join("")), "memories.jsonl");
  zip.end();
  return zip.outputStream as Readable;
}

/** JSON lines from pages of rows, each page read after the last row of the previous one. */
function pagedLines<Row>(page: (after: number) => Row[], idOf: (row: Row) => number): Readable {
  let after = 0;
  return Readable.from(
    (function* () {
      for (;;) {
        const rows = page(after);
        if (rows.length === 0) return;
        after = idOf(rows[rows.length - 1]!);
        yield rows.map((row) => `${JSON.stringify(row)}\n`).join("");
      }
    })(),
  );
}
