/** A file of an uploaded folder with its place inside it ('Board/2024/q1.md', the folder's own name first). */
export interface FolderFile {
  file: File;
  relativePath: string;
}

export interface PickedFolder {
  name: string;
  files: FolderFile[];
}

/** Hidden and system files (.DS_Store, Thumbs.db, anything under a dot folder) are no one's documents. */
export function isSystemFile(relativePath: string): boolean {
  return relativePath.split("/").some((part) => part.startsWith(".") || part === "__MACOSX") || /(^|\/)(thumbs\.db|desktop\.ini)$/i.test(relativePath);
}

/** Groups files picked with a folder picker (each with its webkitRelativePath) by their top folder. */
export function foldersFromPicked(files: Array<{ file: File; relativePath: string }>): PickedFolder[] {
  const byName = new Map<string, PickedFolder>();
  for (const entry of files) {
    const [name] = entry.relativePath.split("/");
    if (!name || isSystemFile(entry.relativePath)) continue;
    const folder = byName.get(name) ?? { name, files: [] };
    folder.files.push(entry);
    byName.set(name, folder);
  }
  return [...byName.values()];
}

const readBatch = (reader: FileSystemDirectoryReader) => new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

/** Every file under a dropped directory, with its path from the directory's own name down. */
async function walkDirectory(directory: FileSystemDirectoryEntry, prefix: string, into: FolderFile[]): Promise<void> {
  const reader = directory.createReader();
  // readEntries answers in batches (100 in Chromium) until an empty one.
  for (let batch = await readBatch(reader); batch.length > 0; batch = await readBatch(reader)) {
    for (const entry of batch) {
      const path = `${prefix}/${entry.name}`;
      if (entry.isDirectory) await walkDirectory(entry as FileSystemDirectoryEntry, path, into);
      else into.push({ file: await fileOf(entry as FileSystemFileEntry), relativePath: path });
    }
  }
}

/**
 * What a drop holds: loose files, and folders (read through the entries API). The entries must be taken from the
 * DataTransfer during the drop event itself, before anything is awaited.
 */
export async function readDrop(transfer: DataTransfer): Promise<{ files: File[]; folders: PickedFolder[] }> {
  const entries = [...transfer.items].map((item) => (item.kind === "file" ? item.webkitGetAsEntry?.() : null));
  if (!entries.some((entry) => entry?.isDirectory)) return { files: [...transfer.files], folders: [] };
  const files: File[] = [];
  const folderFiles: FolderFile[] = [];
  for (const entry of entries) {
    if (!entry) continue;
    if (entry.isDirectory) await walkDirectory(entry as FileSystemDirectoryEntry, entry.name, folderFiles);
    else files.push(await fileOf(entry as FileSystemFileEntry));
  }
  return { files, folders: foldersFromPicked(folderFiles) };
}
