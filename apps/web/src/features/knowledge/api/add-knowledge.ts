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
import { ApiError } from "@/lib/api-client";
import { knowledgeRequest } from "./knowledge-call";
import { sessionUserId } from "@/lib/session-user-id";

export interface Placement {
  conversationId: number;
  parentId: number;
  parentPath: string;
}

export type UploadOutcome = { ok: true; status: number; body: UploadResponse } | { ok: false; status: number; error: string };

/** POST /api/upload through XHR, which (unlike fetch) reports upload progress. */
export function uploadFile(file: File, placement: Placement, description: string, onProgress: (fraction: number) => void): Promise<UploadOutcome> {
  const form = new FormData();
  form.append("userId", sessionUserId());
  form.append("conversationId", String(placement.conversationId));
  form.append("parentId", String(placement.parentId));
  form.append("path", placement.parentPath ? `${placement.parentPath}/${file.name}` : file.name);
  form.append("description", description);
  form.append("file", file);
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open("POST", "/api/upload");
    request.withCredentials = true;
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      let data: unknown = undefined;
      try {
        data = JSON.parse(request.responseText);
      } catch {
        data = undefined;
      }
      if (request.status >= 200 && request.status < 300) {
        const parsed = uploadResponseSchema.safeParse(data);
        if (parsed.success) return resolve({ ok: true, status: request.status, body: parsed.data });
        return resolve({ ok: false, status: request.status, error: "API returned non-JSON response" });
      }
      const error = data && typeof data === "object" && "error" in data && typeof data.error === "string" ? data.error : request.statusText;
      resolve({ ok: false, status: request.status, error: error || "An unexpected error occurred during upload" });
    };
    request.onerror = () => resolve({ ok: false, status: 0, error: "An unexpected error occurred during upload" });
    request.send(form);
  });
}

export type UrlOutcome = { ok: true; status: number; body: ProcessUrlResponse } | { ok: false; status: number; error: string; fileId?: number };

export async function processUrl(url: string, placement: Placement, description: string): Promise<UrlOutcome> {
  const response = await fetch("/api/process_url", {
    method: "POST",
    credentials: "include",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ url, userId: sessionUserId(), conversationId: placement.conversationId, parentId: placement.parentId, description }),
  });
  const data: unknown = await response.json().catch(() => undefined);
  const parsed = processUrlResponseSchema.safeParse(data);
  if (response.ok && parsed.success) return { ok: true, status: response.status, body: parsed.data };
  const error = data && typeof data === "object" && "error" in data && typeof data.error === "string" ? data.error : response.statusText;
  return { ok: false, status: response.status, error, fileId: parsed.success ? parsed.data.url_info?.file_id : undefined };
}

/** The spec's fallback: the link kept as a plain reference entry. */
export function addUrlReference(url: string, placement: Placement, description: string): Promise<KnowledgeItem> {
  return knowledgeRequest("/api/files", {
    method: "POST",
    body: { name: "", type: "url", userId: sessionUserId(), conversationId: placement.conversationId, parentId: placement.parentId, path: placement.parentPath, content: url, description },
    schema: knowledgeItemSchema,
  });
}

/** A note is created through the files call, then vectorised; the reply's warning means it may not be searchable. */
export async function addNote(content: string, placement: Placement, description: string): Promise<{ item: KnowledgeItem; warning?: string }> {
  const name = nameFromNote(content);
  const entry = { name, type: "note", userId: sessionUserId(), conversationId: placement.conversationId, parentId: placement.parentId, path: placement.parentPath ? `${placement.parentPath}/${name}` : name, content, description };
  const item = await knowledgeRequest("/api/files", { method: "POST", body: entry, schema: knowledgeItemSchema });
  try {
    const processed = await knowledgeRequest("/api/process-note", { method: "POST", body: { ...entry, fileId: item.id }, schema: processNoteResponseSchema });
    return { item: processed.file, warning: processed.warning };
  } catch (error) {
    return { item, warning: error instanceof ApiError ? (error.serverMessage ?? error.message) : String(error) };
  }
}
