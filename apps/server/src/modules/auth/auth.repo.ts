import type { Kysely } from "kysely";
import type { Database } from "../../store/schema.ts";

export function createAuthRepo(db: Kysely<Database>) {
  return {
    findUserByUsername: (username: string) => db.selectFrom("users").selectAll().where("username", "=", username).executeTakeFirst(),

    findUserById: (id: number) => db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst(),

    insertUser: async (user: { id?: number; username: string; passwordHash: string }) => {
      const row = await db
        .insertInto("users")
        .values({ ...user, createdAt: new Date().toISOString() })
        .returning("id")
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** The account with its own id, unless one with that id exists (processes starting together both try). */
    insertUserIfAbsent: async (user: { id: number; username: string; passwordHash: string }) => {
      await db
        .insertInto("users")
        .values({ ...user, createdAt: new Date().toISOString() })
        .onConflict((conflict) => conflict.column("id").doNothing())
        .execute();
    },

    updatePasswordHash: (id: number, passwordHash: string) => db.updateTable("users").set({ passwordHash }).where("id", "=", id).execute(),

    insertSession: (session: { tokenHash: string; userId: number; expiresAtMs: number }) =>
      db
        .insertInto("sessions")
        .values({ ...session, createdAt: new Date().toISOString() })
        .execute(),

    findSessionUser: (tokenHash: string, nowMs: number) =>
      db
        .selectFrom("sessions")
        .innerJoin("users", "users.id", "sessions.userId")
        .select(["users.id", "users.username", "sessions.expiresAtMs"])
        .where("sessions.tokenHash", "=", tokenHash)
        .where("sessions.expiresAtMs", ">", nowMs)
        .executeTakeFirst(),

    extendSession: (tokenHash: string, expiresAtMs: number) => db.updateTable("sessions").set({ expiresAtMs }).where("tokenHash", "=", tokenHash).execute(),

    deleteSession: (tokenHash: string) => db.deleteFrom("sessions").where("tokenHash", "=", tokenHash).execute(),

    deleteExpiredSessions: (nowMs: number) => db.deleteFrom("sessions").where("expiresAtMs", "<=", nowMs).execute(),
  };
}

export type AuthRepo = ReturnType<typeof createAuthRepo>;
