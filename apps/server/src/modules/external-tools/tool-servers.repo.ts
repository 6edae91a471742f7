import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../store/schema.ts";

export interface RemoteServerRow {
  id: string;
  userId: number;
  name: string;
  url: string;
}

/** The remote servers users added, and each user's trust in any server's hints (SQL of this module only). */
export function createToolServersRepo(db: Kysely<Database>) {
  return {
    list: (userId: number): Promise<RemoteServerRow[]> =>
      db.selectFrom("mcpServers").select(["id", "userId", "name", "url"]).where("userId", "=", userId).orderBy("createdAt").orderBy("id").execute(),

    find: (userId: number, id: string): Promise<RemoteServerRow | undefined> =>
      db.selectFrom("mcpServers").select(["id", "userId", "name", "url"]).where("userId", "=", userId).where("id", "=", id).executeTakeFirst(),

    async add(userId: number, server: { name: string; url: string }): Promise<RemoteServerRow> {
      const row = { id: randomUUID(), userId, name: server.name, url: server.url };
      await db
        .insertInto("mcpServers")
        .values({ ...row, createdAt: new Date().toISOString() })
        .execute();
      return row;
    },

    /** Removes the server with the user's trust in it and their choices for its tools; false when there was none. */
    async remove(userId: number, id: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom("mcpServers").select("name").where("userId", "=", userId).where("id", "=", id).executeTakeFirst();
        if (!row) return false;
        await trx.deleteFrom("mcpServers").where("userId", "=", userId).where("id", "=", id).execute();
        await trx.deleteFrom("mcpServerSettings").where("userId", "=", userId).where("serverId", "=", id).execute();
        await trx.deleteFrom("externalToolSettings").where("userId", "=", userId).where("server", "=", row.name).execute();
        return true;
      });
    },

    /** The user's trust choices, by server id (absent: the server's default). */
    async trust(userId: number): Promise<Map<string, boolean>> {
      const rows = await db.selectFrom("mcpServerSettings").select(["serverId", "trusted"]).where("userId", "=", userId).execute();
      return new Map(rows.map((row) => [row.serverId, row.trusted === 1]));
    },

    /** The sign-in module's grant that holds the user's sign-in to a server (decision 080), if any. */
    grantOf: async (userId: number, serverId: string): Promise<number | undefined> =>
      (await db.selectFrom("mcpSignIns").select("grantId").where("userId", "=", userId).where("serverId", "=", serverId).executeTakeFirst())?.grantId,

    /** Links a new grant to the user's server; another request that linked one first wins, and its grant is answered. */
    async linkGrant(userId: number, serverId: string, grantId: number): Promise<number> {
      await db
        .insertInto("mcpSignIns")
        .values({ userId, serverId, grantId })
        .onConflict((conflict) => conflict.columns(["userId", "serverId"]).doNothing())
        .execute();
      return (await db.selectFrom("mcpSignIns").select("grantId").where("userId", "=", userId).where("serverId", "=", serverId).executeTakeFirstOrThrow())
        .grantId;
    },

    serverOfGrant: async (userId: number, grantId: number): Promise<string | undefined> =>
      (await db.selectFrom("mcpSignIns").select("serverId").where("userId", "=", userId).where("grantId", "=", grantId).executeTakeFirst())?.serverId,

    unlinkGrant: (userId: number, serverId: string) => db.deleteFrom("mcpSignIns").where("userId", "=", userId).where("serverId", "=", serverId).execute(),

    async saveTrust(userId: number, serverId: string, trusted: boolean) {
      const updatedAt = new Date().toISOString();
      await db
        .insertInto("mcpServerSettings")
        .values({ userId, serverId, trusted: trusted ? 1 : 0, updatedAt })
        .onConflict((conflict) => conflict.columns(["userId", "serverId"]).doUpdateSet({ trusted: trusted ? 1 : 0, updatedAt }))
        .execute();
    },
  };
}

export type ToolServersRepo = ReturnType<typeof createToolServersRepo>;
