// A PDF as a word processor writes right-to-left text: a TrueType font embedded whole (DejaVu Sans, which Debian
// ships with its Arabic letters), glyphs in visual order (the last letter first), and a ToUnicode map back to the
// letters. pdf-lib draws only Latin text with its standard fonts, so the font objects are written here.
import { readFileSync } from "node:fs";
import { PDFDocument, PDFName, PDFString } from "pdf-lib";

export const ARABIC_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

/** One page; each line is drawn right-aligned, its words each drawn on their own as Word does with justified text. */
export async function makeRightToLeftPdf(lines: string[], fontPath = ARABIC_FONT): Promise<Buffer> {
  const fontBytes = readFileSync(fontPath);
  const glyphs = glyphIds(fontBytes, lines.join(""));
  const pdf = await PDFDocument.create();
  const context = pdf.context;
  const fontFile = context.register(context.flateStream(fontBytes, { Length1: fontBytes.length }));
  const pairs = [...glyphs].map(([character, glyph]) => `<${hex4(glyph)}> <${hex4(character.codePointAt(0)!)}>`);
  const toUnicode = context.register(
    context.flateStream(
      `/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def ` +
        `/CMapName /Adobe-Identity-UCS def /CMapType 2 def 1 begincodespacerange <0000> <FFFF> endcodespacerange ` +
        `${pairs.length} beginbfchar\n${pairs.join("\n")}\nendbfchar endcmap CMapName currentdict /CMap defineresource pop end end`,
    ),
  );
  const descriptor = context.register(
    context.obj({
      Type: "FontDescriptor",
      FontName: "DejaVuSans",
      Flags: 32,
      FontBBox: [-1021, -463, 1793, 1232],
      ItalicAngle: 0,
      Ascent: 928,
      Descent: -236,
      CapHeight: 729,
      StemV: 80,
      FontFile2: fontFile,
    }),
  );
  const systemInfo = context.obj({ Registry: PDFString.of("Adobe"), Ordering: PDFString.of("Identity"), Supplement: 0 });
  const cidFont = context.register(
    context.obj({
      Type: "Font",
      Subtype: "CIDFontType2",
      BaseFont: "DejaVuSans",
      CIDSystemInfo: systemInfo,
      FontDescriptor: descriptor,
      CIDToGIDMap: "Identity",
      DW: 600,
    }),
  );
  const font = context.register(
    context.obj({ Type: "Font", Subtype: "Type0", BaseFont: "DejaVuSans", Encoding: "Identity-H", DescendantFonts: [cidFont], ToUnicode: toUnicode }),
  );
  const page = pdf.addPage([595, 842]);
  page.node.setFontDictionary(PDFName.of("F1"), font);
  const size = 14;
  const operators: string[] = ["BT", `/F1 ${size} Tf`];
  lines.forEach((line, index) => {
    // Words from the right margin leftwards, each a run of its own.
    let right = 540;
    for (const word of line.split(" ")) {
      const width = [...word].length * size * 0.6;
      const visual = [...word].reverse().map((character) => hex4(glyphs.get(character)!));
      operators.push(`1 0 0 1 ${(right - width).toFixed(1)} ${780 - index * 24} Tm <${visual.join("")}> Tj`);
      right -= width + size * 0.6;
    }
  });
  operators.push("ET");
  page.node.set(PDFName.of("Contents"), context.register(context.flateStream(operators.join("\n"))));
  return Buffer.from(await pdf.save());
}

const hex4 = (value: number) => value.toString(16).padStart(4, "0");

/** Glyph ids of the characters, from the font's Windows Unicode cmap (format 4). */
function glyphIds(font: Buffer, text: string): Map<string, number> {
  let cmap = 0;
  for (let index = 0; index < font.readUInt16BE(4); index++) {
    if (font.toString("latin1", 12 + index * 16, 16 + index * 16) === "cmap") cmap = font.readUInt32BE(12 + index * 16 + 8);
  }
  let table = 0;
  for (let index = 0; index < font.readUInt16BE(cmap + 2); index++) {
    const record = cmap + 4 + index * 8;
    if (font.readUInt16BE(record) === 3 && font.readUInt16BE(record + 2) === 1) table = cmap + font.readUInt32BE(record + 4);
  }
  const segmentBytes = font.readUInt16BE(table + 6);
  const ends = table + 14;
  const starts = ends + segmentBytes + 2;
  const deltas = starts + segmentBytes;
  const rangeOffsets = deltas + segmentBytes;
  const glyphs = new Map<string, number>();
  for (const character of new Set(text.replaceAll(" ", ""))) {
    const code = character.codePointAt(0)!;
    for (let segment = 0; segment < segmentBytes; segment += 2) {
      if (font.readUInt16BE(ends + segment) < code) continue;
      const start = font.readUInt16BE(starts + segment);
      const rangeOffset = font.readUInt16BE(rangeOffsets + segment);
      if (start <= code) {
        const glyph =
          rangeOffset === 0
            ? (code + font.readInt16BE(deltas + segment)) & 0xffff
            : (font.readUInt16BE(rangeOffsets + segment + rangeOffset + (code - start) * 2) + font.readInt16BE(deltas + segment)) & 0xffff;
        if (glyph !== 0) glyphs.set(character, glyph);
      }
      break;
    }
    if (!glyphs.has(character)) throw new Error(`The font has no glyph for U+${hex4(code)}`);
  }
  return glyphs;
}
