import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { getPriority, tmpdir } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir } from "@sage/testkit/temp-dir";
import { makeDocxBomb } from "../reliability/document-bombs.ts";
import { descendants } from "../reliability/process-tree.ts";
import { BACKGROUND_NICENESS } from "./background-priority.ts";
import { makeDocx, makePdf } from "./test/test-documents.ts";
import { renderTextImage } from "./test/test-images.ts";
import { testPools } from "./test/test-pools.ts";

const temp = makeTempDir();
const pools = testPools();
afterAll(async () => {
  await pools.close();
  temp.remove();
});

const MB = 1_048_576;
const pool = pools.pool;
function file(name: string, bytes: Buffer | string) {
  const filePath = path.join(temp.dir, name);
  writeFileSync(filePath, bytes);
  return filePath;
}

describe("conversion pool", () => {
  it("reads files, pages and notes into chunks in another process", async () => {
    const conversions = pool();
    const docx = await conversions.convert({ kind: "file", extension: "docx", path: file("plan.docx", await makeDocx()) });
    expect(docx.chunks.map((chunk) => chunk.content).join(" ")).toContain("The board approved the Falcon expansion");
    const note = await conversions.convert({ kind: "note", text: "# Trip\n\nTrains to Lyon on Monday." });
    expect(note.chunks).toEqual([{ position: 0, source: "Trip", content: "# Trip\n\nTrains to Lyon on Monday." }]);
    const page = await conversions.convert({ kind: "page", url: "https://example.com/a", contentType: "text/plain", body: Buffer.from("Plain page text.") });
    expect(page.chunks[0]!.content).toBe("Plain page text.");
    expect(await conversions.convert({ kind: "note", text: "   " })).toEqual({ chunks: [], notProcessedReason: "The note is empty" });
  });

  it("reads an image by text recognition in its process and says which pages came from it", async () => {
    const image = file("scan.png", renderTextImage(["The board approved the Falcon expansion."]));
    const document = await pool().convert({ kind: "file", extension: "png", path: image });
    expect(document.chunks.map((chunk) => chunk.content).join(" ")).toContain("Falcon expansion");
    expect(document.ocrPages).toEqual([1]);
  });

  it("leaves nothing in the temp folder once its processes end, however they end", async () => {
    const conversions = pool();
    await conversions.convert({ kind: "file", extension: "png", path: file("receipt.png", renderTextImage(["Taxi to the airport, 42 euros."])) });
    const [reader] = conversions.processIds();
    const ownTemp = /(?:^|\0)TMPDIR=([^\0]*)/.exec(readFileSync(`/proc/${reader}/environ`, "utf8"))?.[1];
    expect(ownTemp?.startsWith(path.join(tmpdir(), "sage-conversion-"))).toBe(true);
    // The OCR process (kept a while for the next page) reads its language data from a folder of links in there.
    const ocr = descendants(reader!).find((found) => found.command.includes("ocr-process"));
    const languageFolder = (JSON.parse(ocr!.command.slice(ocr!.command.indexOf("{")).trim()) as { languageFolder: string }).languageFolder;
    expect(path.dirname(languageFolder)).toBe(ownTemp);
    expect(existsSync(path.join(languageFolder, "eng.traineddata.gz"))).toBe(true);
    // Ended as its engine ends it (idle, every few pages, at a limit): outright, with no exit hook of its own.
    process.kill(ocr!.pid, "SIGKILL");
    while (existsSync(languageFolder)) await sleep(20);
    // The reader killed outright too, as at its time or memory limit: its whole temp folder goes.
    process.kill(-reader!, "SIGKILL");
    while (existsSync(ownTemp!)) await sleep(20);
  });

  it("sends a long document's chunks back in slices, all of them in order", async () => {
    const paragraphs = Array.from({ length: 6000 }, (_, index) => `Paragraph ${index} about the quarterly travel budget and its hotels.`);
    const { chunks } = await pool().convert({ kind: "file", extension: "txt", path: file("long.txt", paragraphs.join("\n\n")) });
    expect(chunks.length).toBeGreaterThan(300);
    expect(chunks.map((chunk) => chunk.position)).toEqual(chunks.map((_, index) => index));
    expect(chunks.at(-1)!.content).toContain("Paragraph 5999");
  });

  it("hands over a long note's first chunks in a small slice, so storing starts before the rest is cut", async () => {
    const text = Array.from({ length: 6000 }, (_, index) => `Paragraph ${index} about the quarterly travel budget and its hotels.`).join("\n\n");
    const slices: number[] = [];
    const document = await pool().convert({ kind: "note", text }, (chunks) => slices.push(chunks.length));
    expect(document.chunks).toEqual([]);
    const total = slices.reduce((sum, count) => sum + count, 0);
    expect(total).toBeGreaterThan(300);
    // About 16 KB of text first (a few dozen chunks), then slices twice as large up to 256 KB.
    expect(slices[0]).toBeLessThan(30);
    expect(slices[1]).toBeGreaterThan(slices[0]!);
    expect(Math.max(...slices)).toBeLessThan(total);
  });

  it("refuses a docx bomb by its declared size without opening it", async () => {
    const bomb = file("bomb.docx", await makeDocxBomb(300 * MB));
    await expect(pool().convert({ kind: "file", extension: "docx", path: bomb })).rejects.toThrow(
      "The document is too large to process: it expands to more than 256 MB",
    );
  });

  it("stops a docx bomb that hides its size at the memory limit, and the next document still converts", async () => {
    const conversions = pool({ memoryMb: 256 });
    const bomb = file("hidden-bomb.docx", await makeDocxBomb(400 * MB, { hideSize: true }));
    await expect(conversions.convert({ kind: "file", extension: "docx", path: bomb })).rejects.toThrow(
      "The document is too large to process: reading it needed more than 256 MB of memory",
    );
    const after = await conversions.convert({ kind: "note", text: "Still working." });
    expect(after.chunks[0]!.content).toBe("Still working.");
  });

  it("stops a document at the time limit", async () => {
    const pages = Array.from({ length: 150 }, (_, index) => [`Page ${index} of a long report about herons and egrets.`]);
    const pdf = file("long.pdf", await makePdf(pages));
    // Far below what reading 150 pages takes on any machine (a quiet one read them in under a second).
    await expect(pool({ timeoutMs: 30 }).convert({ kind: "file", extension: "pdf", path: pdf })).rejects.toThrow(
      "The document took too long to process (more than 0.03 s)",
    );
  });

  it("refuses a document yielding more text than the limit", async () => {
    const big = file("big.txt", "Lots of words in a very long line. ".repeat(40_000));
    await expect(pool({ maxTextBytes: MB }).convert({ kind: "file", extension: "txt", path: big })).rejects.toThrow(
      "The document is too large to process: it holds more than 1 MB of text",
    );
  });

  it("reads a batch of mails in one round trip, a document that fails failing alone", async () => {
    const mail = (subject: string, body: string) =>
      [
        `From: Anna <anna@example.com>`,
        `Subject: ${subject}`,
        "Date: Mon, 2 Nov 2026 09:00:00 +0000",
        "Content-Type: text/plain; charset=utf-8",
        "",
        body,
      ].join("\r\n");
    const big = file("big.txt", "Lots of words in a very long line. ".repeat(40_000));
    const inputs = [
      { kind: "file" as const, extension: "eml" as const, path: file("one.eml", mail("Falcon budget", "The Falcon budget is approved.")) },
      { kind: "file" as const, extension: "txt" as const, path: big },
      { kind: "file" as const, extension: "eml" as const, path: path.join(temp.dir, "missing.eml") },
      { kind: "file" as const, extension: "eml" as const, path: file("two.eml", mail("Heron survey", "The heron survey starts Monday.")) },
    ];
    const documents = await pool({ maxTextBytes: MB }).convertMany(inputs);
    expect(documents).toHaveLength(4);
    const [first, tooBig, missing, last] = documents;
    expect(first).not.toBeInstanceOf(Error);
    expect((first as { chunks: { content: string }[] }).chunks.map((chunk) => chunk.content).join(" ")).toContain("The Falcon budget is approved.");
    expect(tooBig).toBeInstanceOf(Error);
    expect((tooBig as Error).message).toBe("The document is too large to process: it holds more than 1 MB of text");
    expect(missing).toBeInstanceOf(Error);
    expect((last as { chunks: { content: string }[] }).chunks.map((chunk) => chunk.content).join(" ")).toContain("The heron survey starts Monday.");
  });

  it("rejects a whole batch when its reader dies, and the next batch still reads", async () => {
    const conversions = pool({ memoryMb: 256 });
    const bomb = file("batch-bomb.docx", await makeDocxBomb(400 * MB, { hideSize: true }));
    const note = file("after.txt", "Still working after the bomb.");
    await expect(
      conversions.convertMany([
        { kind: "file", extension: "txt", path: note },
        { kind: "file", extension: "docx", path: bomb },
      ]),
    ).rejects.toThrow("The document is too large to process: reading it needed more than 256 MB of memory");
    const [after] = await conversions.convertMany([{ kind: "file", extension: "txt", path: note }]);
    expect((after as { chunks: { content: string }[] }).chunks[0]!.content).toBe("Still working after the bomb.");
  });

  it("keeps one process started before any document, past the idle time, and replaces it when it dies", async () => {
    const idleTimeouts: boolean[] = [];
    const conversions = pool({ keepWarm: true, idleMs: 50, onIdleTimeout: (kept) => idleTimeouts.push(kept) });
    await expect.poll(() => conversions.processIds().length).toBe(1);
    const [first] = conversions.processIds();
    expect((await conversions.convert({ kind: "note", text: "Warm already." })).chunks[0]!.content).toBe("Warm already.");
    // Its idle time ran out after the document (a signal, not a pause), and it was kept.
    const before = idleTimeouts.length;
    await expect.poll(() => idleTimeouts.length).toBeGreaterThan(before);
    expect(idleTimeouts.every((kept) => kept)).toBe(true);
    expect(conversions.processIds()).toEqual([first]);
    process.kill(first!, "SIGKILL");
    await expect.poll(() => conversions.processIds().filter((pid) => pid !== first).length).toBe(1);
    expect((await conversions.convert({ kind: "note", text: "Still warm." })).chunks[0]!.content).toBe("Still warm.");
  });

  it("reads documents at a priority below the server's, so requests get the CPU first", async () => {
    const conversions = pool();
    await conversions.convert({ kind: "note", text: "Lower priority." });
    const [reader] = conversions.processIds();
    expect(getPriority(reader!)).toBe(getPriority(process.pid) + BACKGROUND_NICENESS);
  });

  it("lets idle processes exit when it does not keep one warm", async () => {
    const conversions = pool({ idleMs: 50 });
    await conversions.convert({ kind: "note", text: "One." });
    await expect.poll(() => conversions.processIds().length).toBe(0);
  });

  it("ends its processes on close", async () => {
    const conversions = pool({ size: 2 });
    await Promise.all([conversions.convert({ kind: "note", text: "One." }), conversions.convert({ kind: "note", text: "Two." })]);
    await conversions.close();
    await expect(conversions.convert({ kind: "note", text: "Three." })).rejects.toThrow("The server is shutting down");
  });
});
