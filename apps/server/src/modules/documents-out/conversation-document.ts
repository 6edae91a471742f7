import type { Citation, Message } from "@sage/contracts/conversations";
import { createNotes, parseMarkdown, type Block, type DocumentModel } from "./markdown-document.ts";

export interface ExportedConversation {
  name: string;
  messages: readonly Message[];
}

const speaker = (message: Message) => (message.role === "user" ? "You" : "SAGE");
/** "27 Nov 2026, 10:51 UTC": the same for every reader of the file, wherever they open it. */
const when = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : `${date.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`;
};
const citationOf = (message: Message) => (n: number) => message.citations?.find((citation: Citation) => citation.n === n);
export const titleOf = (conversation: ExportedConversation) => conversation.name.trim() || "Untitled";

/** The files SAGE made in this answer (createDocument and reviseDocument calls that succeeded), by name. */
const madeFiles = (message: Message) =>
  (message.toolCalls ?? []).flatMap((call) => {
    const result = call.result as { success?: unknown; name?: unknown } | null;
    return (call.name === "createDocument" || call.name === "reviseDocument") && result?.success === true && typeof result.name === "string"
      ? [result.name]
      : [];
  });
export const createdLine = (name: string) => `Created: ${name}`;

/**
 * The conversation as one document: a heading per message (who and when), the answers' Markdown, what the user
 * typed as plain paragraphs, and every cited passage as a footnote (numbered across the whole conversation).
 */
export function conversationDocument(conversation: ExportedConversation): DocumentModel {
  const notes = createNotes();
  const blocks: Block[] = [];
  for (const message of conversation.messages) {
    if (!message.content.trim()) continue;
    blocks.push({ kind: "heading", depth: 2, inlines: [{ text: `${speaker(message)} · ${when(message.createdAt)}` }] });
    if (message.role === "user") {
      for (const paragraph of message.content.split(/\n\s*\n/)) if (paragraph.trim()) blocks.push({ kind: "paragraph", inlines: [{ text: paragraph.trim() }] });
    } else blocks.push(...parseMarkdown(message.content, citationOf(message), notes));
    for (const name of madeFiles(message)) blocks.push({ kind: "paragraph", inlines: [{ text: createdLine(name), italic: true }] });
  }
  return { title: titleOf(conversation), blocks, notes: notes.notes };
}

/** The conversation as Markdown: citations as footnotes ([^1]) defined at the end. */
export function conversationMarkdown(conversation: ExportedConversation): string {
  const notes = createNotes();
  const parts = [`# ${titleOf(conversation)}`];
  for (const message of conversation.messages) {
    if (!message.content.trim()) continue;
    const cite = citationOf(message);
    const content = message.content.replace(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g, (whole, numbers: string) => {
      const citations = numbers.split(",").map((part) => cite(Number(part.trim())));
      return citations.every(Boolean) ? citations.map((citation) => `[^${notes.noteFor(citation!)}]`).join("") : whole;
    });
    parts.push(`## ${speaker(message)} · ${when(message.createdAt)}`, content.trim(), ...madeFiles(message).map((name) => `_${createdLine(name)}_`));
  }
  if (notes.notes.length > 0) parts.push(notes.notes.map((note) => `[^${note.n}]: ${note.text}`).join("\n"));
  return `${parts.join("\n\n")}\n`;
}
