import type { Memory } from "@sage/contracts/memories";
import type { Store } from "../../store/open-store.ts";

const COLUMNS = ["id", "content", "source", "conversationId", "createdAt", "updatedAt"] as const;

type MemoryRow = { id: number; content: string; source: "user" | "assistant"; conversationId: number | null; createdAt: string; updatedAt: string };

/** The API's shape: conversationId only when the memory came from a conversation that still exists. */
export function toMemory(row: MemoryRow): Memory {
  const { conversationId, ...rest } = row;
  return conversationId === null ? rest : { ...rest, conversationId };
}

export function createMemoryRepo(store: Pick<Store, "db" | "prepare">) {
  const { db } = store;
  const countRows = store.prepare<{ n: number }>((argument) =>
    db.selectFrom("memories").select((eb) => eb.fn.countAll<number>().as("n")).where("userId", "=", argument<number>(0)),
  );
  const exportPage = store.prepare<Pick<MemoryRow, "id" | "content" | "source" | "createdAt" | "updatedAt">>((argument) =>
    db
      .selectFrom("memories")
      .select(["id", "content", "source", "createdAt", "updatedAt"])
      .where("userId", "=", argument<number>(0))
      .where("id", ">", argument<number>(1))
      .orderBy("id")
      .limit(argument<number>(2)),
  );
  const deleteStep = store.prepare((argument) =>
    db
      .deleteFrom("memories")
      .where("userId", "=", argument<number>(0))
      .where("id", "in", (eb) => eb.selectFrom("memories").select("id").where("userId", "=", argument<number>(1)).limit(argument<number>(2))),
  );
  const insertRestored = store.prepare((argument) =>
    db.insertInto("memories").values({
      userId: argument<number>(0),
      content: argument<string>(1),
      source: argument<"user" | "assistant">(2),
      conversationId: null,
      createdAt: argument<string>(3),
      updatedAt: argument<string>(4),
    }),
  );
  return {
    list: async (userId: number) =>
      (await db.selectFrom("memories").select(COLUMNS).where("userId", "=", userId).orderBy("id").execute()).map(toMemory),

    count: async (userId: number) =>
      Number((await db.selectFrom("memories").select((eb) => eb.fn.countAll().as("n")).where("userId", "=", userId).executeTakeFirstOrThrow()).n),

    insert: async (memory: { userId: number; content: string; source: "user" | "assistant"; conversationId: number | null; createdAt: string }) =>
      toMemory(await db.insertInto("memories").values({ ...memory, updatedAt: memory.createdAt }).returning(COLUMNS).executeTakeFirstOrThrow()),

    update: async (userId: number, id: number, content: string, updatedAt: string) => {
      const row = await db.updateTable("memories").set({ content, updatedAt }).where("userId", "=", userId).where("id", "=", id).returning(COLUMNS).executeTakeFirst();
      return row && toMemory(row);
    },

    remove: async (userId: number, id: number) => {
      const result = await db.deleteFrom("memories").where("userId", "=", userId).where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    countSync: (userId: number) => (countRows.get(userId)?.n ?? 0),

    /** The user's memories after an id, in id order, as a backup carries them. */
    exportPageSync: (userId: number, afterId: number, size: number) => exportPage.all(userId, afterId, size),

    /** One step of emptying the user's memories (a restore's short transaction); answers how many went. */
    deleteStepSync: (userId: number, limit: number) => Number(deleteStep.run(userId, userId, limit).changes),

    /** Writes restored memories; conversation links are not carried across backups. */
    insertRestoredSync: (userId: number, memories: readonly Pick<Memory, "content" | "source" | "createdAt" | "updatedAt">[]) => {
      for (const memory of memories) insertRestored.run(userId, memory.content, memory.source, memory.createdAt, memory.updatedAt);
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
