import { preview } from "./knowledge-view";

/** Something the user chose to add, before it is sent: files and folders, or one link, or one note. */
export type PendingEntry =
  | { kind: "file"; file: File }
  | { kind: "folder"; name: string; files: Array<{ file: File; relativePath: string }> }
  | { kind: "url"; url: string }
  | { kind: "note"; text: string };

/** An entry with the description the user gave it; the two travel together, so removing one drops both. */
export interface DescribedEntry {
  entry: PendingEntry;
  description: string;
}

export const isUpload = (entry: PendingEntry) => entry.kind === "file" || entry.kind === "folder";

/** "report.pdf", "Board (3 files)", the link itself, or the note's first 50 characters. */
export function pendingEntryLabel(entry: PendingEntry): string {
  if (entry.kind === "file") return entry.file.name;
  if (entry.kind === "folder") return `${entry.name} (${entry.files.length} ${entry.files.length === 1 ? "file" : "files"})`;
  return entry.kind === "url" ? entry.url : preview(entry.text, 50);
}
