import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { ConversionError, type Chunk, type ConversionInput, type ConvertedDocument } from "../../documents/documents.ts";
import { createBlobStore } from "../../store/blob-store.ts";
import { openStore } from "../../store/open-store.ts";
import { createKnowledgeRepo } from "./knowledge.repo.ts";
import { readTogether, type ReadTogetherDeps } from "./read-together.ts";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A store with the user's mails saved as files, and a reader that reads each file's text as one chunk ("fail:" and
 * "die" in a file stand for a message its reader refuses, and one that kills the reader).
 */
async function setup(texts: string[]) {
  const temp = makeTempDir();
  const store = openStore({ dataDir: temp.dir });
  cleanups.push(
    () => temp.remove(),
    () => store.close(),
  );
  store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (1, 'u', 'x', '2025-01-01')").run();
  const repo = createKnowledgeRepo(store);
  const blobs = createBlobStore(store.uploadsDir);
  const stored = await blobs.putMany(texts.map((text) => Buffer.from(text)));
  const ids = await repo.insertItems(
    stored.map((blob, index) => ({
      userId: 1,
      conversationId: null,
      parentId: null,
      type: "file" as const,
      name: `mail ${index}.eml`,
      path: `mail ${index}.eml`,
      size: blob.size,
      storageKey: blob.key,
      status: "queued" as const,
    })),
  );
  const calls = { batches: [] as number[], alone: [] as number[], indexed: [] as number[] };
  const read = (input: ConversionInput): ConvertedDocument | ConversionError => {
    const text = readFileSync((input as { path: string }).path, "utf8");
    if (text.startsWith("fail:")) return new ConversionError(text.slice(5).trim());
    return { chunks: [{ position: 0, source: "", content: text }] };
  };
  const deps: ReadTogetherDeps = {
    repo,
    blobs,
    documents: {
      async convertMany(inputs) {
        calls.batches.push(inputs.length);
        const documents = inputs.map(read);
        if (documents.some((document) => !(document instanceof Error) && document.chunks[0]!.content === "die")) {
          throw new ConversionError("The document could not be processed: its reader stopped unexpectedly (SIGKILL)");
        }
        return documents;
      },
    },
    index: {
      async indexItems(entries: Array<{ item: { id: number }; chunks: Chunk[] }>) {
        // An item deleted meanwhile comes back as null, as the chunk store answers.
        const kept = new Set((await repo.getItemsByIds(entries.map((entry) => entry.item.id))).map((item) => item.id));
        return entries.map((entry) => {
          if (!kept.has(entry.item.id)) return null;
          calls.indexed.push(entry.item.id);
          return { chunkCount: entry.chunks.length };
        });
      },
    },
    readAlone: async (itemId) => {
      calls.alone.push(itemId);
      await repo.updateItem(itemId, { status: "failed", statusReason: "read alone" });
    },
    addAttachments: async () => undefined,
    warn: () => undefined,
  };
  const statuses = async () => (await repo.getItemsByIds(ids)).sort((a, b) => a.id - b.id).map((item) => [item.status, item.statusReason, item.chunkCount]);
  return { ids, repo, deps, calls, statuses };
}

describe("reading a mail sync's batch together", () => {
  it("reads the batch in one call, each message ending ready or failed with its own reason", async () => {
    const { ids, deps, calls, statuses } = await setup(["Falcon budget approved.", "fail: The message is encrypted", "Heron survey on Monday."]);
    await readTogether(deps, ids);

    expect(calls.batches).toEqual([3]);
    expect(await statuses()).toEqual([
      ["ready", null, 1],
      ["failed", "The message is encrypted", 0],
      ["ready", null, 1],
    ]);
  });

  it("reads a batch whose reader died one message at a time, so only the one at fault fails", async () => {
    const { ids, deps, calls } = await setup(["Falcon budget approved.", "die", "Heron survey on Monday."]);
    await readTogether(deps, ids);

    expect(calls.batches).toEqual([3]);
    expect(calls.alone).toEqual(ids);
  });

  it("leaves out a message deleted while the batch was read, and skips what a resumed batch already read", async () => {
    const { ids, repo, deps, calls, statuses } = await setup(["Falcon budget approved.", "Kestrel nest found.", "Heron survey on Monday."]);
    await repo.updateItem(ids[0]!, { status: "ready", chunkCount: 4 });
    const convertMany = deps.documents.convertMany;
    deps.documents.convertMany = async (inputs) => {
      await repo.deleteItem(1, ids[1]!);
      return convertMany(inputs);
    };
    await readTogether(deps, ids);

    expect(calls.batches).toEqual([2]);
    expect(calls.indexed).toEqual([ids[2]]);
    expect(await statuses()).toEqual([
      ["ready", null, 4],
      ["ready", null, 1],
    ]);
  });
});
