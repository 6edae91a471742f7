import {
  knowledgeItemSchema,
  nameFromNote,
  processNoteResponseSchema,
  processUrlResponseSchema,
  uploadResponseSchema,
  type KnowledgeItem,
  type ProcessUrlResponse,
  type UploadResponse,
} from "@sage/contracts/knowledge";
import { ApiError, apiCall, apiRequest } from "@/lib/api-client";
import { apiUpload } from "@/lib/api-upload";
import { errorMessage } from "@/lib/error-message";
import { sessionUserId } from "@/lib/session-user-id";

export interface Placement {
  conversationId: number;
  parentId: number;
  parentPath: string;
}

export type UploadOutcome = { ok: true; status: number; body: UploadResponse } | { ok: false; status: number; error: string };

/** POST /api/upload, reporting upload progress; a failure becomes an outcome the toasts describe. */
export async function uploadFile(
  file: File,
  placement: Placement,
  description: string,
  onProgress: (fraction: number) => void,
  /** A folder upload's file: its place inside the folder ('Board/2024/q1.md'), whose folders the server makes. */
  relativePath?: string,
): Promise<UploadOutcome> {
  const form = new FormData();
  const place = relativePath ?? file.name;
  form.append("userId", sessionUserId());
  form.append("conversationId", String(placement.conversationId));
  form.append("parentId", String(placement.parentId));
  form.append("path", placement.parentPath ? `${placement.parentPath}/${place}` : place);
  form.append("description", description);
  if (relativePath) form.append("relativePath", relativePath);
  form.append("file", file);
  try {
    const reply = await apiUpload("/api/upload", form, onProgress);
    const parsed = uploadResponseSchema.safeParse(reply.data);
    if (parsed.success) return { ok: true, status: reply.status, body: parsed.data };
    return { ok: false, status: reply.status, error: "API returned non-JSON response" };
  } catch (error) {
    const status = error instanceof ApiError ? error.status : 0;
    return {
      ok: false,
      status,
      error: errorMessage(error, { fallback: "An unexpected error occurred during upload", orElse: "statusText", otherErrors: "fallback" }),
    };
  }
}

export type UrlOutcome = { ok: true; status: number; body: ProcessUrlResponse } | { ok: false; status: number; error: string; fileId?: number };

/** POST /api/process_url. A network failure throws; any reply becomes an outcome. */
export async function processUrl(url: string, placement: Placement, description: string): Promise<UrlOutcome> {
  const body = { url, userId: sessionUserId(), conversationId: placement.conversationId, parentId: placement.parentId, description };
  let failure: ApiError;
  try {
    const reply = await apiCall("/api/process_url", { method: "POST", body });
    const parsed = processUrlResponseSchema.safeParse(reply.data);
    if (parsed.success) return { ok: true, status: reply.status, body: parsed.data };
    // A success whose body breaks the contract is reported like a failure.
    failure = new ApiError(reply.status, reply.statusText, reply.bodyText);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    failure = error;
  }
  // A page that could not be processed may still have been kept as a reference entry; the reply names it.
  const kept = processUrlResponseSchema.safeParse(failure.json);
  const fileId = kept.success ? kept.data.url_info?.file_id : undefined;
  return { ok: false, status: failure.status, error: errorMessage(failure, { fallback: "", orElse: "statusText" }), fileId };
}

/** When a page cannot be processed, the link is still kept, as a plain reference entry without content. */
export function addUrlReference(url: string, placement: Placement, description: string): Promise<KnowledgeItem> {
  return apiRequest("/api/files", {
    method: "POST",
    body: {
      name: "",
      type: "url",
      userId: sessionUserId(),
      conversationId: placement.conversationId,
      parentId: placement.parentId,
      path: placement.parentPath,
      content: url,
      description,
    },
    schema: knowledgeItemSchema,
  });
}

/** A note is created through the files call, then vectorised; the reply's warning means it may not be searchable. */
export async function addNote(content: string, placement: Placement, description: string): Promise<{ item: KnowledgeItem; warning?: string }> {
  const name = nameFromNote(content);
  const entry = {
    name,
    type: "note",
    userId: sessionUserId(),
    conversationId: placement.conversationId,
    parentId: placement.parentId,
    path: placement.parentPath ? `${placement.parentPath}/${name}` : name,
    content,
    description,
  };
  const item = await apiRequest("/api/files", { method: "POST", body: entry, schema: knowledgeItemSchema });
  try {
    const processed = await apiRequest("/api/process-note", { method: "POST", body: { ...entry, fileId: item.id }, schema: processNoteResponseSchema });
    return { item: processed.file, warning: processed.warning };
  } catch (error) {
    return { item, warning: errorMessage(error, { fallback: String(error), orElse: "fullMessage" }) };
  }
}
