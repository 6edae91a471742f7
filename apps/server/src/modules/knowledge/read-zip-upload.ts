import type { Readable } from "node:stream";
import yauzl from "yauzl";
import { AppError, badRequest } from "../../http/app-error.ts";

/**
 * Zip-bomb and path guards for an uploaded archive of documents, the same kinds of checks as backup import
 * (decisions 016 and 027): entry count, each entry's and the total expanded size (declared, and no entry yields a
 * byte more while it streams), no overlapping entries, and no absolute, '..', backslash or symbolic-link entries.
 * No compression ratio: a log of one repeated line deflates 500:1 and is an honest document. The numbers fit a
 * folder of documents rather than a four-entry backup.
 */
export const ZIP_LIMITS = {
  maxEntries: 2000,
  maxExpandedBytes: 1024 * 1024 * 1024,
};

export interface ZipFileEntry {
  /** The entry's path inside the archive, '/'-separated and checked safe. */
  name: string;
  size: number;
}

const fail = (detail: string) => badRequest(`The zip archive could not be unpacked: ${detail}`, "invalid_archive");

/** Hidden and system entries (macOS resource forks, .DS_Store, Thumbs.db) are no one's documents. */
const isSystemEntry = (name: string) =>
  name.split("/").some((part) => part.startsWith(".") || part === "__MACOSX") || /(^|\/)(thumbs\.db|desktop\.ini)$/i.test(name);

type ZipFile = yauzl.ZipFile;

function openZip(zipPath: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(zipPath, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true, autoClose: true }, (error, zip) => {
      if (error || !zip) reject(fail("the file is not a readable ZIP archive"));
      else resolve(zip);
    });
  });
}

/**
 * Walks an archive's entries, checking every one before anything is read, then (second pass) streams the files
 * `wanted` accepts to `onFile` one at a time. A problem anywhere is a 400 naming it.
 */
export async function readZipUpload(
  zipPath: string,
  limits: typeof ZIP_LIMITS & { maxEntryBytes: number },
  wanted: (entry: ZipFileEntry) => boolean,
  onFile: (entry: ZipFileEntry, stream: Readable) => Promise<void>,
): Promise<{ files: ZipFileEntry[]; ignored: string[] }> {
  const files: ZipFileEntry[] = [];
  const ignored: string[] = [];
  let expanded = 0;
  let compressed = 0;
  const first = await openZip(zipPath);
  if (first.entryCount > limits.maxEntries) {
    first.close();
    throw fail(`it has ${first.entryCount} entries; at most ${limits.maxEntries} are unpacked`);
  }
  await walk(first, async (entry) => {
    const name = entry.fileName;
    if (name.startsWith("/") || name.includes("\\") || name.split("/").includes("..") || /^[a-z]:/i.test(name))
      throw fail(`it contains an unsafe path: ${name}`);
    if (((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000) throw fail(`it contains a symbolic link: ${name}`);
    // Entries of an honest zip hold bytes of their own; a bomb's entries point at the same few.
    compressed += entry.compressedSize;
    if (compressed > first.fileSize) throw fail(`its entries overlap (${name} shares its bytes with another entry; a zip bomb?)`);
    if (name.endsWith("/") || isSystemEntry(name)) return;
    if (entry.uncompressedSize > limits.maxEntryBytes) throw fail(`${name} is larger than an upload may be`);
    const file = { name, size: entry.uncompressedSize };
    if (!wanted(file)) {
      ignored.push(name);
      return;
    }
    files.push(file);
    expanded += file.size;
    if (expanded > limits.maxExpandedBytes) throw fail(`its files expand beyond ${Math.round(limits.maxExpandedBytes / 1024 / 1024)} MB`);
  });
  const byName = new Map(files.map((file) => [file.name, file]));
  await walk(await openZip(zipPath), async (entry, zip) => {
    const file = byName.get(entry.fileName);
    if (!file) return;
    const stream = await new Promise<Readable>((resolve, reject) =>
      zip.openReadStream(entry, (error, readable) => (error || !readable ? reject(fail("the ZIP archive is corrupt")) : resolve(readable))),
    );
    try {
      await onFile(file, stream);
    } catch (error) {
      // A size that differs from the directory's (yauzl stops at the first byte past it), or bad deflate data.
      if (error instanceof AppError) throw error;
      throw fail(
        error instanceof Error && /too many bytes/.test(error.message)
          ? `${file.name} expands to more than its header declares (a zip bomb?)`
          : `${file.name} is corrupt`,
      );
    }
  });
  return { files, ignored };
}

/** Visits each entry in turn (the next is read only after `visit` settles); settles once, never throws from events. */
function walk(zip: ZipFile, visit: (entry: yauzl.Entry, zip: ZipFile) => Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      if (error) {
        try {
          zip.close();
        } catch {
          // already closed
        }
        reject(error instanceof Error ? error : new Error(String(error)));
      } else resolve();
    };
    zip.on("error", (error: Error) => {
      const unsafe = /(?:invalid relative path|absolute path|invalid characters in fileName): (.*)$/.exec(error.message);
      finish(fail(unsafe ? `it contains an unsafe path: ${unsafe[1]}` : "the ZIP archive is corrupt"));
    });
    zip.on("end", () => finish());
    zip.on("entry", (entry: yauzl.Entry) => {
      visit(entry, zip).then(
        () => {
          if (!settled) zip.readEntry();
        },
        (error: unknown) => finish(error),
      );
    });
    zip.readEntry();
  });
}
