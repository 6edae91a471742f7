import { describe, expect, it } from "vitest";
import { vectorStatusWords } from "./vector-status-words";

const embedder = { id: "gemini:gemini-embedding-001:768", dimensions: 768, lexicalOnly: false };
const base = { embedder, chunks: 12, vectorized: 12, stale: 0, job: null, catchUp: null };

describe("vectorStatusWords", () => {
  it("says in words that search is ready, with the embedder and the chunks as details", () => {
    expect(vectorStatusWords(base)).toEqual({
      summary: "Search is ready for all 12 passages.",
      details: "Embedder gemini:gemini-embedding-001:768: 12 of 12 chunks vectorized.",
    });
  });

  it("says how far the background preparation is, with no technical word in the summary", () => {
    const { summary } = vectorStatusWords({ ...base, vectorized: 3, catchUp: { id: 1, status: "processing", processed: 3, total: 12 } });
    expect(summary).toBe("Search by meaning is ready for 3 of 12 passages; the rest are being prepared, and are found by their words meanwhile.");
    expect(summary).not.toMatch(/embedder|chunk|vector|lexical/i);
  });

  it("says what a missing search model means", () => {
    const { summary } = vectorStatusWords({ ...base, embedder: { ...embedder, lexicalOnly: true }, vectorized: 0 });
    expect(summary).toBe("Search finds your documents by their words; finding them by meaning needs a search model, which is not connected.");
  });
});
