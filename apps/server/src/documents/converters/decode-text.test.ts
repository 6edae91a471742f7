import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { convertFile } from "./convert-file.ts";
import { decodeText } from "./decode-text.ts";

const textOf = (document: { sections: Array<{ text: string }> }) => document.sections.map((section) => section.text).join("\n\n");

const RUSSIAN = "Отчёт совета директоров. Проект Сокол одобрен: бюджет на телескопы увеличен, поставщик Вега задерживает поставки до марта.";
const CZECH = "Peněžní prostředky na účtu: Správní rada schválila rozpočet projektu Sokol a nákup dalekohledů.";

describe("legacy text encodings", () => {
  it("reads a Russian text file saved in DOS code page 866", async () => {
    const text = textOf(await convertFile("txt", iconv.encode(RUSSIAN, "cp866")));
    expect(text).toBe(RUSSIAN);
  });

  it.each(["windows-1251", "koi8-r"])("reads a Russian text file in %s", async (encoding) => {
    expect(textOf(await convertFile("txt", iconv.encode(RUSSIAN, encoding)))).toBe(RUSSIAN);
  });

  it("reads a Russian CSV in Windows-1251", () => {
    expect(decodeText(iconv.encode(`Имя;Город\nАнна;Москва\n${RUSSIAN}`, "windows-1251"))).toContain("Анна;Москва");
  });

  it("reads an HTML page whose meta charset says Latin-1 while its bytes are UTF-8", async () => {
    const html = `<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><title>Сокол</title></head><body><p>${RUSSIAN}</p><p>${CZECH}</p></body></html>`;
    const text = textOf(await convertFile("html", Buffer.from(html, "utf8")));
    expect(text).toContain(RUSSIAN);
    expect(text).toContain(CZECH);
  });

  it("reads an HTML page whose meta charset says UTF-8 while its bytes are Windows-1251", async () => {
    const html = `<html><head><meta charset="utf-8"></head><body><p>${RUSSIAN}</p></body></html>`;
    expect(textOf(await convertFile("html", iconv.encode(html, "windows-1251")))).toContain(RUSSIAN);
  });

  it("decodes an XHTML file by its XML declaration", async () => {
    const html = `<?xml version="1.0" encoding="windows-1250"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Sokol</title></head><body><p>${CZECH}</p></body></html>`;
    expect(textOf(await convertFile("html", iconv.encode(html, "windows-1250")))).toContain(CZECH);
  });

  it("reads Japanese in ISO-2022-JP, and a coloured UTF-8 log as UTF-8", () => {
    const japanese = "取締役会は予算を承認しました。ファルコン計画は来年も続きます。";
    // ISO-2022-JP is EUC-JP's JIS X 0208 pairs with the high bits cleared, between ESC $ B and ESC ( B.
    const jis = Buffer.from([...iconv.encode(japanese, "euc-jp")].map((byte) => byte & 0x7f));
    expect(decodeText(Buffer.concat([Buffer.from("\u001b$B"), jis, Buffer.from("\u001b(B")]))).toBe(japanese);
    const log = "\u001b[32mOK\u001b[0m Zürich – Příloha uložena";
    expect(decodeText(Buffer.from(log, "utf8"))).toBe(log);
  });

  it("keeps UTF-8, UTF-16 with a BOM and Latin-1 as they were", () => {
    const text = "Café crème – naïve façade, a Falcon budget review for the board";
    expect(decodeText(Buffer.from(text, "utf8"))).toBe(text);
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]))).toBe(text);
    expect(decodeText(Buffer.from("Café crème naïve façade", "latin1"))).toBe("Café crème naïve façade");
    expect(decodeText(iconv.encode("Größe der Einführung für französische Kunden", "windows-1252"))).toBe("Größe der Einführung für französische Kunden");
  });
});
