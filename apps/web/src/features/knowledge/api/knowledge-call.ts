import { ApiError, apiRequest } from "@/lib/api-client";
import type { ZodType } from "zod";

/** Spec 8: knowledge calls report the JSON error field when present, else the status text. */
export function knowledgeErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? (error.statusText || fallback);
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

export function knowledgeRequest<T>(path: string, options: { method?: string; body?: unknown; schema?: ZodType<T> } = {}): Promise<T> {
  return apiRequest<T>(path, options);
}
