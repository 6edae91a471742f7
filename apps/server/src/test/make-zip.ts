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
