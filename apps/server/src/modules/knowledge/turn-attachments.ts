import { readFile } from "node:fs/promises";
import { attachmentNotFound } from "@sage/contracts/chat-turn";
import { badRequest } from "../../http/app-error.ts";
import type { BlobStore } from "../../store/blob-store.ts";
import type { KnowledgeIndex } from "./ingestion.ts";
import type { KnowledgeRepo } from "./knowledge.repo.ts";

/** Pictures a model is given as pictures (what Gemini and OpenAI-compatible vision models both take inline; Gemini refuses GIF). */
const PICTURE_TYPES = new Set(["image/png", "image/jpeg", "image/webp"]);
/** Inline pictures beyond this go as their text: Gemini refuses requests over 20 MB, and base64 adds a third. */
const MAX_PICTURE_BYTES = 7 * 1024 * 1024;
/** The most of one attached file's text that goes with a message. */
const MAX_TEXT_CHARS = 20_000;

/** A file attached to a message, as a turn gives it to the model. */
export interface TurnAttachment {
  fileId: number;
  name: string;
  mimeType: string | null;
  /** The picture's bytes when it can go to the model as a picture; undefined otherwise. */
  picture?: { data: Uint8Array; mediaType: string };
  /** The text read from the file (by its reader, or by text recognition for a picture), cut to a limit. */
  text: string;
}

export interface TurnAttachmentsPort {
  /** The conversation's files with these ids, in order; a 400 naming the first id that is not one of them. */
  forTurn(userId: number, conversationId: number, fileIds: readonly number[]): Promise<TurnAttachment[]>;
}

export function createTurnAttachments(deps: {
  repo: Pick<KnowledgeRepo, "getItem">;
  blobs: Pick<BlobStore, "pathOf">;
  index: Pick<KnowledgeIndex, "itemSections">;
}) {
  return {
    async forTurn(userId, conversationId, fileIds) {
      const attachments: TurnAttachment[] = [];
      for (const fileId of new Set(fileIds)) {
        const item = await deps.repo.getItem(userId, fileId);
        if (!item || item.type !== "file" || item.conversationId !== conversationId) throw badRequest(attachmentNotFound(fileId), "attachment_not_found");
        const text = (await deps.index.itemSections(userId, fileId, MAX_TEXT_CHARS))
          .map((section) => section.text)
          .join("\n\n")
          .slice(0, MAX_TEXT_CHARS);
        const attachment: TurnAttachment = { fileId, name: item.name, mimeType: item.mimeType, text };
        if (item.mimeType && PICTURE_TYPES.has(item.mimeType) && item.storageKey && item.size <= MAX_PICTURE_BYTES) {
          attachment.picture = { data: new Uint8Array(await readFile(deps.blobs.pathOf(item.storageKey))), mediaType: item.mimeType };
        }
        attachments.push(attachment);
      }
      return attachments;
    },
  } satisfies TurnAttachmentsPort;
}
