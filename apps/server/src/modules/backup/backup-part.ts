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
  count(userId: number): Promise<number>;
  /** Rows after an id, in ascending id order. */
  exportPage(userId: number, afterId: number, size: number): Promise<Row[]>;
  /** One step of emptying the user's rows, in a short transaction of its own; 0 once none is left. */
  emptyStep(userId: number, limit: number): Promise<number>;
  /**
   * Writes restored rows in a short transaction of its own, a batch at a time, after every item: `restored.itemId`
   * turns an item id of the backup into the restored item's (undefined for one not in it).
   */
  insert(userId: number, rows: Row[], restored: { itemId(backupId: number): number | undefined }): Promise<void>;
}
