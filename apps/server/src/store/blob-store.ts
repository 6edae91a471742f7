import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Readable } from "node:stream";

/**
 * Uploaded bytes live under the data dir, named by a random key (never the user's filename).
 * Writes go to a temp name and are renamed into place, so a crash never leaves a half file under a real key.
 */
export function createBlobStore(uploadsDir: string) {
  const pathOf = (key: string) => {
    if (!/^[\w-]+$/.test(key)) throw new Error(`invalid blob key: ${key}`);
    return path.join(uploadsDir, key);
  };

  return {
    pathOf,

    /** A fresh key, for a caller that records the key before the bytes are written (a restore). */
    newKey: () => randomUUID(),

    /**
     * Streams `source` to disk; stops with an error past `maxBytes`. Returns the key (a new one unless given) and
     * the size.
     */
    async put(source: Readable, options: { maxBytes?: number; key?: string } = {}): Promise<{ key: string; size: number }> {
      const key = options.key ?? randomUUID();
      pathOf(key);
      const temporary = path.join(uploadsDir, `.tmp-${key}`);
      let size = 0;
      source.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (options.maxBytes !== undefined && size > options.maxBytes) source.destroy(new BlobTooLargeError(options.maxBytes));
      });
      try {
        await pipeline(source, createWriteStream(temporary, { flags: "wx" }));
        await rename(temporary, pathOf(key));
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      return { key, size };
    },

    /** Bytes already in memory (a fetched mail): one write and a rename, no stream; many may run at once. */
    async putBytes(bytes: Buffer): Promise<{ key: string; size: number }> {
      const key = randomUUID();
      const temporary = path.join(uploadsDir, `.tmp-${key}`);
      try {
        await writeFile(temporary, bytes, { flag: "wx" });
        await rename(temporary, pathOf(key));
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      return { key, size: bytes.length };
    },

    async size(key: string): Promise<number | null> {
      try {
        return (await stat(pathOf(key))).size;
      } catch {
        return null;
      }
    },

    /** Removes the half-written files of uploads a crash cut off (at start-up, when no upload is running). */
    async removeTemporaries(): Promise<void> {
      const names = await readdir(uploadsDir).catch(() => [] as string[]);
      await Promise.all(names.filter((name) => name.startsWith(".tmp-")).map((name) => rm(path.join(uploadsDir, name), { force: true })));
    },

    /** Removes blobs; missing ones are fine (already gone). */
    async remove(keys: Iterable<string | null | undefined>): Promise<void> {
      await Promise.all([...keys].filter((key): key is string => !!key).map((key) => rm(pathOf(key), { force: true })));
    },
  };
}

export type BlobStore = ReturnType<typeof createBlobStore>;

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`File is larger than the ${Math.round(maxBytes / 1_048_576)} MB limit`);
  }
}
