import type { z } from "zod";

/**
 * Another module's share of a user's knowledge carried in the backup (the user's memories, once they exist): its
 * rows go in `<name>.jsonl`, their count in the manifest and the import preview. The module that owns the rows
 * implements this and app.ts passes it to the backup module; rows keep their owner's ids only inside the zip.
 */
export interface BackupPart<Row extends { id: number } = { id: number }> {
  /** Lower-case letters and dashes, e.g. "memories". */
  name: string;
  /** Checks each row of an imported backup before anything is written. */
  schema: z.ZodType<Row>;
  count(userId: number): number;
  /** Rows after an id, in ascending id order. */
  exportPage(userId: number, afterId: number, size: number): Row[];
  /** One step of emptying the user's rows; 0 once none is left (runs in a short transaction). */
  emptyStepSync(userId: number, limit: number): number;
  /**
   * Writes restored rows (runs in a short transaction, a batch at a time), after every item: `restored.itemId` turns
   * an item id of the backup into the restored item's (undefined for one not in it).
   */
  insertSync(userId: number, rows: Row[], restored: { itemId(backupId: number): number | undefined }): void;
}
