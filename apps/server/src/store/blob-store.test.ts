import { readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { createBlobStore } from "./blob-store.ts";

const temps: Array<{ remove(): void }> = [];
afterEach(() => temps.splice(0).forEach((temp) => temp.remove()));

describe("blob store", () => {
  it("keeps a batch of files, small and large, each under its own key, with no temporary file left", async () => {
    const temp = makeTempDir();
    temps.push(temp);
    const blobs = createBlobStore(temp.dir);
    const files = [
      Buffer.from("Short mail about the Falcon budget."),
      Buffer.alloc(200_000, "x"),
      ...Array.from({ length: 40 }, (_, n) => Buffer.alloc(8_000, `${n % 10}`)),
    ];
    const stored = await blobs.putMany(files);

    expect(stored.map((blob) => blob.size)).toEqual(files.map((file) => file.length));
    expect(new Set(stored.map((blob) => blob.key)).size).toBe(files.length);
    stored.forEach((blob, index) => expect(readFileSync(blobs.pathOf(blob.key)).equals(files[index]!)).toBe(true));
    expect(readdirSync(temp.dir).filter((name) => name.startsWith(".tmp-"))).toEqual([]);
  });

  it("at start-up removes the half-written files a crash left; in a shared folder only those no process touched for an hour", async () => {
    const temp = makeTempDir();
    temps.push(temp);
    const now = Date.parse("2026-11-28T09:00:00Z");
    const temporary = (name: string, minutesAgo: number) => {
      writeFileSync(path.join(temp.dir, name), "half");
      const at = new Date(now - minutesAgo * 60_000);
      utimesSync(path.join(temp.dir, name), at, at);
    };
    temporary(".tmp-old", 90);
    temporary(".tmp-recent", 5);
    writeFileSync(path.join(temp.dir, "kept-key"), "whole");
    await createBlobStore(temp.dir, { shared: true, now: () => now }).removeTemporaries();
    expect(readdirSync(temp.dir).sort()).toEqual([".tmp-recent", "kept-key"]);
    await createBlobStore(temp.dir, { now: () => now }).removeTemporaries();
    expect(readdirSync(temp.dir)).toEqual(["kept-key"]);
  });
});
