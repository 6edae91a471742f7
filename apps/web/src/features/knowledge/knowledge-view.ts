import { ACCEPTED_UPLOAD_EXTENSIONS, type KnowledgeItem } from "@sage/contracts/knowledge";

export const NO_ITEMS_MESSAGE = "No files, URLs, or notes were added. Please add at least one item.";
export const NOTE_PREVIEW_LENGTH = 200;
export const ACCEPT_ATTRIBUTE = ACCEPTED_UPLOAD_EXTENSIONS.map((extension) => `.${extension}`).join(",");

/** Case-insensitive extension check, as on the server (documents of a supported type, or a .zip of them). */
export function isSupportedFileName(name: string): boolean {
  const extension = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? "";
  return (ACCEPTED_UPLOAD_EXTENSIONS as readonly string[]).includes(extension);
}

/** "pages 3, 7" or "page 1": the pages an item's text recognition read or gave up on. */
export function pageListLabel(pages: number[]): string {
  return `${pages.length === 1 ? "page" : "pages"} ${pages.join(", ")}`;
}

export function splitSupported<T extends { name: string }>(files: T[]): { accepted: T[]; rejected: T[] } {
  return { accepted: files.filter((file) => isSupportedFileName(file.name)), rejected: files.filter((file) => !isSupportedFileName(file.name)) };
}

export function preview(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}...` : text;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1_048_576) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

/** The folders from the root down to `folderId` (for a breadcrumb), found in a flat list or a nested tree. */
export function folderTrail(items: KnowledgeItem[], folderId: number): KnowledgeItem[] {
  const byId = new Map<number, KnowledgeItem>();
  const visit = (list: KnowledgeItem[]) => {
    for (const item of list) {
      byId.set(item.id, item);
      if (item.items) visit(item.items);
    }
  };
  visit(items);
  const trail: KnowledgeItem[] = [];
  let current = byId.get(folderId);
  const seen = new Set<number>();
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    trail.unshift(current);
    current = current.parentId ? byId.get(current.parentId) : undefined;
  }
  return trail;
}

/** The children of a folder in the system knowledge view: at the root only system items (conversationId 0). */
export function itemsIn(items: KnowledgeItem[], folderId: number): KnowledgeItem[] {
  return sortItems(items.filter((item) => item.parentId === folderId && (folderId !== 0 || item.conversationId === 0)));
}

/** Case-insensitive name search over every system item, wherever it sits. */
export function searchItems(items: KnowledgeItem[], query: string): KnowledgeItem[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  return sortItems(items.filter((item) => item.name.toLowerCase().includes(needle)));
}

/** A search result and what matched: its name, its text (with the passage), or both. */
export interface KnowledgeMatch {
  item: KnowledgeItem;
  match: string;
}

const PASSAGE_LENGTH = 90;

/** About PASSAGE_LENGTH characters of the passage around the first query word found in it, on one line. */
export function passageAround(passage: string, query: string): string {
  const text = passage
    .replace(/[#*_`>|]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  const lower = text.toLowerCase();
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const found = words.map((word) => lower.indexOf(word)).filter((index) => index >= 0);
  const at = found.length > 0 ? Math.min(...found) : 0;
  const start = Math.max(0, at - 30);
  const slice = text.slice(start, start + PASSAGE_LENGTH).trim();
  return `${start > 0 ? "…" : ""}${slice}${start + PASSAGE_LENGTH < text.length ? "…" : ""}`;
}

/**
 * Names and contents (issue 33 item 5): items whose name matches, then files whose text the search index matched,
 * each saying which matched. Text hits keep the index's order (best first).
 */
export function searchKnowledge(items: KnowledgeItem[], query: string, contentHits: Array<{ fileId: number; passage: string }> = []): KnowledgeMatch[] {
  const byName = searchItems(items, query);
  const named = new Set(byName.map((item) => item.id));
  const byId = new Map(items.map((item) => [item.id, item]));
  const passages = new Map(contentHits.map((hit) => [hit.fileId, passageAround(hit.passage, query)]));
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const results: KnowledgeMatch[] = byName.map((item) => {
    const passage = passages.get(item.id);
    // The index finds a file by its name too: its text matched only when the passage holds a word searched for.
    const textToo = passage !== undefined && words.some((word) => passage.toLowerCase().includes(word));
    return { item, match: textToo ? `Name and text match: "${passage}"` : "Name matches" };
  });
  for (const hit of contentHits) {
    const item = byId.get(hit.fileId);
    if (item && !named.has(item.id)) results.push({ item, match: `Text matches: "${passages.get(item.id)}"` });
  }
  return results;
}

/**
 * Where an item sits, said under a search result so that two files with one name are told apart:
 * 'Knowledge Base / Folder' for system knowledge, 'Conversation: name' for a conversation's file.
 */
export function itemLocation(item: KnowledgeItem, items: KnowledgeItem[], conversationName: (id: number) => string | undefined = () => undefined): string {
  if (item.conversationId) return `Conversation: ${conversationName(item.conversationId) ?? `#${item.conversationId}`}`;
  return ["Knowledge Base", ...folderTrail(items, item.parentId).map((folder) => folder.name)].join(" / ");
}

/** The conversations that hold files (folders not counted), newest conversation first, with how many each holds. */
export function conversationFileCounts(items: KnowledgeItem[]): Array<{ conversationId: number; files: number }> {
  const counts = new Map<number, number>();
  for (const item of items) if (item.conversationId && item.type !== "folder") counts.set(item.conversationId, (counts.get(item.conversationId) ?? 0) + 1);
  return [...counts.entries()].sort(([a], [b]) => b - a).map(([conversationId, files]) => ({ conversationId, files }));
}

/** Folders first, then by name. */
export function sortItems(items: KnowledgeItem[]): KnowledgeItem[] {
  return [...items].sort((a, b) => ((a.type === "folder") === (b.type === "folder") ? a.name.localeCompare(b.name) : a.type === "folder" ? -1 : 1));
}

/** Sub-folders of `folderId` in the nested folder tree (0 = root level). */
export function subfolders(tree: KnowledgeItem[], folderId: number): KnowledgeItem[] {
  if (folderId === 0) return sortItems(tree);
  const trail = folderTrail(tree, folderId);
  return sortItems(trail.at(-1)?.items ?? []);
}

export function statusLabel(item: KnowledgeItem): string | null {
  switch (item.status) {
    case "queued":
      return "Queued";
    case "processing":
      return "Processing";
    case "failed":
      return "Failed";
    case "stored":
      return item.type === "url" ? "Reference only" : "Not processed";
    default:
      return null;
  }
}

export const canRetry = (item: KnowledgeItem) => item.type !== "folder" && (item.status === "failed" || (item.status === "stored" && item.type !== "url"));
