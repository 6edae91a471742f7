import type { Message, ToolCallRecord } from "@sage/contracts/conversations";
import type { ContentSource } from "@sage/contracts/provenance";
import type { ContentEntry, HistoryAnswer } from "./provenance/turn-provenance.ts";

/**
 * SAGE's own tools whose results were text someone else wrote, for tool calls saved before each call recorded what
 * it read (`readFrom`); an external tool (`server__tool`) is always one.
 */
const READERS = new Set(["searchDocuments", "searchMail", "readThread", "listEvents", "performWebSearch", "listCommitments", "research", "readFile"]);

/** "3 Dec": how a card dates an earlier answer. */
// One formatter for every answer: toLocaleDateString with options builds a new one each call (0.47 ms against 0.006 ms
// here), and a channel's conversation, which only grows, gave every turn hundreds of them.
const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
export const shortDay = (iso: string) => DAY.format(new Date(iso));

/** What a saved call read: its record, or for a call saved before records kept it, the tool's results as one text. */
function readBy(call: ToolCallRecord): ContentEntry[] {
  const sources: ContentSource[] = call.readFrom ?? (READERS.has(call.name) || call.name.includes("__") ? [{ title: `what ${call.name} found` }] : []);
  if (sources.length === 0) return [];
  const text = JSON.stringify(call.result ?? "");
  // A result that read several (five mails) is split by their ids where it can be, so a match names the one it is in.
  return sources.map((source) => ({ source, text: (sources.length > 1 && partOf(call.result, source)) || text }));
}

/** The part of a result about one source: the item whose id is the source's mail or file. */
function partOf(result: unknown, source: ContentSource): string | undefined {
  const items = (result as { results?: unknown[]; messages?: unknown[] } | null)?.results ?? (result as { messages?: unknown[] } | null)?.messages;
  if (!Array.isArray(items)) return undefined;
  const found = items.find((item) => {
    const record = item as { id?: number; metadata?: { file_id?: number } };
    return (source.messageId !== undefined && record.id === source.messageId) || (source.fileId !== undefined && record.metadata?.file_id === source.fileId);
  });
  return found === undefined ? undefined : JSON.stringify(found);
}

/**
 * The conversation's earlier answers as the model is given them again, each with what its turn read (issue 47):
 * an answer written after a turn read a mail, a document, a web page or a tool's answer may quote it, so a value a
 * later call takes from that answer is content-derived ("ok go ahead" must not launder it). What a turn read:
 * the knowledge passages put beside its user message, the files attached to it, and what each tool call read.
 */
export function historyAnswers(window: readonly Message[]): HistoryAnswer[] {
  const answers: HistoryAnswer[] = [];
  let read: ContentEntry[] = [];
  for (const message of window) {
    if (message.role === "user") {
      read = [
        ...(message.context ?? []).map((passage) => ({
          source: { title: passage.filename, ...(passage.fileId ? { fileId: passage.fileId } : {}) },
          text: passage.content,
        })),
        ...(message.attachments ?? []).map((attachment) => ({ source: { title: attachment.name, fileId: attachment.fileId }, text: "" })),
      ];
      continue;
    }
    // A saved message holds the calls made before its text (a reply that only called a tool keeps no message of its
    // own) and the one made after it: all count, as its text may quote the first ones.
    for (const call of message.toolCalls ?? []) read.push(...readBy(call));
    // A message SAGE wrote from content without a turn (a meeting dossier) says whose words each cited line quotes.
    for (const citation of message.citations ?? []) if (citation.from) read.push({ source: citation.from, text: citation.content });
    const sources = [...new Map(read.map((entry) => [entry.source.title, entry.source])).values()];
    answers.push({ text: message.content, sources, read: [...read], day: shortDay(message.createdAt) });
  }
  return answers;
}
