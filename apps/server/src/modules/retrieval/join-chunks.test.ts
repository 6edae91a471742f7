import { describe, expect, it } from "vitest";
import { joinChunks } from "./join-chunks.ts";

describe("joinChunks", () => {
  it("gives back a text split into chunks that each repeat the end of the one before", () => {
    const text = Array.from({ length: 120 }, (_, n) => `Sentence ${n} of the quarterly letter.`).join(" ");
    const chunks: string[] = [];
    for (let start = 0; start < text.length; start += 850) chunks.push(text.slice(Math.max(0, start - 150), start + 850));
    expect(chunks.length).toBeGreaterThan(3);
    expect(joinChunks(chunks)).toBe(text);
  });

  it("keeps chunks that do not overlap apart", () => {
    expect(joinChunks(["First part.", "Second part."])).toBe("First part.\nSecond part.");
    expect(joinChunks([])).toBe("");
  });
});
