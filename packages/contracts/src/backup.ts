import { z } from "zod";

/** GET /api/import_vector_db/preview: what an import (or a snapshot restore) would replace, and the sentence saying so. */
export const importPreviewSchema = z.object({
  files: z.number().int(),
  links: z.number().int(),
  notes: z.number().int(),
  folders: z.number().int(),
  inConversations: z.number().int(),
  /** "This replaces 12 files, 3 notes and 2 folders" (links count as files). */
  message: z.string(),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

/** Why a snapshot was taken: it is taken automatically before each of these. */
export const SNAPSHOT_REASONS = ["import", "reset", "restore"] as const;

/** GET /api/knowledge/snapshots: the user's automatic snapshots, newest first. */
export const knowledgeSnapshotSchema = z.object({
  id: z.number().int(),
  reason: z.enum(SNAPSHOT_REASONS),
  createdAt: z.string(),
  files: z.number().int(),
  links: z.number().int(),
  notes: z.number().int(),
  folders: z.number().int(),
  bytes: z.number().int(),
});
export type KnowledgeSnapshot = z.infer<typeof knowledgeSnapshotSchema>;
export const knowledgeSnapshotListSchema = z.array(knowledgeSnapshotSchema);

/** POST /api/knowledge/snapshots/:id/restore answers like an import. */
export const snapshotRestoreResponseSchema = z.object({ message: z.string(), files_imported: z.number().int(), snapshot_id: z.number().int().optional() });
