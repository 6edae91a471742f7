import { describe, expect, it } from "vitest";
import { searchText } from "./search-text.ts";

/** As FTS5's unicode61 reads the result: each character lower-cased on its own, split at spaces. */
const folded = (text: string) => [...searchText(text)].map((character) => character.toLowerCase()).join("");
const words = (text: string) =>
  folded(text)
    .split(/[^\p{L}\p{N}\p{M}\p{Co}]+/u)
    .filter(Boolean);

describe("searchText", () => {
  it("folds accents, case, ß and compatibility forms the same way whichever way a word was typed", () => {
    for (const forms of [
      ["Größe", "Grösse", "GROSSE", "Gro\u0308\u00dfe"],
      ["résumé", "RESUME", "re\u0301sume\u0301"],
      ["Łódź", "lodz"],
      ["ＧＨＱ", "ghq", "ＧＨＱ".normalize("NFKD")],
      ["ﬁnance", "finance"],
      ["ΟΔΟΣ", "οδός", "οδοσ"],
      ["مُحَمَّد", "محمد"],
    ]) {
      expect(new Set(forms.map(folded))).toEqual(new Set([folded(forms[0]!)]));
    }
  });

  it("keeps marks that are part of a letter, and symbols as separators", () => {
    expect(words("हिन्दी भाषा")).toEqual(["हिन्दी", "भाषा"]);
    expect(words("ガギ")).toEqual(["ガギ"]); // not カキ
    expect(words("Acme™ café ×2")).toEqual(["acme", "cafe", "2"]);
  });

  it("cuts CJK runs into overlapping pairs and Thai into words, whatever surrounds them", () => {
    expect(words("ゾルゲと尾崎")).toEqual(["ゾル", "ルゲ", "ゲと", "と尾", "尾崎"]);
    expect(words("GHQの占領")).toEqual(["ghq", "の占", "占領"]);
    expect(words("北京")).toEqual(["北京"]);
    expect(words("年")).toEqual(["年"]);
    expect(words("ภาษาไทยเป็นภาษาที่สวยงาม")).toEqual(["ภาษา", "ไทย", "เป็น", "ภาษา", "ที่", "สวยงาม"]);
  });

  it("leaves ASCII text exactly as it is", () => {
    const text = "The Q3 report (draft) - revenue up 12%, costs flat.\n\tNext: hiring.";
    expect(searchText(text)).toBe(text);
  });
});
