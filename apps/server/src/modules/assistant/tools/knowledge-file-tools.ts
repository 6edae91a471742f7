import type { DocumentSearchPort } from "../../retrieval/retrieval.module.ts";
import type { AssistantTool } from "./assistant-tool.ts";

/** The knowledge base by folder and by name (the knowledge module's `files`). */
export interface KnowledgeFilesPort {
  list(userId: number, path: string, limit: number): Promise<{ entries: { id: number; name: string; type: string; path: string }[]; more: boolean } | null>;
  byName(userId: number, name: string): Promise<{ id: number; name: string; type: string; path: string; size?: number } | undefined>;
  appendToNote(userId: number, name: string, text: string): Promise<{ name: string } | null>;
  /** Deletes an item as the Knowledge Base screen does (deleteFile, after Approve). */
  remove(userId: number, id: number): Promise<number>;
}

/** How much of a folder and of a file the model is given. */
const FOLDER_ENTRIES = 100;
const FILE_CHARS = 20_000;

export const KNOWLEDGE_FILE_TEXTS = {
  noFolder: (path: string) => `There is no folder "${path}" in the knowledge base.`,
  emptyFolder: "The folder is empty.",
  listed: (count: number, more: boolean) => `${count} item(s)${more ? `, and more not listed (the first ${FOLDER_ENTRIES})` : ""}.`,
  noName: "Give the file's name.",
  noFile: (name: string) => `No file or note named "${name}" is in the knowledge base (listFolder shows what is there).`,
  read: (shown: number, cut: boolean) => (cut ? `The first ${shown} characters of the file.` : "The whole file."),
  noText: "Give the text to add.",
  noNote: (name: string) => `No note named "${name}" is in the knowledge base.`,
  appended: (name: string) => `Added to the end of the note "${name}".`,
  fromContent: (source: string) =>
    `Not added: the text comes from ${source}, not from the user. SAGE adds to a note only what the user wrote; ask them to type it.`,
} as const;

const text = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * listFolder, readFile and appendToNote (issue 47's workspace tools): read-only, so never a card. A file's text, and the names in a
 * folder (a mail's attachments are named by their sender), are someone else's words: they are returned as content,
 * and values later calls take from them are content-derived.
 */
export function knowledgeFileTools(files: KnowledgeFilesPort, search: DocumentSearchPort): AssistantTool[] {
  return [
    {
      name: "listFolder",
      description: "List the files, notes and folders in a folder of the user's knowledge base (the top folder when path is empty).",
      parameters: {
        type: "object",
        properties: { path: { type: "string", description: "The folder's path, such as 'Board/2026'; empty for the top folder" } },
      },
      readOnly: true,
      argumentRoles: { path: "object" },
      async run(args, context) {
        const path = text(args.path);
        const listed = await files.list(context.userId, path, FOLDER_ENTRIES);
        if (!listed) return { result: { items: [], message: KNOWLEDGE_FILE_TEXTS.noFolder(path) } };
        const items = listed.entries.map((entry) => ({ name: entry.name, type: entry.type, path: entry.path }));
        return {
          result: { items, message: items.length === 0 ? KNOWLEDGE_FILE_TEXTS.emptyFolder : KNOWLEDGE_FILE_TEXTS.listed(items.length, listed.more) },
          untrusted: listed.entries.map((entry) => ({ source: { title: entry.path || entry.name, fileId: entry.id }, text: entry.name })),
        };
      },
    },
    {
      name: "readFile",
      description: "Read a file or note of the user's knowledge base by its name (or path), such as 'travel-policy.txt'.",
      parameters: {
        type: "object",
        properties: { name: { type: "string", description: "The file's name or path" } },
        required: ["name"],
      },
      readOnly: true,
      argumentRoles: { name: "object" },
      async run(args, context) {
        const name = text(args.name).trim();
        if (!name) return { result: { success: false, message: KNOWLEDGE_FILE_TEXTS.noName } };
        const file = await files.byName(context.userId, name);
        if (!file) return { result: { success: false, message: KNOWLEDGE_FILE_TEXTS.noFile(name) } };
        const read = await search.itemText(context.userId, file.id, FILE_CHARS + 1);
        const cut = read.length > FILE_CHARS;
        const body = cut ? read.slice(0, FILE_CHARS) : read;
        return {
          result: { success: true, name: file.name, path: file.path, text: body, message: KNOWLEDGE_FILE_TEXTS.read(body.length, cut) },
          untrusted: [{ source: { title: file.name, fileId: file.id }, text: body }],
        };
      },
    },
    {
      name: "appendToNote",
      description: "Add a line of text at the end of one of the user's notes in the knowledge base, by the note's name.",
      parameters: {
        type: "object",
        properties: {
          name: { type: "string", description: "The note's name, such as 'To do'" },
          text: { type: "string", description: "The text to add" },
        },
        required: ["name", "text"],
      },
      readOnly: false,
      persists: true,
      argumentRoles: { name: "object", text: "text" },
      async run(args, context) {
        const name = text(args.name).trim();
        const line = text(args.text).trim();
        if (!name) return { result: { success: false, message: KNOWLEDGE_FILE_TEXTS.noName } };
        if (!line) return { result: { success: false, message: KNOWLEDGE_FILE_TEXTS.noText } };
        // A note is the user's own words (the commitments ledger reads it as theirs): someone else's text stays out.
        const origin = context.provenance?.text;
        if (origin?.from === "content")
          return { result: { success: false, message: KNOWLEDGE_FILE_TEXTS.fromContent(origin.source?.title ?? "text someone else wrote") } };
        const done = await files.appendToNote(context.userId, name, line);
        if (!done) return { result: { success: false, message: KNOWLEDGE_FILE_TEXTS.noNote(name) } };
        return { result: { success: true, message: KNOWLEDGE_FILE_TEXTS.appended(done.name) } };
      },
    },
  ];
}
