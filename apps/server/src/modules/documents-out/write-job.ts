import type { Citation, Message } from "@sage/contracts/conversations";
import type { DocumentFormat } from "@sage/contracts/documents-out";
import { conversationDocument } from "./conversation-document.ts";
import { markdownDocument, type DocumentModel } from "./markdown-document.ts";

/** What a writer thread is given: plain data (a Markdown text and the passages it may cite, or a conversation). */
export type WriteJob =
  | { kind: "markdown"; format: DocumentFormat; title: string; content: string; citations: Citation[] }
  | { kind: "conversation"; format: DocumentFormat; conversation: { name: string; messages: Message[]; timeZone?: string } };

export function documentModel(job: WriteJob): DocumentModel {
  if (job.kind === "conversation") return conversationDocument(job.conversation);
  return markdownDocument(job.title, job.content, (n) => job.citations.find((citation) => citation.n === n));
}

/** The passages a text's [n] marks may name, looked up now (the thread cannot ask the turn). */
export function citedIn(content: string, citation: (n: number) => Citation | undefined): Citation[] {
  const numbers = new Set(
    [...content.matchAll(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g)].flatMap((match) => match[1]!.split(",").map((part) => Number(part.trim()))),
  );
  return [...numbers].flatMap((n) => citation(n) ?? []);
}
