// Backup zips for the import benchmark, written straight to disk in SAGE's backup format (the version every
// build reads: manifest, items, chunks, vectors), so the same archive can be imported by an old and a new build.
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createRequire } from "node:module";
import { rng, sentence } from "./seed-chunks.mjs";

const require = createRequire(import.meta.url);
const yazl = require("yazl");

function lines(count, row) {
  let index = 0;
  return Readable.from(
    (function* () {
      while (index < count) {
        const end = Math.min(count, index + 500);
        let text = "";
        for (; index < end; index++) text += `${JSON.stringify(row(index))}\n`;
        yield text;
      }
    })(),
  );
}

/**
 * Writes a backup of `items` notes (in `folders` folders), each with `chunksPerItem` chunks of about
 * `chunkChars` characters and, when `embedder` is given, one float32 vector per chunk. Answers the counts.
 */
export async function writeBackup(file, { items, folders = 0, chunksPerItem = 1, chunkChars = 120, embedder = null, seed = 11 }) {
  const random = rng(seed);
  const texts = Array.from({ length: 64 }, () => {
    let text = "";
    while (text.length < chunkChars) text += `${sentence(random)} `;
    return text.slice(0, chunkChars).trim();
  });
  const chunks = items * chunksPerItem;
  const createdAt = "2025-01-01T00:00:00.000Z";
  const manifest = {
    format: "sage-vector-db",
    version: 1,
    exported_at: new Date().toISOString(),
    embedder,
    counts: { items: folders + items, chunks, vectors: embedder ? chunks : 0 },
  };
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify(manifest)), "manifest.json");
  zip.addReadStream(
    lines(folders + items, (index) => {
      if (index < folders) {
        const name = `Folder ${index + 1}`;
        return {
          id: index + 1,
          parent_id: null,
          conversation_id: null,
          type: "folder",
          name,
          path: name,
          description: "",
          content: "",
          url: null,
          mime_type: null,
          size: 0,
          created_at: createdAt,
        };
      }
      const n = index - folders;
      const parent = folders ? 1 + (n % folders) : null;
      const name = `Note ${n + 1}`;
      const content = texts[n % texts.length];
      return {
        id: index + 1,
        parent_id: parent,
        conversation_id: null,
        type: "note",
        name,
        path: parent ? `Folder ${parent}/${name}` : name,
        description: "",
        content,
        url: null,
        mime_type: null,
        size: content.length,
        created_at: createdAt,
      };
    }),
    "items.jsonl",
  );
  zip.addReadStream(
    lines(chunks, (index) => ({
      id: index + 1,
      item_id: folders + Math.floor(index / chunksPerItem) + 1,
      position: index % chunksPerItem,
      source: "",
      content: texts[(index * 7) % texts.length],
    })),
    "chunks.jsonl",
  );
  const vectorOf = (index) => {
    const vector = new Float32Array(embedder.dimensions);
    const next = rng(seed + index);
    let norm = 0;
    for (let d = 0; d < vector.length; d++) norm += (vector[d] = next() - 0.5) ** 2;
    for (let d = 0; d < vector.length; d++) vector[d] /= Math.sqrt(norm);
    return Buffer.from(vector.buffer).toString("base64");
  };
  zip.addReadStream(embedder ? lines(chunks, (index) => ({ chunk_id: index + 1, vector: vectorOf(index) })) : Readable.from([]), "vectors.jsonl");
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
  return { items: folders + items, chunks, vectors: manifest.counts.vectors };
}
