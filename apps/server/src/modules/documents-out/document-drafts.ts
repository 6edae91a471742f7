import type { Citation } from "@sage/contracts/conversations";
import { DOCUMENT_TEXTS, DRAFT_TEXTS, type DocumentCreated, type DocumentDraft, type DocumentFormat } from "@sage/contracts/documents-out";
import type { Kysely, Selectable } from "kysely";
import { conflict, notFound } from "../../http/app-error.ts";
import type { Database, DocumentDraftsTable } from "../../store/schema.ts";
import type { GeneratedFilesPort } from "../knowledge/knowledge.module.ts";
import { DOCUMENT_MIME_TYPES, documentFileName } from "./write-document.ts";
import { writeDocumentInThread } from "./write-in-thread.ts";
import { citedIn } from "./write-job.ts";

type DraftRow = Selectable<DocumentDraftsTable>;

/** The draft as the canvas reads it. */
export function draftView(row: DraftRow): DocumentDraft {
  return {
    id: row.id,
    conversationId: row.conversationId,
    format: row.format,
    title: row.title,
    content: row.content,
    version: row.version,
    fileId: row.fileId,
    fileName: row.fileName,
    exported: row.fileId !== null && row.exportedVersion === row.version,
    updatedAt: row.updatedAt,
  };
}

const readCitations = (row: DraftRow): Citation[] => JSON.parse(row.citations) as Citation[];

/** "Kestrel Memo.docx" for a draft's first file; "Kestrel Memo (v3).docx" after its second ("... (v2).docx"). */
export function versionName(name: string, previous: string | null): string {
  if (previous === null) return name;
  const version = Number(/ \(v(\d+)\)\.[^.]+$/.exec(previous)?.[1] ?? 1) + 1;
  const dot = name.lastIndexOf(".");
  return `${name.slice(0, dot)} (v${version})${name.slice(dot)}`;
}

/**
 * The canvas (decision 047): every document SAGE makes keeps its Markdown as a draft the user can edit and export
 * again, and the model can revise. A revision never overwrites edits the model has not read; a user's save never
 * overwrites a revision the editor did not show.
 */
export function createDocumentDrafts(deps: { db: Kysely<Database>; files: GeneratedFilesPort; now?: () => Date }) {
  const { db } = deps;
  const now = () => (deps.now?.() ?? new Date()).toISOString();

  const find = (userId: number, id: number) => db.selectFrom("documentDrafts").selectAll().where("id", "=", id).where("userId", "=", userId).executeTakeFirst();

  async function mustFind(userId: number, id: number): Promise<DraftRow> {
    const row = await find(userId, id);
    if (!row) throw notFound(DRAFT_TEXTS.notFound);
    return row;
  }

  /**
   * Writes the draft's file (in a worker thread) into its conversation's knowledge and remembers it. A draft's later
   * files are its versions, named as such ("Kestrel Memo (v2).docx"): never a second file of the same name (issue 52
   * item 10). Each keeps the names of the sources it cites, so search ranks it below them (item 11).
   */
  async function writeFile(row: DraftRow): Promise<{ row: DraftRow; document: DocumentCreated }> {
    const citations = readCitations(row);
    const bytes = await writeDocumentInThread({ kind: "markdown", format: row.format, title: row.title, content: row.content, citations });
    const saved = await deps.files.add(row.userId, row.conversationId, {
      name: versionName(documentFileName(row.title, row.format), row.fileName),
      mimeType: DOCUMENT_MIME_TYPES[row.format],
      bytes,
      description: `${DOCUMENT_TEXTS.formatNames[row.format]} created by SAGE`,
      madeFrom: [...new Set(citations.map((citation) => citation.filename))],
    });
    const updated = await db
      .updateTable("documentDrafts")
      .set({ fileId: saved.id, fileName: saved.name, exportedVersion: row.version })
      .where("id", "=", row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { row: updated, document: { fileId: saved.id, name: saved.name, format: row.format, draftId: row.id } };
  }

  return {
    /** createDocument: a new draft and its first file. */
    async create(userId: number, conversationId: number, input: { format: DocumentFormat; title: string; content: string; citations: Citation[] }) {
      const at = now();
      const row = await db
        .insertInto("documentDrafts")
        .values({
          userId,
          conversationId,
          format: input.format,
          title: input.title,
          content: input.content,
          citations: JSON.stringify(input.citations),
          createdAt: at,
          updatedAt: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return writeFile(row);
    },

    get: async (userId: number, id: number) => draftView(await mustFind(userId, id)),

    /** The draft the model means in this conversation: the one named, else the latest; undefined when none. */
    async inConversation(userId: number, conversationId: number, id?: number): Promise<DraftRow | undefined> {
      let query = db.selectFrom("documentDrafts").selectAll().where("userId", "=", userId).where("conversationId", "=", conversationId);
      if (id !== undefined) query = query.where("id", "=", id);
      return query.orderBy("id", "desc").executeTakeFirst();
    },

    /** readDocumentDraft: the model has now seen this version. */
    async readByModel(row: DraftRow) {
      await db.updateTable("documentDrafts").set({ modelVersion: row.version }).where("id", "=", row.id).execute();
      return row;
    },

    /**
     * reviseDocument: the model's whole new text, written to a new file. Refused (the model hears `readFirst`) when
     * the user saved edits the model has not read. New [n] marks take the turn's passages; kept ones keep theirs.
     */
    async revise(row: DraftRow, input: { title?: string; content: string }, citation: (n: number) => Citation | undefined) {
      if (row.modelVersion !== row.version) return { refusal: DRAFT_TEXTS.readFirst };
      const kept = readCitations(row);
      const citations = citedIn(input.content, (n) => kept.find((entry) => entry.n === n) ?? citation(n));
      const version = row.version + 1;
      const updated = await db
        .updateTable("documentDrafts")
        .set({
          title: input.title ?? row.title,
          content: input.content,
          citations: JSON.stringify(citations),
          version,
          modelVersion: version,
          updatedAt: now(),
        })
        .where("id", "=", row.id)
        .where("version", "=", row.version)
        .returningAll()
        .executeTakeFirst();
      if (!updated) return { refusal: DRAFT_TEXTS.readFirst };
      return writeFile(updated);
    },

    /** The user's edit in the canvas; 409 when the draft moved on since the editor opened it. */
    async save(userId: number, id: number, input: { title: string; content: string; version: number }): Promise<DocumentDraft> {
      const row = await mustFind(userId, id);
      const updated =
        row.version === input.version
          ? await db
              .updateTable("documentDrafts")
              .set({ title: input.title, content: input.content, version: row.version + 1, updatedAt: now() })
              .where("id", "=", id)
              .where("version", "=", input.version)
              .returningAll()
              .executeTakeFirst()
          : undefined;
      if (!updated) throw conflict(DRAFT_TEXTS.changedMeanwhile, "draft_changed");
      return draftView(updated);
    },

    /** Export: the file written from the draft as it is now (the last one again when nothing changed). */
    async export(userId: number, id: number): Promise<{ draft: DocumentDraft; document: DocumentCreated }> {
      const row = await mustFind(userId, id);
      if (row.fileId !== null && row.fileName !== null && row.exportedVersion === row.version)
        return { draft: draftView(row), document: { fileId: row.fileId, name: row.fileName, format: row.format, draftId: row.id } };
      const written = await writeFile(row);
      return { draft: draftView(written.row), document: written.document };
    },
  };
}

export type DocumentDrafts = ReturnType<typeof createDocumentDrafts>;
