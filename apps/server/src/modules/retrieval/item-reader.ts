import { setImmediate as nextTurn } from "node:timers/promises";
import type { ChunkRows, ItemPiece } from "./index/chunk-store.ts";
import { createChunkJoiner } from "./join-chunks.ts";

/** Chunks read per page: about 200 KB of text, a millisecond or two of the event loop, then other work goes first. */
const PAGE = 256;

/**
 * Reads an item's text a page of chunks at a time (issue 52: a 50 MB text read in one go held the event loop), and
 * only as much as is wanted: `maxChars` of the joined text. Between pages, whatever else is waiting runs.
 */
export function createItemReader(chunks: Pick<ChunkRows, "itemPieces">) {
  /** Calls `visit` with each piece in order until it answers false or the item ends. */
  async function eachPiece(userId: number, itemId: number, visit: (piece: ItemPiece) => boolean): Promise<void> {
    let after: ItemPiece | null = null;
    for (;;) {
      const page = await chunks.itemPieces(userId, itemId, after, PAGE);
      for (const piece of page) if (!visit(piece)) return;
      if (page.length < PAGE) return;
      after = page.at(-1)!;
      await nextTurn();
    }
  }

  return {
    /** The start of an item's text, up to `maxChars`, the chunks' overlaps removed; '' when it has none. */
    async text(userId: number, itemId: number, maxChars: number): Promise<string> {
      const joiner = createChunkJoiner(maxChars);
      await eachPiece(userId, itemId, (piece) => {
        joiner.add(piece.content);
        return !joiner.full;
      });
      return joiner.text();
    },

    /** The pieces that hold the first `maxChars` of the text, with where each came from. */
    async pieces(userId: number, itemId: number, maxChars: number): Promise<{ source: string; content: string }[]> {
      const pieces: { source: string; content: string }[] = [];
      const joiner = createChunkJoiner(maxChars);
      await eachPiece(userId, itemId, (piece) => {
        pieces.push({ source: piece.source, content: piece.content });
        joiner.add(piece.content);
        return !joiner.full;
      });
      return pieces;
    },

    /** The text by page, slide, sheet or heading (consecutive chunks of one source joined), up to `maxChars` in all. */
    async sections(userId: number, itemId: number, maxChars = Infinity): Promise<{ source: string; text: string }[]> {
      const sections: { source: string; joiner: ReturnType<typeof createChunkJoiner> }[] = [];
      let before = 0;
      await eachPiece(userId, itemId, (piece) => {
        let last = sections.at(-1);
        if (!last || last.source !== piece.source) {
          if (last) before += last.joiner.length;
          last = { source: piece.source, joiner: createChunkJoiner(maxChars - before) };
          sections.push(last);
        }
        last.joiner.add(piece.content);
        // The section's budget is what the earlier ones left: once it is full, so is the whole.
        return !last.joiner.full;
      });
      return sections.map((section) => ({ source: section.source, text: section.joiner.text() }));
    },
  };
}
