import { describe, expect, it } from "vitest";
import { decodeChunks, encodeChunks } from "./chunk-wire.ts";

describe("chunk wire format", () => {
  it("gives back every chunk as it was: positions, sources and any script", () => {
    const chunks = [
      { position: 0, source: "", content: "Plain text." },
      { position: 1, source: "page 2", content: "Café, 東京, emoji 🦉 and a NUL-free line\nbreak." },
      { position: 70_000, source: "Überschrift", content: "" },
    ];
    expect(decodeChunks(encodeChunks(chunks))).toEqual(chunks);
    expect(decodeChunks(encodeChunks([]))).toEqual([]);
  });

  it("refuses a message cut short instead of inventing a chunk", () => {
    const bytes = encodeChunks([{ position: 0, source: "s", content: "A whole sentence." }]);
    expect(() => decodeChunks(bytes.subarray(0, bytes.length - 3))).toThrow("A chunk runs past the end of its message");
  });
});
