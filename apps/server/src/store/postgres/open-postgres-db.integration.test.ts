import { POSTGRES_MISSING, postgresInstalled, startPostgres, type PostgresServer } from "@sage/testkit/postgres-server";
import { sql, type Generated } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresDb, type PostgresDb } from "./open-postgres-db.ts";

const installed = postgresInstalled();
if (!installed) console.warn(POSTGRES_MISSING);

const at = "2026-11-28T09:00:00.000Z";
/** PostgreSQL's SQLSTATE for a rejected row, as pg reports it. */
const rejectedWith = (code: string) => expect.objectContaining({ code });

describe.skipIf(!installed)("the store on PostgreSQL, through Kysely as the modules use it", () => {
  let server: PostgresServer;
  let store: PostgresDb;
  beforeAll(async () => {
    server = await startPostgres();
    store = await openPostgresDb({ url: server.url });
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  const addUser = async (username: string) =>
    (await store.db.insertInto("users").values({ username, passwordHash: "hash", createdAt: at }).returning("id").executeTakeFirstOrThrow()).id;

  it("keeps id 3 for the demonstration account and finds a user whatever the case typed, once only", async () => {
    const id = await addUser("anna");
    expect(id).toBe(4);
    const found = await store.db.selectFrom("users").selectAll().where("username", "=", "ANNA").executeTakeFirst();
    expect(found).toMatchObject({ id: 4, username: "anna", passwordHash: "hash", createdAt: at });
    await expect(addUser("Anna")).rejects.toEqual(rejectedWith("23505"));
    await expect(store.db.insertInto("users").values({ id: 3, username: "demo", passwordHash: "hash", createdAt: at }).execute()).resolves.toBeDefined();
  });

  it("deletes a conversation's messages with it, and answers ids and counts as numbers", async () => {
    const userId = await addUser("berit");
    const conversation = await store.db
      .insertInto("conversations")
      .values({ userId, name: "Trip", createdAt: at, updatedAt: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    const first = await store.db
      .insertInto("messages")
      .values({ conversationId: conversation.id, role: "user", content: "Where to?", createdAt: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    await store.db
      .insertInto("messages")
      .values({ conversationId: conversation.id, role: "model", content: "Lisbon.", createdAt: at, parentId: first.id })
      .execute();
    const count = () =>
      store.db
        .selectFrom("messages")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("conversationId", "=", conversation.id)
        .executeTakeFirstOrThrow();
    expect(await count()).toEqual({ n: 2 });
    expect(typeof first.id).toBe("number");
    await expect(
      store.db
        .insertInto("messages")
        .values({
          conversationId: conversation.id,
          role: "system" as "user", // past the types, to the CHECK
          content: "?",
          createdAt: at,
        })
        .execute(),
    ).rejects.toEqual(rejectedWith("23514"));
    await store.db.deleteFrom("conversations").where("id", "=", conversation.id).execute();
    expect(await count()).toEqual({ n: 0 });
  });

  it("records the stored file of every deleted item, also when a folder's deletion takes it, once per key", async () => {
    const userId = await addUser("carl");
    const item = (values: { name: string; type: "file" | "folder"; parentId?: number; storageKey?: string }) =>
      store.db
        .insertInto("knowledgeItems")
        .values({ userId, createdAt: at, updatedAt: at, ...values })
        .returning("id")
        .executeTakeFirstOrThrow()
        .then((row) => row.id);
    const folder = await item({ name: "Taxes", type: "folder" });
    await item({ name: "2025.pdf", type: "file", parentId: folder, storageKey: "ab/2025.pdf" });
    await item({ name: "2024.pdf", type: "file", parentId: folder, storageKey: "ab/shared.pdf" });
    const loose = await item({ name: "copy.pdf", type: "file", storageKey: "ab/shared.pdf" });
    await store.db.deleteFrom("knowledgeItems").where("id", "=", loose).execute();
    await store.db.deleteFrom("knowledgeItems").where("id", "=", folder).execute();
    const keys = await store.db.selectFrom("blobDeletions").select("storageKey").orderBy("storageKey").execute();
    expect(keys.map((row) => row.storageKey)).toEqual(["ab/2025.pdf", "ab/shared.pdf"]);
    expect(await store.db.selectFrom("knowledgeItems").select("id").where("userId", "=", userId).execute()).toEqual([]);
  });

  it("queues a chunk for the lexical index only while its user has no lexical table", async () => {
    const userId = await addUser("dora");
    const itemId = (
      await store.db
        .insertInto("knowledgeItems")
        .values({ userId, name: "n", type: "note", createdAt: at, updatedAt: at })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    // The search index writes chunks and reads the lexical tables raw, so schema.ts has no types for them.
    const index = store.db.withTables<{
      chunks: { id: Generated<number>; itemId: number; userId: number; position: number; content: string; createdAt: string };
      lexicalUsers: { userId: number };
      lexicalPending: { chunkId: number; userId: number };
    }>();
    const chunk = (position: number) =>
      index
        .insertInto("chunks")
        .values({ itemId, userId, position, content: `part ${position}`, createdAt: at })
        .returning("id")
        .executeTakeFirstOrThrow()
        .then((row) => row.id);
    const before = await chunk(0);
    await index.insertInto("lexicalUsers").values({ userId }).execute();
    await chunk(1);
    const pending = await index.selectFrom("lexicalPending").selectAll().where("userId", "=", userId).execute();
    expect(pending).toEqual([{ chunkId: before, userId }]);
  });
  it("goes on answering after the database ends its idle connections, saying so instead of ending the process", async () => {
    const lost: string[] = [];
    const other = await openPostgresDb({ url: server.url, onConnectionLost: (error) => lost.push((error as Error & { code?: string }).code ?? "") });
    try {
      await sql`SELECT 1`.execute(other.db);
      // As a database restart or an administrator does: every other session of this database is ended.
      await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`.execute(store.db);
      const deadline = Date.now() + 5_000;
      while (lost.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(lost).toContain("57P01");
      const users = await other.db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      expect(typeof users.n).toBe("number");
    } finally {
      await other.close();
    }
  });
});
