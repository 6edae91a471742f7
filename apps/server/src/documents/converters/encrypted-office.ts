/**
 * Password-protected Office files, told apart before a reader fails on them with its own words. A protected
 * docx/xlsx/pptx is not a zip at all but an OLE compound file holding EncryptionInfo and EncryptedPackage streams
 * (MS-OFFCRYPTO); a protected .doc keeps its format but sets fEncrypted in its File Information Block; a protected
 * .xls starts its workbook with a FILEPASS record.
 */

const COMPOUND_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const END_OF_CHAIN = 0xfffffffa;
/** Directory sectors read at most: a real Office file has a handful; a crafted loop ends here. */
const MAX_DIRECTORY_SECTORS = 64;

interface Stream {
  start: number;
  size: number;
}

export function isCompoundFile(bytes: Uint8Array): boolean {
  return COMPOUND_MAGIC.every((byte, index) => bytes[index] === byte);
}

export function isPasswordProtectedOffice(bytes: Uint8Array): boolean {
  if (!isCompoundFile(bytes) || bytes.length < 512) return false;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sectorSize = 1 << buffer.readUInt16LE(0x1e);
  if (sectorSize !== 512 && sectorSize !== 4096) return false;
  const streams = compoundStreams(buffer, sectorSize);
  if (streams.has("EncryptionInfo") && streams.has("EncryptedPackage")) return true;
  const word = streams.get("WordDocument");
  // FIB: wIdent 0xA5EC, then at 0x0A the flags word whose bit 8 is fEncrypted. The stream is over the 4 KB
  // mini-stream cutoff, so it starts at a regular sector.
  if (word && word.size >= 4096) {
    const fib = (word.start + 1) * sectorSize;
    if (fib + 12 <= buffer.length && buffer.readUInt16LE(fib) === 0xa5ec && (buffer.readUInt16LE(fib + 0x0a) & 0x0100) !== 0) return true;
  }
  const workbook = streams.get("Workbook") ?? streams.get("Book");
  if (workbook && workbook.size >= 4096) return hasFilePass(buffer, (workbook.start + 1) * sectorSize, sectorSize);
  return false;
}

/** BIFF records of the workbook's first sector: FILEPASS (0x002F) comes right after BOF when a password is set. */
function hasFilePass(buffer: Buffer, offset: number, sectorSize: number): boolean {
  const end = Math.min(buffer.length, offset + sectorSize);
  for (let position = offset; position + 4 <= end;) {
    const type = buffer.readUInt16LE(position);
    if (type === 0x002f) return true;
    if (type === 0x000a) return false; // EOF of the globals
    position += 4 + buffer.readUInt16LE(position + 2);
  }
  return false;
}

/** The compound file's stream names with their first sector and size, from its directory chain. */
function compoundStreams(buffer: Buffer, sectorSize: number): Map<string, Stream> {
  const fat = fatEntries(buffer, sectorSize);
  const streams = new Map<string, Stream>();
  let sector = buffer.readUInt32LE(0x30);
  for (let count = 0; sector < END_OF_CHAIN && count < MAX_DIRECTORY_SECTORS; count++) {
    const offset = (sector + 1) * sectorSize;
    if (offset + sectorSize > buffer.length) break;
    for (let entry = offset; entry < offset + sectorSize; entry += 128) {
      const nameLength = buffer.readUInt16LE(entry + 0x40);
      if (nameLength < 2 || nameLength > 64) continue;
      const name = buffer.toString("utf16le", entry, entry + nameLength - 2);
      streams.set(name, { start: buffer.readUInt32LE(entry + 0x74), size: buffer.readUInt32LE(entry + 0x78) });
    }
    sector = fat[sector] ?? END_OF_CHAIN;
  }
  return streams;
}

/** The sector allocation table from the header's first 109 FAT sectors (the whole table of a file up to about 7 MB). */
function fatEntries(buffer: Buffer, sectorSize: number): number[] {
  const entries: number[] = [];
  const fatSectors = Math.min(buffer.readUInt32LE(0x2c), 109);
  for (let index = 0; index < fatSectors; index++) {
    const offset = (buffer.readUInt32LE(0x4c + index * 4) + 1) * sectorSize;
    if (offset + sectorSize > buffer.length) break;
    for (let position = offset; position < offset + sectorSize; position += 4) entries.push(buffer.readUInt32LE(position));
  }
  return entries;
}
