import { PassThrough, type Readable } from "node:stream";
import yauzl from "yauzl";
import type { z } from "zod";
import { FILE_ENTRY, importFailed, MAX_ARCHIVE_ENTRIES, MAX_EXPANDED_BYTES, MAX_FILES_EXPANDED_BYTES, MAX_ITEMS, MAX_LINE_BYTES } from "./backup-format.ts";

export interface ArchiveEntry {
  name: string;
  compressedSize: number;
  size: number;
}

/** A backup zip opened for reading: its entries are listed and checked up front, then streamed on demand. */
export interface BackupArchive {
  /** Entries by name (JSON lines and manifest), and original files by their item id. */
  entries: Map<string, ArchiveEntry>;
  files: Map<number, ArchiveEntry>;
  /** Bytes of the zip that hold original files (data and headers): what the 100 MB maximum leaves out. */
  fileBytes: number;
  /** A whole small entry as text (the manifest); refused past `maxBytes`. */
  text(name: string, maxBytes: number): Promise<string>;
  /** An entry's JSON lines, parsed and checked, a batch (one read of the stream) at a time. */
  rows<T>(name: string, schema: z.ZodType<T>): AsyncGenerator<T[]>;
  /** The raw bytes of an entry (an original file). */
  open(name: string): Promise<Readable>;
  close(): void;
}

const UNIX_TYPE_MASK = 0o170000;
const SYMLINK = 0o120000;
const corrupt = () => importFailed("the ZIP archive is corrupt");

/**
 * Opens a backup zip and checks every entry before any is read: no unsafe paths or symbolic links, at most so many
 * entries, no two entries sharing compressed bytes, and (for an uploaded backup) declared expanded sizes within the
 * caps. Reading then streams: an entry that yields more than its header declares is refused at that byte (yauzl
 * counts them), and a line longer than MAX_LINE_BYTES is refused, so no entry is ever built as one string (a 630 MB
 * items.jsonl used to be, and took the server down). `capExpansion` is false for the server's own snapshots: a
 * large knowledge base must always restore from them (decision 027).
 */
export function openBackupArchive(zipPath: string, options: { knownEntries: string[]; capExpansion: boolean }): Promise<BackupArchive> {
  return new Promise((resolve, reject) => {
    yauzl.open(zipPath, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true, autoClose: false }, (openError, zip) => {
      if (openError || !zip) return reject(importFailed("the file is not a readable ZIP archive"));
      if (zip.entryCount > MAX_ARCHIVE_ENTRIES + MAX_ITEMS) {
        zip.close();
        return reject(importFailed(`the archive has ${zip.entryCount} entries; a backup has at most ${MAX_ARCHIVE_ENTRIES} besides its files`));
      }
      const entries = new Map<string, ArchiveEntry>();
      const files = new Map<number, ArchiveEntry>();
      const raw = new Map<string, yauzl.Entry>();
      let others = 0;
      let compressed = 0;
      let expanded = 0;
      let filesExpanded = 0;
      let fileBytes = 0;
      let settled = false;
      const abort = (error: Error) => {
        if (settled) return;
        settled = true;
        zip.close();
        reject(error);
      };
      // yauzl itself refuses absolute and '..' names (and backslashes, being strict) before we see the entry.
      zip.on("error", (error: Error) => {
        const unsafe = /(?:invalid relative path|absolute path|invalid characters in fileName): (.*)$/.exec(error.message);
        abort(unsafe ? importFailed(`the archive contains an unsafe path: ${unsafe[1]}`) : corrupt());
      });
      zip.on("entry", (entry: yauzl.Entry) => {
        const name = entry.fileName;
        if (name.startsWith("/") || name.includes("\\") || name.split("/").includes("..") || /^[a-z]:/i.test(name)) {
          return abort(importFailed(`the archive contains an unsafe path: ${name}`));
        }
        // Unix file type in the high bits of the external attributes: a symlink is never part of a backup.
        if (((entry.externalFileAttributes >>> 16) & UNIX_TYPE_MASK) === SYMLINK) {
          return abort(importFailed(`the archive contains a symbolic link: ${name}`));
        }
        const file = FILE_ENTRY.exec(name);
        if (!file && ++others > MAX_ARCHIVE_ENTRIES) {
          return abort(importFailed(`the archive has ${zip.entryCount} entries; a backup has at most ${MAX_ARCHIVE_ENTRIES} besides its files`));
        }
        // Entries of an honest zip hold bytes of their own; a bomb's entries point at the same few (overlapping entries).
        compressed += entry.compressedSize;
        if (compressed > zip.fileSize)
          return abort(importFailed(`its entries overlap (${name} shares its bytes with another entry), which no backup's do (a zip bomb?)`));
        const listed = { name, compressedSize: entry.compressedSize, size: entry.uncompressedSize };
        if (file) {
          filesExpanded += entry.uncompressedSize;
          if (options.capExpansion && filesExpanded > MAX_FILES_EXPANDED_BYTES) {
            return abort(importFailed(`the archive's files expand beyond ${gigabytes(MAX_FILES_EXPANDED_BYTES)}, the most a backup's files may hold`));
          }
          // Local and central headers (with the name twice) and the data descriptor, beside the data.
          fileBytes += entry.compressedSize + 2 * Buffer.byteLength(name) + 30 + 46 + 16;
          files.set(Number(file[1]), listed);
          raw.set(name, entry);
        } else if (options.knownEntries.includes(name)) {
          expanded += entry.uncompressedSize;
          if (options.capExpansion && expanded > MAX_EXPANDED_BYTES) {
            return abort(importFailed(`the archive expands beyond ${gigabytes(MAX_EXPANDED_BYTES)}, the most a backup's knowledge may hold besides its files`));
          }
          entries.set(name, listed);
          raw.set(name, entry);
        }
        zip.readEntry();
      });
      zip.on("end", () => {
        if (settled) return;
        settled = true;
        resolve(archive());
      });
      zip.readEntry();

      function archive(): BackupArchive {
        const open = (name: string) =>
          new Promise<Readable>((resolveStream, rejectStream) => {
            const entry = raw.get(name);
            if (!entry) return rejectStream(importFailed(`the archive has no ${name}`));
            zip.openReadStream(entry, (error, stream) => (error || !stream ? rejectStream(corrupt()) : resolveStream(withClearErrors(stream, name))));
          });
        return {
          entries,
          files,
          fileBytes,
          open,
          async text(name, maxBytes) {
            const parts: Buffer[] = [];
            let size = 0;
            try {
              for await (const part of await open(name)) {
                size += (part as Buffer).length;
                if (size > maxBytes) throw importFailed(`${name} is larger than a backup's ${name} can be`);
                parts.push(part as Buffer);
              }
            } catch (error) {
              throw isImportFailure(error) ? error : corrupt();
            }
            return Buffer.concat(parts).toString("utf8");
          },
          async *rows<T>(name: string, schema: z.ZodType<T>) {
            if (!raw.has(name)) return;
            let lineNumber = 0;
            const parse = (line: Buffer): T => {
              lineNumber += 1;
              let value: unknown;
              try {
                value = JSON.parse(line.toString("utf8"));
              } catch {
                throw importFailed(`${name} line ${lineNumber} is not JSON`);
              }
              const parsed = schema.safeParse(value);
              if (!parsed.success) throw importFailed(`${name} line ${lineNumber} is invalid (${parsed.error.issues[0]?.path.join(".")})`);
              return parsed.data;
            };
            for await (const lines of splitLines(await open(name), name)) {
              const batch: T[] = [];
              for (const line of lines) if (line.length > 0 && !isBlank(line)) batch.push(parse(line));
              if (batch.length > 0) yield batch;
            }
          },
          close: () => zip.close(),
        };
      }
    });
  });
}

const gigabytes = (bytes: number) => `${bytes / 1024 ** 3} GB`;

/**
 * The entry's bytes, failing with a reason a user can read: yauzl (validateEntrySizes) stops an entry at the first
 * byte past its declared size, with its own words.
 */
function withClearErrors(stream: Readable, name: string): Readable {
  const out = new PassThrough();
  stream.on("error", (error: Error) => {
    out.destroy(/too many bytes/.test(error.message) ? importFailed(`${name} expands to more than its header declares (a zip bomb?)`) : corrupt());
  });
  out.on("close", () => stream.destroy());
  return stream.pipe(out);
}

const isImportFailure = (error: unknown) => error instanceof Error && "code" in error && (error as { code: unknown }).code === "import_failed";

function isBlank(line: Buffer): boolean {
  for (const byte of line) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  return true;
}

/** The stream's lines as byte slices, a batch per chunk read; a line longer than MAX_LINE_BYTES is refused. */
async function* splitLines(stream: Readable, name: string): AsyncGenerator<Buffer[]> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const lines: Buffer[] = [];
      let start = 0;
      for (let newline = chunk.indexOf(10, start); newline !== -1; newline = chunk.indexOf(10, start)) {
        const tail = chunk.subarray(start, newline);
        if (pendingBytes + tail.length > MAX_LINE_BYTES) throw tooLong(name);
        lines.push(pending.length > 0 ? Buffer.concat([...pending, tail]) : tail);
        pending = [];
        pendingBytes = 0;
        start = newline + 1;
      }
      if (start < chunk.length) {
        pendingBytes += chunk.length - start;
        if (pendingBytes > MAX_LINE_BYTES) throw tooLong(name);
        pending.push(chunk.subarray(start));
      }
      if (lines.length > 0) yield lines;
    }
  } catch (error) {
    stream.destroy();
    throw isImportFailure(error) ? error : corrupt();
  }
  if (pending.length > 0) yield [Buffer.concat(pending)];
}

const tooLong = (name: string) => importFailed(`${name} has a line longer than ${MAX_LINE_BYTES / 1024 / 1024} MB, which no backup has`);
