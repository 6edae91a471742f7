import type { Message } from "@sage/contracts/conversations";
import type { ContentSource } from "@sage/contracts/provenance";

/**
 * SAGE's own tools whose results were text someone else wrote, for tool calls saved before each call recorded what
 * it read (`readFrom`); an external tool (`server__tool`) is always one.
 */
const READERS = new Set(["searchDocuments", "searchMail", "readThread", "listEvents", "performWebSearch", "listCommitments", "research"]);

/**
 * The untrusted content behind the conversation's history as the model is given it (issue 47): an answer written
 * after a turn read a mail, a document, a web page or a tool's answer may quote it, so a later turn holds that text
 * too ("ok go ahead" must not launder it). Per earlier message: the knowledge passages put beside a user message,
 * the files attached to it, and what each tool call read.
 */
export function historySources(window: readonly Message[]): ContentSource[] {
  const found = new Map<string, ContentSource>();
  const add = (source: ContentSource) => {
    if (!found.has(source.title)) found.set(source.title, source);
  };
  for (const message of window) {
    for (const passage of message.context ?? []) add({ title: passage.filename, ...(passage.fileId ? { fileId: passage.fileId } : {}) });
    for (const attachment of message.attachments ?? []) add({ title: attachment.name, fileId: attachment.fileId });
    for (const call of message.toolCalls ?? []) {
      if (call.readFrom) call.readFrom.forEach(add);
      else if (READERS.has(call.name) || call.name.includes("__")) add({ title: `what ${call.name} found` });
    }
  }
  return [...found.values()];
}
