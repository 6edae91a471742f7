#!/usr/bin/env node
// Writes the PWA icons (public/icons/icon.svg, icon-192.png, icon-512.png) using only node:zlib.
// A rounded square in the app's dark colour with a pixel-font "S". Run: node scripts/generate-icons.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateSync } from "node:zlib";

const BACKGROUND = [0x0b, 0x11, 0x20];
const FOREGROUND = [0x2d, 0xd4, 0xbf];
const GLYPH_S = [".###.", "#...#", "#....", ".###.", "....#", "#...#", ".###."];
const CORNER_RATIO = 0.22;
const GLYPH_HEIGHT_RATIO = 0.56;

const outDir = join(dirname(fileURLToPath(import.meta.url)), "..", "public", "icons");

/** Geometry in a unit square: is (x, y) inside the rounded background, and inside the glyph? */
function layout(size) {
  const cell = (size * GLYPH_HEIGHT_RATIO) / GLYPH_S.length;
  const glyphWidth = cell * GLYPH_S[0].length;
  const left = (size - glyphWidth) / 2;
  const top = (size - cell * GLYPH_S.length) / 2;
  const radius = size * CORNER_RATIO;
  const inBackground = (x, y) => {
    const cx = Math.min(Math.max(x, radius), size - radius);
    const cy = Math.min(Math.max(y, radius), size - radius);
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
  };
  const inGlyph = (x, y) => {
    const column = Math.floor((x - left) / cell);
    const row = Math.floor((y - top) / cell);
    return GLYPH_S[row]?.[column] === "#";
  };
  return { cell, left, top, radius, inBackground, inGlyph };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let crc = 0xffffffff;
  for (const byte of buffer) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

function png(size) {
  const { inBackground, inGlyph } = layout(size);
  const samples = 4; // 4x4 supersampling for smooth corners
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4); // filter byte 0 (none), then RGBA
    for (let x = 0; x < size; x++) {
      let coverage = 0;
      let glyph = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const px = x + (sx + 0.5) / samples;
          const py = y + (sy + 0.5) / samples;
          if (!inBackground(px, py)) continue;
          coverage++;
          if (inGlyph(px, py)) glyph++;
        }
      }
      const total = samples * samples;
      const mix = coverage ? glyph / coverage : 0;
      const offset = 1 + x * 4;
      for (let c = 0; c < 3; c++) row[offset + c] = Math.round(BACKGROUND[c] * (1 - mix) + FOREGROUND[c] * mix);
      row[offset + 3] = Math.round((coverage / total) * 255);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function svg() {
  const size = 512;
  const { cell, left, top, radius } = layout(size);
  const hex = (rgb) => `#${rgb.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
  const n = (value) => Number(value.toFixed(2));
  const rects = [];
  GLYPH_S.forEach((line, row) =>
    [...line].forEach((pixel, column) => {
      if (pixel === "#") rects.push(`<rect x="${n(left + column * cell)}" y="${n(top + row * cell)}" width="${n(cell)}" height="${n(cell)}"/>`);
    }),
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${size}" height="${size}">`,
    `<title>SAGE</title>`,
    `<rect width="${size}" height="${size}" rx="${n(radius)}" fill="${hex(BACKGROUND)}"/>`,
    `<g fill="${hex(FOREGROUND)}" shape-rendering="crispEdges">${rects.join("")}</g>`,
    `</svg>`,
    "",
  ].join("\n");
}

mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, "icon.svg"), svg());
for (const size of [192, 512]) writeFileSync(join(outDir, `icon-${size}.png`), png(size));
console.log(`Wrote icon.svg, icon-192.png, icon-512.png to ${outDir}`);
