import { looksLikeSecret, type Memory } from "@sage/contracts/memories";
import type { ContentSource } from "@sage/contracts/provenance";
import type { Kysely } from "kysely";
import type { Database } from "../../store/schema.ts";

const COLUMNS = ["id", "content", "source", "conversationId", "createdAt", "updatedAt", "flaggedSecret", "derivedFrom"] as const;

type MemoryRow = {
  id: number;
  content: string;
  source: "user" | "assistant";
  conversationId: number | null;
  createdAt: string;
  updatedAt: string;
  flaggedSecret: number;
  derivedFrom: string | null;
};

/** The API's shape: conversationId only when the memory came from a conversation that still exists; the flag only when set. */
export function toMemory(row: MemoryRow): Memory {
  const { conversationId, flaggedSecret, derivedFrom, ...rest } = row;
  return {
    ...rest,
    ...(conversationId === null ? {} : { conversationId }),
    ...(flaggedSecret ? { flaggedSecret: true as const } : {}),
    ...(derivedFrom ? { derivedFrom: JSON.parse(derivedFrom) as ContentSource } : {}),
  };
}

/** The user's memories and settings on either engine (Kysely; decision 058). */
export function createMemoryRepo(db: Kysely<Database>) {
  return {
    list: async (userId: number) => {
      const rows = await db.selectFrom("memories").select(COLUMNS).where("userId", "=", userId).orderBy("id").execute();
      // A deleted conversation (restorable for 30 days, decision 035) is no longer a place to link to.
      const deleted = new Set(
        (await db.selectFrom("conversations").select("id").where("userId", "=", userId).where("deletedAt", "is not", null).execute()).map((row) => row.id),
      );
      return rows.map((row) => toMemory(row.conversationId !== null && deleted.has(row.conversationId) ? { ...row, conversationId: null } : row));
    },

    count: async (userId: number) =>
      Number(
        (
          await db
            .selectFrom("memories")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("userId", "=", userId)
            .executeTakeFirstOrThrow()
        ).n,
      ),

    insert: async (memory: {
      userId: number;
      content: string;
      source: "user" | "assistant";
      conversationId: number | null;
      createdAt: string;
      derivedFrom?: string | null;
    }) =>
      toMemory(
        await db
          .insertInto("memories")
          .values({ ...memory, updatedAt: memory.createdAt })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow(),
      ),

    update: async (userId: number, id: number, content: string, updatedAt: string) =>
      db.transaction().execute(async (trx) => {
        // Edited words were checked for secrets before they got here, so an edit clears the start-up scan's flag.
        const row = await trx
          .updateTable("memories")
          .set({ content, updatedAt, flaggedSecret: 0 })
          .where("userId", "=", userId)
          .where("id", "=", id)
          .returning(COLUMNS)
          .executeTakeFirst();
        if (row) await trx.deleteFrom("memoryVectors").where("memoryId", "=", id).execute(); // its words changed
        return row && toMemory(row);
      }),

    /** The user's memory embeddings made with this embedder, by memory id. */
    vectors: async (userId: number, embedderId: string) => {
      const rows = await db
        .selectFrom("memoryVectors")
        .innerJoin("memories", "memories.id", "memoryVectors.memoryId")
        .select(["memoryVectors.memoryId", "memoryVectors.vector"])
        .where("memories.userId", "=", userId)
        .where("memoryVectors.embedderId", "=", embedderId)
        .execute();
      return new Map(rows.map((row) => [row.memoryId, new Float32Array(Uint8Array.from(row.vector).buffer)]));
    },

    /** Keeps embeddings of memories whose words are still those embedded (an edit meanwhile wins). */
    saveVectors: async (embedderId: string, entries: readonly { memoryId: number; content: string; vector: readonly number[] }[]) => {
      if (entries.length === 0) return;
      await db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom("memories")
          .select(["id", "content"])
          .where(
            "id",
            "in",
            entries.map((entry) => entry.memoryId),
          )
          .execute();
        const unchanged = new Map(current.map((row) => [row.id, row.content]));
        const rows = entries
          .filter((entry) => unchanged.get(entry.memoryId) === entry.content)
          .map(({ memoryId, vector }) => ({ memoryId, embedderId, vector: Buffer.from(Float32Array.from(vector).buffer) }));
        if (rows.length === 0) return;
        await trx
          .insertInto("memoryVectors")
          .values(rows)
          .onConflict((oc) => oc.column("memoryId").doUpdateSet((eb) => ({ embedderId: eb.ref("excluded.embedderId"), vector: eb.ref("excluded.vector") })))
          .execute();
      });
    },

    remove: async (userId: number, id: number) => {
      const result = await db.deleteFrom("memories").where("userId", "=", userId).where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Every user's memories after an id, a page at a time (the start-up scan for secrets). */
    scanPage: (afterId: number, size: number) =>
      db.selectFrom("memories").select(["id", "content", "flaggedSecret"]).where("id", ">", afterId).orderBy("id").limit(size).execute(),

    flagSecrets: async (ids: readonly number[]) => {
      if (ids.length > 0) await db.updateTable("memories").set({ flaggedSecret: 1 }).where("id", "in", ids).execute();
    },

    enabled: async (userId: number) => {
      const row = await db.selectFrom("memorySettings").select("enabled").where("userId", "=", userId).executeTakeFirst();
      return row ? row.enabled === 1 : true;
    },

    setEnabled: async (userId: number, enabled: boolean) => {
      await db
        .insertInto("memorySettings")
        .values({ userId, enabled: enabled ? 1 : 0 })
        .onConflict((oc) => oc.column("userId").doUpdateSet({ enabled: enabled ? 1 : 0 }))
        .execute();
    },
  };
}

export type MemoryRepo = ReturnType<typeof createMemoryRepo>;

/**
 * The user's memories as a backup reads and writes them, on either engine: each write is one statement, so a
 * restore's batch is written whole or not at all without a transaction of its own.
 */
export function createMemoryBackupRows(db: Kysely<Database>) {
  return {
    count: async (userId: number) =>
      Number(
        (
          await db
            .selectFrom("memories")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("userId", "=", userId)
            .executeTakeFirstOrThrow()
        ).n,
      ),

    /**
     * The user's memories after an id, in id order, as a backup carries them. One kept from a mail or a document
     * carries its source's words (issue 47), not its ids: those are the exporting store's.
     */
    exportPage: async (userId: number, afterId: number, size: number) =>
      (
        await db
          .selectFrom("memories")
          .select(["id", "content", "source", "createdAt", "updatedAt", "derivedFrom"])
          .where("userId", "=", userId)
          .where("id", ">", afterId)
          .orderBy("id")
          .limit(size)
          .execute()
      ).map(({ derivedFrom, ...row }) => (derivedFrom ? { ...row, derivedFrom: { title: (JSON.parse(derivedFrom) as ContentSource).title } } : row)),

    /** One step of emptying the user's memories (one statement); answers how many went. */
    deleteStep: async (userId: number, limit: number) =>
      Number(
        (
          await db
            .deleteFrom("memories")
            .where("userId", "=", userId)
            .where("id", "in", (eb) => eb.selectFrom("memories").select("id").where("userId", "=", userId).limit(limit))
            .executeTakeFirst()
        ).numDeletedRows,
      ),

    /**
     * Writes restored memories in one statement; conversation links are not carried across backups. A backup from
     * before SAGE refused secrets may carry one: it is kept, flagged, as the start-up scan would.
     */
    async insertRestored(
      userId: number,
      memories: readonly (Pick<Memory, "content" | "source" | "createdAt" | "updatedAt"> & { derivedFrom?: ContentSource })[],
    ) {
      if (memories.length === 0) return;
      await db
        .insertInto("memories")
        .values(
          memories.map((memory) => ({
            userId,
            content: memory.content,
            source: memory.source,
            conversationId: null,
            createdAt: memory.createdAt,
            updatedAt: memory.updatedAt,
            flaggedSecret: looksLikeSecret(memory.content) ? 1 : 0,
            derivedFrom: memory.derivedFrom ? JSON.stringify({ title: memory.derivedFrom.title }) : null,
          })),
        )
        .execute();
    },
  };
}
