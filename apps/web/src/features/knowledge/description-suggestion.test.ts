import { describe, expect, it } from "vitest";
import { nameSuggestion, suggestDescription, textSuggestion } from "./description-suggestion";

describe("description suggestions", () => {
  it("takes a text's title, first heading or first sentence", () => {
    expect(textSuggestion("<html><head><title>Q3 results</title></head><body>x</body></html>")).toBe("Q3 results");
    expect(textSuggestion("Some intro\n\n# Zebra census 2031\n\nText")).toBe("Zebra census 2031");
    expect(textSuggestion("\n\nThe board met on Monday. It approved the budget.")).toBe("The board met on Monday.");
    expect(textSuggestion("")).toBe("");
  });

  it("falls back to the file's name in words, and cuts a long line at a word", () => {
    expect(nameSuggestion("q3_board-pack.final.pdf")).toBe("Q3 board pack final");
    const long = textSuggestion(`${"word ".repeat(60)}end.`);
    expect(long.length).toBeLessThanOrEqual(160);
    expect(long.endsWith("word…")).toBe(true);
  });

  it("reads a text file's own words, and names a binary file by its name", async () => {
    expect(await suggestDescription({ kind: "file", file: new File(["# Travel policy\n\nClass rules."], "policy.md") })).toBe("Travel policy");
    expect(await suggestDescription({ kind: "file", file: new File(["%PDF-1.4"], "board_minutes-march.pdf") })).toBe("Board minutes march");
  });
});
