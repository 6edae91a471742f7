import { Readable } from "node:stream";
import yazl from "yazl";
import type { KnowledgeBackupPort } from "../knowledge/knowledge.module.ts";
import type { RetrievalBackupPort } from "../retrieval/retrieval.module.ts";
import { BACKUP_FORMAT, BACKUP_VERSION, ENTRY, fileEntryName, type BackupManifest } from "./backup-format.ts";
import type { BackupPart } from "./backup-part.ts";

const PAGE = 500;
/** Already-compressed formats are stored as they are: deflating them again costs CPU for nothing. */
const STORED_AS_IS = /\.(pdf|docx|odt|pptx|odp|xlsx|ods|png|jpe?g|webp|zip)$/i;

export interface ExportPorts {
  knowledge: KnowledgeBackupPort;
  retrieval: RetrievalBackupPort;
  parts: BackupPart[];
}

/**
 * A complete backup of the user's knowledge as a zip stream (the entries are listed in backup-format.ts). Rows are
 * read a page at a time as the zip is pulled, so memory stays flat and no statement is held open across awaits.
 * The user may change things meanwhile, so the export keeps itself consistent: chunks of items it did not list and
 * vectors of chunks it did not list are left out, the manifest (written last) counts what was written, and
 * deleted items' files stay on disk until the zip is done.
 */
export function exportBackup(userId: number, ports: ExportPorts): { stream: Readable; finished: Promise<BackupManifest> } {
  const { knowledge, retrieval } = ports;
  const embedder = retrieval.exportedEmbedder(userId);
  embedder.catch(() => undefined); // read by the vectors' entry, which reports a failure
  const counts = { items: 0, chunks: 0, vectors: 0, files: 0, parts: {} as Record<string, number> };
  const itemIds = new Set<number>();
  const chunkIds: number[] = [];
  const files: Array<{ id: number; storageKey: string; name: string }> = [];
  const release = knowledge.holdFiles();

  const zip = new yazl.ZipFile();
  const stream = zip.outputStream as Readable;
  let itemsDone!: () => void;
  const itemsListed = new Promise<void>((resolve) => (itemsDone = resolve));

  async function* itemLines() {
    for (let after = 0; ;) {
      const page = await knowledge.exportPage(userId, after, PAGE);
      if (page.length === 0) break;
      after = page[page.length - 1]!.row.id;
      let text = "";
      for (const { row, storageKey } of page) {
        let file: string | null = null;
        if (row.type === "file" && storageKey && (await knowledge.storedFileSize(storageKey)) !== null) {
          file = fileEntryName(row.id);
          files.push({ id: row.id, storageKey, name: row.name });
        }
        itemIds.add(row.id);
        counts.items += 1;
        text += `${JSON.stringify({ ...row, file })}\n`;
      }
      yield text;
    }
    itemsDone();
  }

  async function* chunkLines() {
    for (let after = 0; ;) {
      const page = await retrieval.chunkPage(userId, after, PAGE);
      if (page.length === 0) return;
      after = page[page.length - 1]!.id;
      const kept = page.filter((chunk) => itemIds.has(chunk.item_id));
      for (const chunk of kept) chunkIds.push(chunk.id);
      counts.chunks += kept.length;
      yield kept.map((chunk) => `${JSON.stringify(chunk)}\n`).join("");
    }
  }

  async function* vectorLines() {
    const embedderId = (await embedder)?.id;
    if (!embedderId) return;
    for (let after = 0; ;) {
      const page = await retrieval.vectorPage(userId, embedderId, after, PAGE);
      if (page.length === 0) return;
      after = page[page.length - 1]!.chunk_id;
      const kept = page.filter((vector) => sortedHas(chunkIds, vector.chunk_id));
      counts.vectors += kept.length;
      yield kept.map((vector) => `${JSON.stringify(vector)}\n`).join("");
    }
  }

  async function* partLines(part: BackupPart) {
    counts.parts[part.name] = 0;
    for (let after = 0; ;) {
      const page = await part.exportPage(userId, after, PAGE);
      if (page.length === 0) return;
      after = page[page.length - 1]!.id;
      counts.parts[part.name]! += page.length;
      yield page.map((row) => `${JSON.stringify(row)}\n`).join("");
    }
  }

  const lazy = (name: string, source: () => Iterable<string> | AsyncIterable<string>, options: Partial<yazl.Options> = {}) =>
    zip.addReadStreamLazy(name, options, (callback) => callback(null, Readable.from(source())));

  lazy(ENTRY.items, itemLines);
  lazy(ENTRY.chunks, chunkLines);
  lazy(ENTRY.vectors, vectorLines);
  for (const part of ports.parts) lazy(`${part.name}.jsonl`, () => partLines(part));

  let manifest!: BackupManifest;
  const finished = (async () => {
    try {
      await itemsListed;
      for (const file of files) {
        zip.addReadStreamLazy(fileEntryName(file.id), { compress: !STORED_AS_IS.test(file.name) }, (callback) => {
          counts.files += 1;
          callback(null, knowledge.openStoredFile(file.storageKey));
        });
      }
      // Written last, once everything before it has been read: the counts are what the zip holds.
      const exported = await embedder;
      lazy(ENTRY.manifest, () => {
        manifest = {
          format: BACKUP_FORMAT,
          version: BACKUP_VERSION,
          exported_at: new Date().toISOString(),
          embedder: counts.vectors > 0 ? exported : null,
          counts,
        };
        return [JSON.stringify(manifest, null, 2)];
      });
      zip.end();
      await new Promise<void>((resolve, reject) => {
        stream.once("end", resolve);
        stream.once("close", resolve);
        stream.once("error", reject);
      });
      return manifest;
    } finally {
      await release();
    }
  })();
  // A client that disconnects leaves the zip unread: the files are let go all the same.
  stream.once("close", () => void release());
  finished.catch(() => undefined); // whoever awaits it sees the failure; nobody awaiting is not a crash

  return { stream, finished };
}

/** Whether the ascending list holds the value (binary search). */
function sortedHas(values: number[], value: number): boolean {
  let low = 0;
  let high = values.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = values[middle]!;
    if (at === value) return true;
    if (at < value) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}
