import { describe, expect, it } from "vitest";
import { isMostlyUnreadable, measureReadability } from "./text-readability.ts";

const REAL_TEXT: Record<string, string> = {
  english:
    "The board approved the Falcon expansion for the northern region. Revenue grew by 12.5% to EUR 4.2m in Q3, and the CFO's forecast for 2025 remains unchanged (see https://example.com/report).",
  german:
    "Der Aufsichtsrat hat die Erweiterung in Norddeutschland genehmigt. Die Umsatzerlöse stiegen um 12,5 % auf 4,2 Mio. Euro; die Angstschweiß-Prognose für Straßenbau bleibt unverändert.",
  czech:
    "Peněžní prostředky a peněžní ekvivalenty vzrostly o 12 %. Čtvrtletní zpráva představenstva obsahuje přehled závazků, pohledávek a vlastního kapitálu společnosti.",
  polish:
    "Zarząd zatwierdził rozszerzenie działalności w północnym regionie. Przychody wzrosły o 12,5% do 4,2 mln złotych, a prognoza na przyszły rok pozostaje bez zmian.",
  french:
    "Le conseil d'administration a approuvé l'expansion vers la région du nord. Le chiffre d'affaires a progressé de 12,5 % pour atteindre 4,2 M€ au troisième trimestre.",
  spanish:
    "La junta directiva aprobó la expansión en la región norte. Los ingresos crecieron un 12,5 % hasta 4,2 millones de euros, y la previsión para el próximo año no cambia.",
  finnish:
    "Hallitus hyväksyi laajentumisen pohjoiselle alueelle. Liikevaihto kasvoi 12,5 prosenttia 4,2 miljoonaan euroon, ja ensi vuoden ennuste pysyy ennallaan.",
  russian: "Совет директоров одобрил расширение в северном регионе. Выручка выросла на 12,5% до 4,2 млн евро, прогноз на следующий год не изменился.",
  greek: "Το διοικητικό συμβούλιο ενέκρινε την επέκταση στη βόρεια περιοχή. Τα έσοδα αυξήθηκαν κατά 12,5% στα 4,2 εκατ. ευρώ.",
  chinese: "董事会批准了北部地区的扩张计划。收入增长百分之十二点五，达到四百二十万欧元，明年的预测保持不变。",
  japanese: "取締役会は北部地域への拡大を承認しました。売上高は十二・五パーセント増加し、来年の見通しは変わりません。",
  arabic: "وافق مجلس الإدارة على التوسع في المنطقة الشمالية. ارتفعت الإيرادات بنسبة 12.5% إلى 4.2 مليون يورو.",
  table: "Item Q1 Q2 Q3 Total\nTelescopes 4,200 3,900 5,100 13,200\nMirrors 1,150 980 1,020 3,150\nIBM, SAP and PwC audits — 2024-03-31",
};

/** What a font without a Unicode map yields: each glyph's code is its place in the subset, here ASCII shifted by 29. */
function shiftedGlyphCodes(text: string): string {
  const others = "ČåĜ¤ÞŁđ©ĦŽ";
  return Array.from(text, (character) => {
    const code = character.charCodeAt(0);
    if (/\s/.test(character)) return character;
    if (code >= 0x30 && code < 0x7f) return String.fromCharCode(code - 29);
    return others[code % others.length]!;
  }).join("");
}

/** A subset font without a Unicode map whose codes follow the order glyphs first appear, starting at "!". */
function firstAppearanceCodes(text: string): string {
  const codes = new Map<string, string>();
  return Array.from(text, (character) => {
    if (/\s/.test(character)) return character;
    if (!codes.has(character)) codes.set(character, String.fromCharCode(0x21 + codes.size));
    return codes.get(character)!;
  }).join("");
}

describe("text readability", () => {
  it.each(Object.entries(REAL_TEXT))("takes %s text as readable", (_language, text) => {
    expect(isMostlyUnreadable(text)).toBe(false);
    expect(measureReadability(text).readableShare).toBeGreaterThan(0.85);
  });

  it.each([
    [
      "Japanese",
      "ゾルゲ事件と尾崎秀実（1941年）\nGHQの資料によれば、事件の全容は戦後に明らかになった。第2章では「国際諜報団」の活動を２０２４年の研究に基づいて説明する。",
    ],
    ["Japanese with fullwidth Latin", "【重要】お知らせ：３月１日よりＧＨＱ文書の新しい検索システムに移行します。詳しくはwww.example.co.jpをご覧ください。"],
    ["Chinese", "根据2023年第三季度报告，公司营业收入为4.2亿元（同比增长12.5%），PDF版本见附件《年度报告》。"],
    ["Korean", "2024년 3월 이사회는 북부 지역 확장을 승인했습니다. 매출은 12.5% 증가한 42억 원(PDF 참조)입니다."],
  ])("takes %s page text mixed with digits, Latin and brackets as readable", (_language, text) => {
    expect(isMostlyUnreadable(text)).toBe(false);
  });

  it("flags the glyph codes of a font without a Unicode map (the Czech balance sheet case)", () => {
    const garbage = "3HQČåQt SURVWĜHGN\\ D SHQČåQt HNYLYDOHQW\\ Y]URVW\\ R  ýWYUWOHWQt ]SUiYD";
    expect(isMostlyUnreadable(garbage)).toBe(true);
  });

  it.each(["english", "german", "czech", "polish", "french", "spanish", "finnish"])("flags %s text turned into shifted glyph codes", (language) => {
    const garbage = shiftedGlyphCodes(REAL_TEXT[language]!);
    expect(isMostlyUnreadable(garbage)).toBe(true);
  });

  it.each(["english", "czech", "russian", "greek"])("flags %s text written in first-appearance glyph codes", (language) => {
    expect(isMostlyUnreadable(firstAppearanceCodes(REAL_TEXT[language]!))).toBe(true);
  });

  it("flags private-use, control and replacement characters", () => {
    expect(
      isMostlyUnreadable(
        "\uE001\uE002\uE003 \uE004\uE005\uE006\uE007 \u0001\u0002\u0003\u0004 \uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD \uE010\uE011\uE012\uE013\uE014",
      ),
    ).toBe(true);
  });

  it("flags letters of mixed scripts and case inside words", () => {
    expect(isMostlyUnreadable("qЖ7fR ΣbnQ ЯwKp9 tΩvB eШnL gΔmC zЮhX kΛpD")).toBe(true);
  });

  it("leaves short texts (a page number, a title) unjudged", () => {
    expect(isMostlyUnreadable("12")).toBe(false);
    expect(isMostlyUnreadable("3HQČåQt")).toBe(false);
    expect(measureReadability("").judged).toBe(0);
  });

  it("keeps judging a page with a little garbage as readable", () => {
    const mostlyFine = `${REAL_TEXT.english} ${REAL_TEXT.german} 3HQČåQt`;
    expect(isMostlyUnreadable(mostlyFine)).toBe(false);
  });
});
