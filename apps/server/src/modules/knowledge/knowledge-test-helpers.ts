import { describe, expect, it } from "vitest";
import { testDatabasesOf, type OpenTestDatabase, type TestDatabase } from "../../test/test-databases.ts";
import type { RestoredItem } from "./knowledge-backup-rows.ts";
import { createKnowledgeRepo } from "./knowledge.repo.ts";
import { toApiItem } from "./knowledge.service.ts";

const ME = 1;
const OTHER = 2;
const AT = "2026-11-28T09:00:00.000Z";

/** The repository as the module builds it on that engine: SQLite's with its synchronous statements. */
const repoOf = (database: TestDatabase) => createKnowledgeRepo({ db: database.db, ...database.sqlite });

const text = async (parts: AsyncIterable<string>) => {
  let all = "";
  for await (const part of parts) all += part;
  return all;
};

/** Knowledge items, the same on each engine: knowledge.repo.test.ts (SQLite), knowledge.integration.test.ts. */
export function knowledgeRepoCases(engine: string, open: OpenTestDatabase) {
  describe(`knowledge items (${engine})`, () => {
    const databases = testDatabasesOf(open);

    async function setUp() {
      const database = await databases.databaseWithUsers(ME, OTHER);
      const { db } = database;
      const conversation = async (name: string, deletedAt: string | null = null) =>
        (await db.insertInto("conversations").values({ userId: ME, name, createdAt: AT, updatedAt: AT, deletedAt }).returning("id").executeTakeFirstOrThrow())
          .id;
      return { db, repo: repoOf(database), conversation };
    }

    it("lists as the API's JSON, a page at a time, exactly what one query gives mapped item by item", async () => {
      const { repo, conversation } = await setUp();
      const board = await conversation("Board");
      const gone = await conversation("Deleted", AT);
      const item = (fields: Partial<Parameters<typeof repo.insertItem>[0]> & { type: "file" | "url" | "note" | "folder"; name: string }) =>
        repo.insertItem({ userId: ME, path: fields.name, description: `${fields.name} description`, ...fields });
      const folder = await item({ type: "folder", name: "Zeta" });
      await item({ type: "file", name: "b.txt", parentId: folder, size: 12, status: "ready", chunkCount: 3, ocrPages: "[1,2]", ocrFailedPages: "[3]" });
      await item({ type: "file", name: "B.txt", description: 'quote " backslash \\ tab \t', status: "failed", statusReason: "The PDF could not be read" });
      await item({ type: "file", name: "b.txt", description: "same name, later id", status: "stored", statusReason: "scanned" });
      await item({ type: "note", name: "Émile's note…", conversationId: board, content: "line\nbreak, emoji 🦜, 東京" });
      await item({ type: "url", name: "example.com page", parentId: folder, url: "https://example.com/page?a=1&b=2" });
      await item({ type: "folder", name: "alpha" });
      for (let index = 0; index < 7; index++) await item({ type: "note", name: `n${index % 3}`, parentId: folder, content: `note ${index}`, status: "queued" });
      await item({ type: "note", name: "In a deleted conversation", conversationId: gone, content: "kept, not listed" });
      await repo.insertItem({ userId: OTHER, type: "note", name: "Not mine", content: "secret" });

      for (const filter of [{}, { conversationId: null }, { conversationId: board }, { parentId: folder }, { parentId: null }]) {
        const expected = (await repo.listItems(ME, filter)).map(toApiItem).filter((entry) => entry.conversationId !== gone);
        for (const pageSize of [1, 2, 5, 2000]) expect(JSON.parse(await text(repo.listJson(ME, filter, pageSize)))).toEqual(expected);
      }
      const all = JSON.parse(await text(repo.listJson(ME, {}))) as Array<{ name: string; ocrPages: number[]; content: string }>;
      expect(all.map((entry) => entry.name)).toEqual([
        "example.com page",
        "n0",
        "n0",
        "n0",
        "n1",
        "n1",
        "n2",
        "n2",
        "Émile's note…",
        "Zeta",
        "alpha",
        "B.txt",
        "b.txt",
        "b.txt",
      ]);
      expect(all.find((entry) => entry.ocrPages.length)?.ocrPages).toEqual([1, 2]);
      expect(all.find((entry) => entry.name === "Émile's note…")?.content).toBe("line\nbreak, emoji 🦜, 東京");
      expect(JSON.parse(await text(repo.listJson(OTHER, { conversationId: gone })))).toEqual([]);
    });

    it("keeps a note's text apart: a status change leaves it, an empty text removes it", async () => {
      const { db, repo } = await setUp();
      const id = await repo.insertItem({ userId: ME, type: "note", name: "Plan", content: "Hire two engineers", status: "queued" });
      await repo.updateItem(id, { status: "ready", chunkCount: 1 });
      expect(await repo.getItem(ME, id)).toMatchObject({ status: "ready", chunkCount: 1, content: "Hire two engineers" });
      expect(await repo.getItem(OTHER, id)).toBeUndefined();
      await repo.updateItem(id, { content: "Hire three" });
      expect(await repo.getText(id)).toBe("Hire three");
      await repo.updateItem(id, { content: "" });
      expect(await repo.getText(id)).toBe("");
      expect(await db.selectFrom("knowledgeItemTexts").selectAll().execute()).toEqual([]);

      const [first, second] = await repo.insertItems([
        { userId: ME, type: "file", name: "a.pdf", status: "queued" },
        { userId: ME, type: "file", name: "b.pdf", status: "queued" },
      ]);
      await repo.updateItems([first!, second!], { status: "ready" }, new Map([[second!, 7]]));
      expect((await repo.getItemsByIds([first!, second!])).map((row) => [row.name, row.status, row.chunkCount])).toEqual([
        ["a.pdf", "ready", 0],
        ["b.pdf", "ready", 7],
      ]);
    });

    it("walks a folder's subtree, and deleting it takes the descendants and marks their stored files for removal", async () => {
      const { repo } = await setUp();
      const top = await repo.insertItem({ userId: ME, type: "folder", name: "Top" });
      const inner = await repo.insertItem({ userId: ME, type: "folder", name: "Inner", parentId: top });
      const file = await repo.insertItem({ userId: ME, type: "file", name: "deck.pptx", parentId: inner, storageKey: "key-deck" });
      await repo.insertItem({ userId: ME, type: "file", name: "kept.pdf", storageKey: "key-kept" });
      expect((await repo.subtree(ME, top)).map((row) => [row.name, row.depth])).toEqual([
        ["Top", 0],
        ["Inner", 1],
        ["deck.pptx", 2],
      ]);
      expect(await repo.subtree(OTHER, top)).toEqual([]);
      await repo.setPaths([{ id: file, path: "Top/Inner/deck.pptx" }]);
      expect((await repo.getItem(ME, file))?.path).toBe("Top/Inner/deck.pptx");

      await repo.deleteItem(OTHER, top);
      expect(await repo.countItems(ME)).toBe(4);
      await repo.deleteItem(ME, top);
      expect(await repo.countItems(ME)).toBe(1);
      expect(await repo.pendingBlobDeletions()).toEqual(["key-deck"]);
      await repo.clearBlobDeletions(["key-deck"]);
      expect(await repo.pendingBlobDeletions()).toEqual([]);
    });

    it("finds a duplicate file or a folder only in the place asked, and only the user's", async () => {
      const { repo, conversation } = await setUp();
      const board = await conversation("Board");
      const folder = await repo.insertItem({ userId: ME, type: "folder", name: "Reports" });
      await repo.insertItem({ userId: ME, type: "folder", name: "Reports", conversationId: board });
      const file = await repo.insertItem({ userId: ME, type: "file", name: "q3.pdf", contentHash: "abc", parentId: folder });
      const place = { userId: ME, conversationId: null, parentId: folder };
      expect((await repo.findDuplicate({ ...place, contentHash: "abc" }))?.id).toBe(file);
      expect(await repo.findDuplicate({ ...place, parentId: null, contentHash: "abc" })).toBeUndefined();
      expect(await repo.findDuplicate({ ...place, userId: OTHER, contentHash: "abc" })).toBeUndefined();
      expect((await repo.findFolder({ userId: ME, conversationId: null, parentId: null, name: "Reports" }))?.id).toBe(folder);
      expect((await repo.findFolder({ userId: ME, conversationId: board, parentId: null, name: "Reports" }))?.id).not.toBe(folder);
      expect(await repo.findFolder({ userId: OTHER, conversationId: null, parentId: null, name: "Reports" })).toBeUndefined();
    });

    it("a backup reads the items out a page at a time and a restore writes them back with their parents", async () => {
      const { repo, conversation } = await setUp();
      const board = await conversation("Board");
      const folder = await repo.insertItem({ userId: ME, type: "folder", name: "Trips" });
      await repo.insertItem({ userId: ME, type: "note", name: "Lisbon", parentId: folder, content: "Hotel near the river", conversationId: board });
      await repo.insertItem({ userId: ME, type: "file", name: "scan.pdf", parentId: folder, storageKey: "key-scan", ocrPages: "[2]", status: "ready" });
      await repo.insertItem({ userId: ME, type: "url", name: "Airline", url: "https://example.com/" });
      await repo.insertItem({ userId: OTHER, type: "note", name: "Not mine", content: "secret" });

      expect(await repo.summary(ME)).toEqual({ files: 1, links: 1, notes: 1, folders: 1, inConversations: 1 });
      const firstPage = await repo.exportPage(ME, 0, 2);
      const secondPage = await repo.exportPage(ME, firstPage[1]!.row.id, 2);
      expect(await repo.exportPage(ME, secondPage[1]!.row.id, 2)).toEqual([]);
      const exported = [...firstPage, ...secondPage];
      expect(exported.map((entry) => entry.row.name)).toEqual(["Trips", "Lisbon", "scan.pdf", "Airline"]);
      expect(exported[1]!.row).toMatchObject({ parent_id: folder, conversation_id: board, content: "Hotel near the river", ocr_pages: [] });
      expect(exported[2]).toMatchObject({ storageKey: "key-scan", row: { ocr_pages: [2], content: "" } });

      // Emptied a batch at a time: children detached first, then rows deleted, until nothing is left.
      const steps: number[] = [];
      for (let step = await repo.emptyStep(ME, 2); step > 0; step = await repo.emptyStep(ME, 2)) steps.push(step);
      expect(steps).toEqual([2, 2, 2]);
      expect(await repo.countItems(ME)).toBe(0);
      expect(await repo.countItems(OTHER)).toBe(1);

      const restored: RestoredItem[] = exported.map(({ row }) => ({
        type: row.type,
        name: row.name,
        path: row.path,
        description: row.description,
        content: row.content,
        url: row.url,
        size: row.size,
        conversationId: row.conversation_id,
        mimeType: row.mime_type,
        storageKey: row.type === "file" ? "key-restored" : null,
        contentHash: row.content_hash,
        status: row.status,
        statusReason: row.status_reason,
        chunkCount: 4,
        ocrPages: row.ocr_pages,
        ocrFailedPages: row.ocr_failed_pages,
        madeFrom: row.made_from ?? null,
        createdAt: row.created_at,
      }));
      const ids = await repo.insertRestored(ME, restored);
      expect(ids).toHaveLength(4);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      await repo.setParents([
        { id: ids[1]!, parentId: ids[0]! },
        { id: ids[2]!, parentId: ids[0]! },
      ]);
      const back = await repo.exportPage(ME, 0, 10);
      expect(back.map((entry) => [entry.row.name, entry.row.parent_id, entry.row.content, entry.row.ocr_pages])).toEqual([
        ["Trips", null, "", []],
        ["Lisbon", ids[0], "Hotel near the river", []],
        ["scan.pdf", ids[0], "", [2]],
        ["Airline", null, "", []],
      ]);
      expect(await repo.summary(ME)).toEqual({ files: 1, links: 1, notes: 1, folders: 1, inConversations: 1 });
    });
  });
}
