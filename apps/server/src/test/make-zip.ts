import { crc32, deflateRawSync } from "node:zlib";
import yazl from "yazl";

/** A zip of the given entries (name -> bytes), built the way common tools build one. */
export function makeZip(entries: Array<[string, Buffer | string]>, options: { compress?: boolean } = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of entries) zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name, { compress: options.compress ?? true });
  zip.end();
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    zip.outputStream.on("data", (part: Buffer) => parts.push(part));
    zip.outputStream.on("error", reject);
    zip.outputStream.on("end", () => resolve(Buffer.concat(parts)));
  });
}

/** Renames an entry in place (local header and central directory), for names yazl itself refuses ('../x'). */
export function renameEntry(zip: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error("names must have the same length");
  return Buffer.from(zip.toString("latin1").split(from).join(to), "latin1");
}

/**
 * A zip whose entries all point at one deflated copy of `content` (the overlapping-entries bomb: each entry declares
 * the whole expanded size, the archive holds the compressed bytes once). Built by hand: no zip tool writes one.
 */
export function overlappingZip(names: string[], content: Buffer): Buffer {
  const data = deflateRawSync(content, { level: 9 });
  const crc = crc32(content);
  const first = Buffer.from(names[0]!);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8); // deflate
  local.writeUInt16LE(0x21, 12); // 1980-01-01
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(first.length, 26);
  const central = names.map((name) => {
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(8, 10);
    record.writeUInt16LE(0x21, 14);
    record.writeUInt32LE(crc, 16);
    record.writeUInt32LE(data.length, 20);
    record.writeUInt32LE(content.length, 24);
    record.writeUInt16LE(Buffer.byteLength(name), 28);
    // Every entry's local header is the first one, at offset 0.
    return Buffer.concat([record, Buffer.from(name)]);
  });
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(names.length, 8);
  end.writeUInt16LE(names.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(local.length + first.length + data.length, 16);
  return Buffer.concat([local, first, data, directory, end]);
}

/** Sets the declared expanded size of every entry (local and central headers) without changing the data. */
export function declareSize(zip: Buffer, size: number): Buffer {
  const copy = Buffer.from(zip);
  for (let offset = 0; offset < copy.length - 4; offset++) {
    const signature = copy.readUInt32LE(offset);
    if (signature === 0x04034b50) copy.writeUInt32LE(size, offset + 22);
    if (signature === 0x02014b50) copy.writeUInt32LE(size, offset + 24);
  }
  return copy;
}
