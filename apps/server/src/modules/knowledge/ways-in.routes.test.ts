import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { RELATIVE_PATH_MESSAGE, UNSUPPORTED_FILE_TYPE_MESSAGE, type KnowledgeItem } from "@sage/contracts/knowledge";
import { knowledgeClient } from "../../test/knowledge-client.ts";
import { declareSize, makeZip, overlappingZip, renameEntry } from "../../test/make-zip.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { makePdf } from "../../documents/test/test-documents.ts";
import { renderTextImage } from "../../documents/test/test-images.ts";
import { attachmentsFolderName } from "./mail-attachments.ts";
import { ocrUnclearWarning } from "./ingestion.ts";
import { ZIP_LIMITS } from "./read-zip-upload.ts";

let t: TestApp;
let kb: ReturnType<typeof knowledgeClient>;
afterEach(async () => t?.close());

async function start() {
  t = await createTestApp();
  kb = knowledgeClient(t, await t.login());
}

const allItems = async () => (await kb.call("GET", "/api/files")).json() as KnowledgeItem[];
const paths = async () => (await allItems()).map((item) => `${item.type === "folder" ? "dir " : ""}${item.path}`).sort();
const search = async (query: string) =>
  (await t.app.inject({ method: "POST", url: "/api/search", headers: { cookie: await t.login() }, payload: { query, limit: 5 } })).json() as Array<{
    content: string;
    metadata: { filename: string; source: string };
  }>;

describe("folder upload (relativePath)", () => {
  it("recreates the folder's structure as knowledge-base folders, reusing folders that already exist", async () => {
    await start();
    const target = await kb.folder("Inbox");
    const files: Array<[string, string]> = [
      ["Board/minutes.txt", "Minutes: the board approved the Osprey plan."],
      ["Board/2024/q1.md", "# Q1\nRevenue grew by nine percent."],
      ["Board/2024/q2.md", "# Q2\nThe Heron office opened."],
    ];
    for (const [relativePath, text] of files) {
      const response = await kb.upload(
        { parentId: target.id, relativePath, description: "Board papers" },
        { filename: relativePath.split("/").at(-1)!, content: Buffer.from(text) },
      );
      expect(response.statusCode).toBe(200);
    }
    expect(await paths()).toEqual([
      "Inbox/Board/2024/q1.md",
      "Inbox/Board/2024/q2.md",
      "Inbox/Board/minutes.txt",
      "dir Inbox",
      "dir Inbox/Board",
      "dir Inbox/Board/2024",
    ]);
    const tree = (await kb.call("GET", "/api/folders")).json() as KnowledgeItem[];
    expect(tree[0]!.items!.map((folder) => folder.name)).toEqual(["Board"]);
    expect((await search("Heron office"))[0]!.metadata.filename).toBe("q2.md");
  });

  it("refuses a relative path with '..' or empty parts with 400, storing nothing", async () => {
    await start();
    for (const relativePath of ["../escape.txt", "a//b.txt", "a/./b.txt", "a\\b/c.txt"]) {
      const response = await kb.upload({ relativePath }, { filename: "b.txt", content: Buffer.from("text") });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toContain(RELATIVE_PATH_MESSAGE);
    }
    expect(await allItems()).toEqual([]);
  });

  it("makes each folder once when a folder's files arrive at the same time", async () => {
    await start();
    await Promise.all(
      ["a", "b", "c", "d"].map((name) =>
        kb.upload({ relativePath: `Deals/Open/${name}.txt` }, { filename: `${name}.txt`, content: Buffer.from(`Deal ${name} notes`) }),
      ),
    );
    expect((await allItems()).filter((item) => item.type === "folder").map((item) => item.path)).toEqual(["Deals", "Deals/Open"]);
  });
});

describe("zip upload", () => {
  it("unpacks a zip into a folder named after it, each supported entry an item of its own found by search", async () => {
    await start();
    const zip = await makeZip([
      ["Plans/osprey.txt", "The Osprey plan starts in March."],
      ["Plans/Finance/budget.pdf", await makePdf([["Budget: the Kestrel line costs 4.1 million."]])],
      ["readme.md", "# Readme\nHow the Falcon files are organised."],
      ["tool.exe", "MZ"],
      ["__MACOSX/._readme.md", "junk"],
      [".DS_Store", "junk"],
    ]);
    const response = await kb.upload({ description: "Strategy archive" }, { filename: "Strategy.zip", content: zip, type: "application/zip" });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: "success", file: { type: "folder", name: "Strategy" }, archive: { added: 3, duplicates: 0, skipped: ["tool.exe"] } });
    await t.jobs.idle();
    expect(await paths()).toEqual([
      "Strategy/Plans/Finance/budget.pdf",
      "Strategy/Plans/osprey.txt",
      "Strategy/readme.md",
      "dir Strategy",
      "dir Strategy/Plans",
      "dir Strategy/Plans/Finance",
    ]);
    const items = await allItems();
    expect(items.filter((item) => item.type === "file").every((item) => item.status === "ready" && item.description === "Strategy archive")).toBe(true);
    const hit = (await search("Kestrel line costs"))[0]!;
    expect(hit.metadata).toMatchObject({ filename: "budget.pdf", source: "page 1" });
    // The archive itself is not kept: only its entries' files remain.
    const stored = await t.store.db.selectFrom("knowledgeItems").select("id").where("storageKey", "is not", null).execute();
    expect(stored).toHaveLength(3);

    const again = (await kb.upload({}, { filename: "Strategy.zip", content: zip })).json();
    expect(again.archive).toMatchObject({ folderId: body.file.id, added: 0, duplicates: 3 });
  });

  it("refuses unsafe or oversized archives with 400 and changes nothing", async () => {
    await start();
    const blobCount = async () => (await readdir(t.store.uploadsDir)).length;
    const before = await blobCount();
    const traversal = renameEntry(
      await makeZip([
        ["xx/evil.txt", "escape"],
        ["fine.txt", "fine"],
      ]),
      "xx/evil.txt",
      "../evil.txt",
    );
    // Bombs are refused by what they expand to, never by their ratio (a log of one repeated line is honest).
    const bomb = declareSize(await makeZip([["zeros.txt", Buffer.alloc(4 * 1024 * 1024)]]), 0xfff00000);
    const lying = declareSize(await makeZip([["zeros.txt", Buffer.alloc(4 * 1024 * 1024)]]), 1024);
    const overlapping = overlappingZip(
      Array.from({ length: 1000 }, (_, index) => `zeros-${index}.txt`),
      Buffer.alloc(1024 * 1024),
    );
    const crowded = await makeZip(
      Array.from({ length: ZIP_LIMITS.maxEntries + 1 }, (_, index): [string, string] => [`n${index}.txt`, `note ${index}`]),
      { compress: false },
    );
    const corrupt = Buffer.from("PK\u0003\u0004 not really a zip");
    for (const [name, content, message] of [
      ["traversal.zip", traversal, "unsafe path"],
      ["bomb.zip", bomb, "zeros.txt is larger than an upload may be"],
      ["lying.zip", lying, "zeros.txt expands to more than its header declares"],
      ["overlapping.zip", overlapping, "its entries overlap"],
      ["crowded.zip", crowded, `at most ${ZIP_LIMITS.maxEntries}`],
      ["corrupt.zip", corrupt, "not a readable ZIP archive"],
    ] as const) {
      const response = await kb.upload({}, { filename: name, content });
      expect(response.statusCode, name).toBe(400);
      expect(response.json()).toMatchObject({ code: "invalid_archive" });
      expect(response.json().error).toContain(message);
    }
    expect(await allItems()).toEqual([]);
    expect(await blobCount()).toBe(before);
  });

  it("lists zip among the accepted types in the Unsupported File Type message", async () => {
    await start();
    expect(UNSUPPORTED_FILE_TYPE_MESSAGE).toContain("archives (.zip)");
    const response = await kb.upload({}, { filename: "a.7z", content: Buffer.from("7z") });
    expect(response.statusCode).toBe(415);
    expect(response.json().error).toContain(".zip");
  });
});

describe("what the converters return, on the item", () => {
  it("adds a mail's supported attachments as items in a folder beside it, once, however often it is processed", async () => {
    await start();
    const attachment = (filename: string, type: string, body: string) => [
      "--part",
      `Content-Type: ${type}; name=${filename}`,
      `Content-Disposition: attachment; filename=${filename}`,
      "",
      body,
    ];
    const mail = [
      ...["From: Jana <jana@example.com>", "To: bob@example.com", "Subject: Supplier", 'Content-Type: multipart/mixed; boundary="part"', ""],
      ...["--part", "Content-Type: text/plain", "", "See the attached notes."],
      ...attachment("vega.txt", "text/plain", "The Vega supplier delivers telescopes on Fridays."),
      ...attachment("tool.exe", "application/octet-stream", "MZ"),
      "--part--",
      "",
    ].join("\r\n");
    const uploaded = (await kb.upload({}, { filename: "supplier.eml", content: Buffer.from(mail) })).json();
    await t.jobs.idle();
    expect(await paths()).toEqual([`dir ${attachmentsFolderName("supplier.eml")}`, "supplier.eml", `${attachmentsFolderName("supplier.eml")}/vega.txt`]);
    expect((await search("Vega supplier delivers telescopes"))[0]!.metadata.filename).toBe("vega.txt");
    expect((await kb.call("POST", `/api/files/${uploaded.file.id}/retry`)).statusCode).toBe(202);
    await t.jobs.idle();
    expect((await allItems()).length).toBe(3);
  });

  it("says which pages text recognition read", async () => {
    await start();
    const image = renderTextImage(["Quarterly report of the Merlin project"]);
    const body = (await kb.upload({}, { filename: "scan.png", content: image })).json();
    await t.jobs.idle();
    const item = (await allItems()).find((each) => each.id === body.file.id)!;
    expect(item).toMatchObject({ status: "ready", ocrPages: [1], ocrFailedPages: [] });
    const typed = (await kb.upload({}, { filename: "typed.txt", content: Buffer.from("Typed text") })).json();
    expect(typed.file).toMatchObject({ ocrPages: [], ocrFailedPages: [] });
  });

  const dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  it.skipIf(!existsSync(dejavu))("keeps a scan ready but says in plain words which page could not be read reliably", async () => {
    await start();
    // The Hebrew page as the converter's own test has it (one line alone can pass for a confident misreading).
    const hebrew = renderTextImage(["הדירקטוריון אישר את ההרחבה לאזור הצפוני.", "ההכנסות עלו ב-12 אחוזים בשנה שעברה."], { fontFile: dejavu });
    const { width, height } = await sharp(hebrew).metadata();
    const english = await sharp(renderTextImage(["Quarterly report of the Merlin project"]))
      .resize(width, height, { fit: "contain", background: "#ffffff" })
      .png()
      .toBuffer();
    const tiff = await sharp([english, hebrew], { join: { animated: true } })
      .tiff()
      .toBuffer();
    const body = (await kb.upload({}, { filename: "scan.tiff", content: tiff })).json();
    await t.jobs.idle();
    const item = (await allItems()).find((each) => each.id === body.file.id)!;
    expect(item).toMatchObject({ status: "ready", ocrPages: [1], statusReason: ocrUnclearWarning([2]) });
    expect(item.statusReason).toBe(
      "Saved, but page 2 could not be read reliably (a blurred or faint scan, or a language text recognition does not read): its text is left out",
    );
  });
});
