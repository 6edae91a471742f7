import { describe, expect, it } from "vitest";
import type { ItemPiece, PieceKey } from "./index/chunk-store.ts";
import { createItemReader } from "./item-reader.ts";
import { joinChunks } from "./join-chunks.ts";

/** An item of `count` chunks of about 1,000 characters, each repeating the last 150 of the one before; reads are counted. */
function itemOf(count: number, source = (n: number) => `section ${Math.floor(n / 10)}`) {
  const text = Array.from({ length: count * 12 }, (_, n) => `Line ${n} of the board minutes, with its owner and due date.`).join("\n");
  const pieces: ItemPiece[] = [];
  for (let n = 0, start = 0; n < count; n++, start += 1000) {
    pieces.push({ id: n + 1, position: n, source: source(n), content: text.slice(Math.max(0, start - 150), start + 1000) });
  }
  const reads = { pages: 0, pieces: 0 };
  const chunks = {
    async itemPieces(_userId: number, _itemId: number, after: PieceKey | null, limit: number) {
      const from = after ? pieces.findIndex((piece) => piece.id === after.id) + 1 : 0;
      const page = pieces.slice(from, from + limit);
      reads.pages += 1;
      reads.pieces += page.length;
      return page;
    },
  };
  return { pieces, reads, reader: createItemReader(chunks) };
}

describe("createItemReader", () => {
  it("reads only the chunks that hold the text it is asked for (12,000 characters of a 5,000-chunk item: one page)", async () => {
    const { pieces, reads, reader } = itemOf(5_000);
    const whole = joinChunks(pieces.map((piece) => piece.content));
    expect(await reader.text(3, 1, 12_000)).toBe(whole.slice(0, 12_000));
    expect(reads).toEqual({ pages: 1, pieces: 256 });
    const held = await reader.pieces(3, 1, 12_000);
    expect(joinChunks(held.map((piece) => piece.content)).length).toBeGreaterThanOrEqual(12_000);
    expect(held.length).toBeLessThan(15);
  });

  it("reads a whole item a page at a time, letting other work run between pages", async () => {
    const { pieces, reads, reader } = itemOf(1_000);
    // Other work: a callback that queues itself again each turn of the event loop, as long as the read goes on.
    let otherWork = 0;
    let reading = true;
    const tick = () => {
      otherWork += 1;
      if (reading) setImmediate(tick);
    };
    setImmediate(tick);
    const sections = await reader.sections(3, 1).finally(() => (reading = false));
    expect(sections).toHaveLength(100);
    expect(sections[0]!.source).toBe("section 0");
    expect(sections.map((section) => section.text).join("")).toBe(
      Array.from({ length: 100 }, (_, n) => joinChunks(pieces.slice(n * 10, n * 10 + 10).map((piece) => piece.content))).join(""),
    );
    expect(reads.pages).toBe(4);
    expect(otherWork).toBeGreaterThanOrEqual(3);
  });

  it("gives only the sections that hold the first characters asked for", async () => {
    const { reader } = itemOf(1_000);
    const sections = await reader.sections(3, 1, 25_000);
    expect(sections.map((section) => section.source)).toEqual(["section 0", "section 1", "section 2"]);
    expect(sections.reduce((sum, section) => sum + section.text.length, 0)).toBe(25_000);
  });
});
