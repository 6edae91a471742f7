import { describe, expect, it } from "vitest";
import { searchText } from "../retrieval/retrieval.module.ts";
import { messageMatcher } from "./message-matcher.ts";

const fold = (text: string) => searchText(text).toLowerCase();

describe("messageMatcher", () => {
  it("finds a word however it is accented, cased or typed in fullwidth", () => {
    const message = "Die Einführung zur Größe des Résumé-Ordners, mit der ＧＨＱ-Liste.";
    for (const query of ["einfuhrung", "EINFÜHRUNG", "grosse", "resume", "GHQ", "Größe résumé"]) {
      expect(messageMatcher(query, fold)!.matches(message), query).toBe(true);
    }
    expect(messageMatcher("einführung zebra", fold)!.matches(message)).toBe(false);
  });

  it("finds Japanese inside a sentence with no spaces", () => {
    expect(messageMatcher("東京支社", fold)!.matches("来週、東京支社の売上報告があります。")).toBe(true);
    expect(messageMatcher("大阪支社", fold)!.matches("来週、東京支社の売上報告があります。")).toBe(false);
  });

  it("shows the words around the first match, and says where the message goes on", () => {
    const words = Array.from({ length: 40 }, (_, index) => `w${index}`);
    words[20] = "Zürich";
    const snippet = messageMatcher("zurich", fold)!.snippet(words.join(" "));
    expect(snippet).toBe(`… ${words.slice(14, 35).join(" ")} …`);
    expect(messageMatcher("hello", fold)!.snippet("Hello there")).toBe("Hello there");
  });

  it("has nothing to search for in punctuation alone", () => {
    expect(messageMatcher(" ?! ", fold)).toBeNull();
  });
});
