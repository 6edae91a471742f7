import type { Kysely, Selectable, Updateable } from "kysely";
import type { Database, OAuthGrantsTable } from "../../store/schema.ts";

export type GrantRow = Selectable<OAuthGrantsTable>;
export type FlowRow = Selectable<Database["oauthFlows"]>;

/** The sign-in module's SQL: grants (tokens sealed) and the flows under way. */
export function createSignInRepo(db: Kysely<Database>) {
  const now = () => new Date().toISOString();
  return {
    insertGrant: async (userId: number, provider: string) => {
      const timestamp = now();
      return (
        await db
          .insertInto("oauthGrants")
          .values({
            userId,
            provider,
            tokens: null,
            client: null,
            subject: null,
            login: null,
            displayName: null,
            refreshLeaseUntilMs: null,
            createdAt: timestamp,
            updatedAt: timestamp,
          })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
    },

    grant: (id: number) => db.selectFrom("oauthGrants").selectAll().where("id", "=", id).executeTakeFirst(),

    grantsOf: (userId: number) => db.selectFrom("oauthGrants").selectAll().where("userId", "=", userId).orderBy("id").execute(),

    updateGrant: (id: number, changes: Updateable<OAuthGrantsTable>) =>
      db
        .updateTable("oauthGrants")
        .set({ ...changes, updatedAt: now() })
        .where("id", "=", id)
        .execute(),

    removeGrant: (id: number) => db.deleteFrom("oauthGrants").where("id", "=", id).execute(),

    /**
     * Takes the grant's refresh for this process until `untilMs`, unless another holds it: true when taken. One
     * statement, so two processes (PostgreSQL) or two requests never both refresh, which a server that rotates refresh
     * tokens would punish by ending the grant.
     */
    claimRefresh: async (id: number, nowMs: number, untilMs: number) =>
      Number(
        (
          await db
            .updateTable("oauthGrants")
            .set({ refreshLeaseUntilMs: untilMs })
            .where("id", "=", id)
            .where((eb) => eb.or([eb("refreshLeaseUntilMs", "is", null), eb("refreshLeaseUntilMs", "<", nowMs)]))
            .executeTakeFirst()
        ).numUpdatedRows,
      ) === 1,

    insertFlow: (flow: FlowRow) => db.insertInto("oauthFlows").values(flow).execute(),

    flow: (stateHash: string) => db.selectFrom("oauthFlows").selectAll().where("stateHash", "=", stateHash).executeTakeFirst(),

    /** Takes the flow out: true only for the one request that removed it (a state is used once). */
    consumeFlow: async (stateHash: string) =>
      Number((await db.deleteFrom("oauthFlows").where("stateHash", "=", stateHash).executeTakeFirst()).numDeletedRows) === 1,

    removeExpiredFlows: (nowMs: number) => db.deleteFrom("oauthFlows").where("expiresAtMs", "<", nowMs).execute(),
  };
}

export type SignInRepo = ReturnType<typeof createSignInRepo>;
