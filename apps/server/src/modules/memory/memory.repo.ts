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
  const deleteAll = store.prepare((argument) => db.deleteFrom("memories").where("userId", "=", argument<number>(0)));
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

    /** Replaces the user's memories, synchronously so a backup's restore can run it in its transaction; conversation links are not carried across. */
    replaceAllSync: (userId: number, memories: readonly Pick<Memory, "content" | "source" | "createdAt" | "updatedAt">[]) => {
      deleteAll.run(userId);
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
