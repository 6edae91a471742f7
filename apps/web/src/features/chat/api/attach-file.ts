import type { MessageAttachment } from "@sage/contracts/conversations";
import { uploadResponseSchema } from "@sage/contracts/knowledge";
import { apiUpload } from "@/lib/api-upload";
import { sessionUserId } from "@/lib/session-user-id";

/** Uploads a file pasted, dropped or picked in the composer into the conversation's knowledge, to go with the message. */
export async function attachFile(conversationId: string, file: File): Promise<MessageAttachment> {
  const form = new FormData();
  form.append("userId", sessionUserId());
  form.append("conversationId", conversationId);
  form.append("parentId", "0");
  form.append("path", file.name);
  // The upload form requires a description; an attachment's says where it came from.
  form.append("description", `Attached in the chat: ${file.name}`);
  form.append("file", file);
  const reply = await apiUpload("/api/upload", form, () => undefined);
  const { file: item } = uploadResponseSchema.parse(reply.data);
  return { fileId: item.id, name: item.name, mimeType: file.type || null };
}
