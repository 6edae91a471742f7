import { describe, expect, it } from "vitest";
import { chooseTerms, DEFAULT_LEXICAL_OPTIONS, lexicalScore } from "./lexical-scoring.ts";

describe("chooseTerms", () => {
  it("weighs a term counted in more rows than the (older) row count says, instead of making every score NaN", () => {
    // A base of one file, its row count read; a second file holding the same words added since (issue 52).
    const chosen = chooseTerms(
      [
        { term: "41", documents: 2 },
        { term: "zebra", documents: 1 },
      ],
      1,
    );
    // Two rows now: "41" is in both, so the rarer "zebra" is matched (the common term dropped as in any base).
    expect(chosen.kept.map((entry) => entry.term)).toEqual(["zebra"]);
    expect(Number.isFinite(chosen.ceiling)).toBe(true);
    expect(chosen.ceiling).toBeGreaterThan(0);
    expect(lexicalScore(2 * chosen.ceiling, chosen.ceiling, DEFAULT_LEXICAL_OPTIONS)).toBeGreaterThan(0.9);
  });
});
