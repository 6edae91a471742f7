import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type { BlobStore } from "../../store/blob-store.ts";
import type { KnowledgeItemRow } from "../../store/schema.ts";
import { cleanFilename } from "./clean-filename.ts";
import { supportedExtension, type ExtractedAttachment } from "../../documents/documents.ts";
import type { FolderPaths } from "./folder-paths.ts";
import type { KnowledgeRepo } from "./knowledge.repo.ts";

/** The folder beside a mail that holds its attachments (decision 016). */
export const attachmentsFolderName = (mailName: string) => `${mailName} attachments`.slice(0, 255);

/**
 * A mail's attachments of supported types become items of their own, in a folder named after the mail beside
 * it, each ingested as its own job. Re-ingesting the mail finds the same folder and the same bytes there, so a
 * retry adds nothing twice.
 */
export async function addAttachmentItems(
  deps: { repo: KnowledgeRepo; blobs: BlobStore; folders: FolderPaths; enqueue(item: { id: number; userId: number }): Promise<unknown> },
  mail: KnowledgeItemRow,
  attachments: ExtractedAttachment[],
): Promise<number> {
  const { repo, blobs } = deps;
  const wanted = attachments.filter((attachment) => attachment.bytes.length > 0 && supportedExtension(cleanFilename(attachment.filename)));
  if (wanted.length === 0) return 0;
  const parent = mail.parentId === null ? undefined : await repo.getItemById(mail.parentId);
  const where = await deps.folders.ensure(mail.userId, { conversationId: mail.conversationId, parentId: mail.parentId, parentPath: parent?.path ?? null }, [
    attachmentsFolderName(mail.name),
  ]);
  let added = 0;
  for (const attachment of wanted) {
    const contentHash = createHash("sha256").update(attachment.bytes).digest("hex");
    const duplicate = await repo.findDuplicate({ userId: mail.userId, conversationId: where.conversationId, parentId: where.parentId, contentHash });
    if (duplicate) continue;
    const name = cleanFilename(attachment.filename);
    const { key, size } = await blobs.put(Readable.from([attachment.bytes]));
    const id = await repo.insertItem({
      userId: mail.userId,
      conversationId: where.conversationId,
      parentId: where.parentId,
      type: "file",
      name,
      path: `${where.parentPath}/${name}`,
      description: attachment.source ? `Attachment of ${mail.name}, ${attachment.source}` : `Attachment of ${mail.name}`,
      size,
      storageKey: key,
      contentHash,
      status: "queued",
    });
    await deps.enqueue({ id, userId: mail.userId });
    added += 1;
  }
  return added;
}
