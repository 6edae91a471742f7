import { describe, expect, it } from "vitest";
import type { KnowledgeItem } from "@sage/contracts/knowledge";
import { foldersFromPicked } from "./folder-entries";
import { folderTrail, itemLocation, itemsIn, pageListLabel, preview, searchItems, searchKnowledge, splitSupported, subfolders } from "./knowledge-view";

const item = (id: number, name: string, parentId = 0, extra: Partial<KnowledgeItem> = {}): KnowledgeItem => ({
  id,
  name,
  type: "folder",
  path: name,
  description: "",
  content: "",
  url: null,
  parentId,
  userId: 3,
  conversationId: 0,
  size: 0,
  status: "ready",
  statusReason: null,
  chunkCount: 0,
  createdAt: "2025-03-05T10:00:00.000Z",
  ...extra,
});

describe("knowledge view helpers", () => {
  it("keeps only supported files, whatever the case of the extension", () => {
    const { accepted, rejected } = splitSupported([
      { name: "a.PDF" },
      { name: "b.docx" },
      { name: "c.Doc" },
      { name: "d.txt" },
      { name: "e.exe" },
      { name: "f.XLSX" },
      { name: "pdf" },
    ]);
    expect(accepted.map((file) => file.name)).toEqual(["a.PDF", "b.docx", "c.Doc", "d.txt", "f.XLSX"]);
    expect(rejected.map((file) => file.name)).toEqual(["e.exe", "pdf"]);
  });

  it("accepts a .zip of documents", () => {
    expect(splitSupported([{ name: "Deals.ZIP" }, { name: "deals.7z" }]).accepted.map((file) => file.name)).toEqual(["Deals.ZIP"]);
  });

  it("names the pages text recognition read", () => {
    expect(pageListLabel([1])).toBe("page 1");
    expect(pageListLabel([3, 7])).toBe("pages 3, 7");
  });

  it("groups a picked folder's files by their top folder, leaving hidden and system files out", () => {
    const file = (name: string) => ({ name }) as File;
    const picked = foldersFromPicked([
      { file: file("q1.md"), relativePath: "Board/2024/q1.md" },
      { file: file(".DS_Store"), relativePath: "Board/.DS_Store" },
      { file: file("x.txt"), relativePath: "Board/.git/x.txt" },
      { file: file("a.txt"), relativePath: "Deals/a.txt" },
    ]);
    expect(picked.map((folder) => [folder.name, folder.files.map((entry) => entry.relativePath)])).toEqual([
      ["Board", ["Board/2024/q1.md"]],
      ["Deals", ["Deals/a.txt"]],
    ]);
  });

  it("previews a note at 200 characters", () => {
    expect(preview("x".repeat(250), 200)).toBe(`${"x".repeat(200)}...`);
    expect(preview("short", 200)).toBe("short");
  });

  it("builds the breadcrumb trail from a flat list or the nested tree", () => {
    const flat = [item(1, "A"), item(2, "B", 1), item(3, "C", 2)];
    expect(folderTrail(flat, 3).map((folder) => folder.name)).toEqual(["A", "B", "C"]);
    const tree = [{ ...item(1, "A"), items: [{ ...item(2, "B", 1), items: [item(3, "C", 2)] }] }];
    expect(folderTrail(tree, 3).map((folder) => folder.name)).toEqual(["A", "B", "C"]);
    expect(subfolders(tree, 2).map((folder) => folder.name)).toEqual(["C"]);
    expect(subfolders(tree, 0).map((folder) => folder.name)).toEqual(["A"]);
  });

  it("shows folders first, and only system items at the root", () => {
    const items = [
      item(1, "Zeta"),
      item(2, "alpha.txt", 0, { type: "file" }),
      item(3, "Chat file.txt", 0, { type: "file", conversationId: 9 }),
      item(4, "Inner.txt", 1, { type: "file", conversationId: 9 }),
    ];
    expect(itemsIn(items, 0).map((entry) => entry.name)).toEqual(["Zeta", "alpha.txt"]);
    expect(itemsIn(items, 1).map((entry) => entry.name)).toEqual(["Inner.txt"]);
  });

  it("searches names case-insensitively across folders", () => {
    const items = [item(1, "Reports"), item(2, "Q1 report.pdf", 1, { type: "file" }), item(3, "notes.txt", 0, { type: "file" })];
    expect(searchItems(items, "REPORT").map((entry) => entry.name)).toEqual(["Reports", "Q1 report.pdf"]);
    expect(searchItems(items, "  ")).toEqual([]);
  });

  it("says the text matched only when the passage holds a word searched for (the index finds names too)", () => {
    const items = [item(1, "zebra-crossings.txt", 0, { type: "file" }), item(2, "Zebra facts.txt", 0, { type: "file" })];
    const hits = [
      { fileId: 1, passage: "Road markings for the school entrance." },
      { fileId: 2, passage: "Every zebra has its own stripes." },
    ];
    expect(searchKnowledge(items, "zebra", hits).map((result) => [result.item.name, result.match])).toEqual([
      ["Zebra facts.txt", 'Name and text match: "Every zebra has its own stripes."'],
      ["zebra-crossings.txt", "Name matches"],
    ]);
  });

  it("says where a search result sits, so files with one name are told apart", () => {
    const [board, year, filed, inConversation, inUnknownConversation] = [
      item(1, "Board"),
      item(2, "2025", 1),
      item(3, "minutes.txt", 2, { type: "file" }),
      item(4, "minutes.txt", 0, { type: "file", conversationId: 9 }),
      item(5, "minutes.txt", 0, { type: "file", conversationId: 8 }),
    ];
    const items = [board, year, filed, inConversation, inUnknownConversation];
    const names = (id: number) => (id === 9 ? "Q3 board review" : undefined);
    expect(itemLocation(filed, items, names)).toBe("Knowledge Base / Board / 2025");
    expect(itemLocation(board, items, names)).toBe("Knowledge Base");
    expect(itemLocation(inConversation, items, names)).toBe("Conversation: Q3 board review");
    expect(itemLocation(inUnknownConversation, items, names)).toBe("Conversation: #8");
  });
});
