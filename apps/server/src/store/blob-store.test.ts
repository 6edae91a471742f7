import { readdirSync, readFileSync } from "node:fs";
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
});
