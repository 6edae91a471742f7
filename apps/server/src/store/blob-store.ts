import { randomUUID } from "node:crypto";
import { createWriteStream, renameSync, writeFileSync } from "node:fs";
import { readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Readable } from "node:stream";

/** A file up to this size is written synchronously by putMany; a larger one through the thread pool. */
const SMALL_FILE_BYTES = 64 * 1024;
/** What putMany writes synchronously in one event-loop turn, a file's creation and rename counted as 16 KB (~0.3 ms here). */
const TURN_BYTES = 128 * 1024;
const FILE_COST_BYTES = 16 * 1024;

/**
 * Uploaded bytes live under the data dir, named by a random key (never the user's filename).
 * Writes go to a temp name and are renamed into place, so a crash never leaves a half file under a real key.
 */
/** A temporary file touched this recently may be another process's upload in progress (a shared folder). */
const SHARED_TEMPORARY_MS = 3_600_000;

export function createBlobStore(uploadsDir: string, options: { shared?: boolean; now?: () => number } = {}) {
  const now = options.now ?? Date.now;
  const pathOf = (key: string) => {
    if (!/^[\w-]+$/.test(key)) throw new Error(`invalid blob key: ${key}`);
    return path.join(uploadsDir, key);
  };

  /** Removes blobs; missing ones are fine (already gone). */
  const remove = async (keys: Iterable<string | null | undefined>): Promise<void> => {
    await Promise.all([...keys].filter((key): key is string => !!key).map((key) => rm(pathOf(key), { force: true })));
  };

  /** Writes a blob under a temporary name and renames it into place; the temporary file goes if either fails. */
  const intoPlace = async (key: string, write: (temporary: string) => Promise<unknown> | void, now = false) => {
    const temporary = path.join(uploadsDir, `.tmp-${key}`);
    try {
      await write(temporary);
      if (now) renameSync(temporary, pathOf(key));
      else await rename(temporary, pathOf(key));
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
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
      let size = 0;
      source.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (options.maxBytes !== undefined && size > options.maxBytes) source.destroy(new BlobTooLargeError(options.maxBytes));
      });
      await intoPlace(key, (temporary) => pipeline(source, createWriteStream(temporary, { flags: "wx" })));
      return { key, size };
    },

    /**
     * Many files already in memory (a batch of fetched mails), each written to a temporary name and renamed. Small
     * ones are written synchronously, a few to an event-loop turn: through the thread pool each tiny file cost twice
     * the CPU in hand-offs, on threads that took the CPU from the server's own (decision 049). Answers each one's
     * key and size in order; on a failure none is kept.
     */
    async putMany(list: Buffer[]): Promise<Array<{ key: string; size: number }>> {
      const keys = list.map(() => randomUUID());
      const write = (bytes: Buffer, key: string, now: boolean) =>
        intoPlace(key, (temporary) => (now ? writeFileSync(temporary, bytes, { flag: "wx" }) : writeFile(temporary, bytes, { flag: "wx" })), now);
      const large = Promise.allSettled(list.map((bytes, index) => (bytes.length > SMALL_FILE_BYTES ? write(bytes, keys[index]!, false) : undefined)));
      let failure: unknown;
      let turnBytes = 0;
      for (const [index, bytes] of list.entries()) {
        if (bytes.length > SMALL_FILE_BYTES) continue;
        if (turnBytes >= TURN_BYTES) {
          await nextTurn();
          turnBytes = 0;
        }
        turnBytes += bytes.length + FILE_COST_BYTES;
        try {
          await write(bytes, keys[index]!, true);
        } catch (error) {
          failure = error;
          break;
        }
      }
      const failed = (await large).find((result) => result.status === "rejected");
      if (failure !== undefined || failed) {
        await remove(keys);
        throw failure ?? (failed as PromiseRejectedResult).reason;
      }
      return list.map((bytes, index) => ({ key: keys[index]!, size: bytes.length }));
    },

    async size(key: string): Promise<number | null> {
      try {
        return (await stat(pathOf(key))).size;
      } catch {
        return null;
      }
    },

    /**
     * Removes the half-written files of uploads a crash cut off (at start-up, when no upload of this process is
     * running). In a folder other processes share, only those untouched for an hour: the others may be theirs.
     */
    async removeTemporaries(): Promise<void> {
      const names = (await readdir(uploadsDir).catch(() => [] as string[])).filter((name) => name.startsWith(".tmp-"));
      await Promise.all(
        names.map(async (name) => {
          const file = path.join(uploadsDir, name);
          if (options.shared && now() - ((await stat(file).catch(() => null))?.mtimeMs ?? 0) < SHARED_TEMPORARY_MS) return;
          await rm(file, { force: true });
        }),
      );
    },

    remove,
  };
}

export type BlobStore = ReturnType<typeof createBlobStore>;

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`File is larger than the ${Math.round(maxBytes / 1_048_576)} MB limit`);
  }
}
