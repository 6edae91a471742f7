import type { Kysely } from "kysely";
import type { Database, KnowledgeSnapshotRow, SnapshotReason } from "../../store/schema.ts";

/** SQL for the backup module's own tables: knowledge snapshots, and the marker of a restore in progress. */
export function createBackupRepo(db: Kysely<Database>) {
  return {
    async insertSnapshot(row: {
      userId: number;
      reason: SnapshotReason;
      fileName: string;
      files: number;
      links: number;
      notes: number;
      folders: number;
      bytes: number;
    }) {
      const created = await db
        .insertInto("knowledgeSnapshots")
        .values({ ...row, createdAt: new Date().toISOString() })
        .returning("id")
        .executeTakeFirstOrThrow();
      return created.id;
    },

    listSnapshots: (userId: number): Promise<KnowledgeSnapshotRow[]> =>
      db.selectFrom("knowledgeSnapshots").selectAll().where("userId", "=", userId).orderBy("id", "desc").execute(),

    getSnapshot: (userId: number, id: number) =>
      db.selectFrom("knowledgeSnapshots").selectAll().where("userId", "=", userId).where("id", "=", id).executeTakeFirst(),

    getSnapshotById: (id: number) => db.selectFrom("knowledgeSnapshots").selectAll().where("id", "=", id).executeTakeFirst(),

    async deleteSnapshots(ids: number[]) {
      if (ids.length > 0) await db.deleteFrom("knowledgeSnapshots").where("id", "in", ids).execute();
    },

    allSnapshotFiles: async () => new Set((await db.selectFrom("knowledgeSnapshots").select("fileName").execute()).map((row) => row.fileName)),

    /** Marks the user's knowledge as being replaced; false when a restore is already running for them. */
    async startRestore(userId: number): Promise<boolean> {
      const result = await db
        .insertInto("knowledgeRestores")
        .values({ userId, snapshotId: null, startedAt: new Date().toISOString() })
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    async setRestoreSnapshot(userId: number, snapshotId: number) {
      await db.updateTable("knowledgeRestores").set({ snapshotId }).where("userId", "=", userId).execute();
    },

    async finishRestore(userId: number) {
      await db.deleteFrom("knowledgeRestores").where("userId", "=", userId).execute();
    },

    isRestoring: async (userId: number) => Boolean(await db.selectFrom("knowledgeRestores").select("userId").where("userId", "=", userId).executeTakeFirst()),

    /** Restores a crash interrupted (found at start-up). */
    interruptedRestores: () => db.selectFrom("knowledgeRestores").selectAll().execute(),
  };
}

export type BackupRepo = ReturnType<typeof createBackupRepo>;
