import { Readable } from "node:stream";
import type BetterSqlite3 from "better-sqlite3";
import yazl from "yazl";
import type { Embedder } from "../../providers/embedder/embedder.ts";

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
 * vectors.jsonl (base64 float32, current embedder only). Rows are read a page at a time as the zip is pulled,
 * so memory stays flat and no statement is held open across awaits.
 */
export function exportVectorDb(sqlite: BetterSqlite3.Database, userId: number, embedder: Embedder | null): Readable {
  const count = (sql: string, ...params: unknown[]) => (sqlite.prepare(sql).get(...params) as { n: number }).n;
  const counts = {
    items: count("SELECT count(*) AS n FROM knowledge_items WHERE user_id = ?", userId),
    chunks: count("SELECT count(*) AS n FROM chunks WHERE user_id = ?", userId),
    vectors: embedder ? count("SELECT count(*) AS n FROM chunk_vectors WHERE user_id = ? AND embedder_id = ?", userId, embedder.id) : 0,
  };
  const dimensions = embedder
    ? ((sqlite.prepare("SELECT dimensions FROM chunk_vectors WHERE user_id = ? AND embedder_id = ? LIMIT 1").get(userId, embedder.id) as
        | { dimensions: number }
        | undefined)?.dimensions ?? embedder.dimensions)
    : 0;
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    exported_at: new Date().toISOString(),
    embedder: embedder && counts.vectors > 0 ? { id: embedder.id, dimensions } : null,
    counts: { ...counts, vectors: embedder && counts.vectors > 0 ? counts.vectors : 0 },
  };

  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2)), "manifest.json");
  zip.addReadStream(
    pagedLines(sqlite, {
      sql: `SELECT id, parent_id, conversation_id, type, name, path, description, content, url, mime_type, size, created_at
            FROM knowledge_items WHERE user_id = ? AND id > ? ORDER BY id LIMIT ${PAGE}`,
      params: [userId],
    }),
    "items.jsonl",
  );
  zip.addReadStream(
    pagedLines(sqlite, {
      sql: `SELECT id, item_id, position, source, content FROM chunks WHERE user_id = ? AND id > ? ORDER BY id LIMIT ${PAGE}`,
      params: [userId],
    }),
    "chunks.jsonl",
  );
  zip.addReadStream(
    manifest.embedder
      ? pagedLines(sqlite, {
          sql: `SELECT chunk_id AS id, vector FROM chunk_vectors WHERE user_id = ? AND embedder_id = ? AND chunk_id > ? ORDER BY chunk_id LIMIT ${PAGE}`,
          params: [userId, manifest.embedder.id],
          map: (row) => ({ chunk_id: row.id, vector: (row.vector as Buffer).toString("base64") }),
        })
      : Readable.from([]),
    "vectors.jsonl",
  );
  zip.end();
  return zip.outputStream as Readable;
}

function pagedLines(
  sqlite: BetterSqlite3.Database,
  query: { sql: string; params: unknown[]; map?: (row: Record<string, unknown>) => unknown },
): Readable {
  const statement = sqlite.prepare(query.sql);
  let after = 0;
  return Readable.from(
    (function* () {
      for (;;) {
        const rows = statement.all(...query.params, after) as Record<string, unknown>[];
        if (rows.length === 0) return;
        after = rows[rows.length - 1]!.id as number;
        yield rows.map((row) => `${JSON.stringify(query.map ? query.map(row) : row)}\n`).join("");
      }
    })(),
  );
}
