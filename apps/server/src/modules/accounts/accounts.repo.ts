import { sql, type Kysely, type Selectable, type Updateable } from "kysely";
import type { AccountStatus } from "@sage/contracts/accounts";
import type { AccountsTable, Database } from "../../store/schema.ts";

/** A synced message as the repo hands it out: its row without the owner, which every query already filters on. */
export type MailMessageRow = Omit<Selectable<Database["mailMessages"]>, "userId">;

const MESSAGE_COLUMNS = ["id", "accountId", "folder", "uid", "messageId", "subject", "fromAddress", "toAddress", "date", "itemId", "threadReferences"] as const;

/** Filters of searchMail: a sender's name or address, and a date range (UTC ISO). */
export interface MailFilters {
  from?: string;
  since?: string;
  until?: string;
}

export function createAccountsRepo(db: Kysely<Database>) {
  const now = () => new Date().toISOString();
  return {
    list: (userId: number) => db.selectFrom("accounts").selectAll().where("userId", "=", userId).orderBy("id").execute(),

    find: (userId: number, id: number) => db.selectFrom("accounts").selectAll().where("userId", "=", userId).where("id", "=", id).executeTakeFirst(),

    /** Only for the sync job, which runs outside any request (its row carries the owner). */
    findById: (id: number) => db.selectFrom("accounts").selectAll().where("id", "=", id).executeTakeFirst(),

    insert: async (account: {
      userId: number;
      kind: "mail" | "calendar" | "contacts";
      name: string;
      settings: string;
      secrets: string | null;
      status: AccountStatus;
      grantId?: number | null;
    }) => {
      const timestamp = now();
      return (
        await db
          .insertInto("accounts")
          .values({ ...account, createdAt: timestamp, updatedAt: timestamp })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
    },

    update: (id: number, changes: Updateable<AccountsTable>) =>
      db
        .updateTable("accounts")
        .set({ ...changes, updatedAt: now() })
        .where("id", "=", id)
        .execute(),

    /** Answers the deleted row's knowledge folder (as it was at the moment of deletion). */
    remove: (userId: number, id: number) =>
      db.deleteFrom("accounts").where("userId", "=", userId).where("id", "=", id).returning("folderItemId").executeTakeFirst(),

    /** The user's accounts that sign in with this grant (a Google sign-in's mail and calendar). */
    withGrant: (grantId: number) => db.selectFrom("accounts").selectAll().where("grantId", "=", grantId).orderBy("id").execute(),

    /** Calendar and contacts accounts not touched since `before` (a sync's end touches it, as does a failure), of every user: the 15-minute round. */
    calendarsDue: (before: string) =>
      db
        .selectFrom("accounts")
        .selectAll()
        .where("kind", "in", ["calendar", "contacts"])
        .where("status", "in", ["ok", "error"])
        .where("updatedAt", "<", before)
        .execute(),

    /** Mail accounts of every user last touched before `before` (ok ones) or `errorBefore` (failed ones): the poll round. */
    mailDue: (before: string, errorBefore: string) =>
      db
        .selectFrom("accounts")
        .selectAll()
        .where("kind", "=", "mail")
        .where((eb) =>
          eb.or([eb.and([eb("status", "=", "ok"), eb("updatedAt", "<", before)]), eb.and([eb("status", "=", "error"), eb("updatedAt", "<", errorBefore)])]),
        )
        .execute(),

    messageCount: async (accountId: number) =>
      Number(
        (
          await db
            .selectFrom("mailMessages")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("accountId", "=", accountId)
            .executeTakeFirstOrThrow()
        ).n,
      ),

    /** Synced messages whose text is not searchable yet (still queued or being read): "Reading 12 messages". */
    readingCount: async (accountId: number) =>
      Number(
        (
          await db
            .selectFrom("mailMessages as mm")
            .innerJoin("knowledgeItems as ki", "ki.id", "mm.itemId")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("mm.accountId", "=", accountId)
            .where("ki.status", "in", ["queued", "processing"])
            .executeTakeFirstOrThrow()
        ).n,
      ),

    folderValidity: async (accountId: number, folder: string) =>
      (await db.selectFrom("mailFolders").select("uidValidity").where("accountId", "=", accountId).where("folder", "=", folder).executeTakeFirst())
        ?.uidValidity,

    setFolderValidity: (accountId: number, folder: string, uidValidity: string) =>
      db
        .insertInto("mailFolders")
        .values({ accountId, folder, uidValidity })
        .onConflict((conflict) => conflict.columns(["accountId", "folder"]).doUpdateSet({ uidValidity }))
        .execute(),

    removeFolderState: (accountId: number, folder: string) =>
      db.deleteFrom("mailFolders").where("accountId", "=", accountId).where("folder", "=", folder).execute(),

    /** Every synced message of the account, for a sync to compare with the server. */
    messagesOf: (accountId: number) => db.selectFrom("mailMessages").select(MESSAGE_COLUMNS).where("accountId", "=", accountId).execute(),

    insertMessages: async (messages: Array<Omit<MailMessageRow, "id"> & { userId: number }>) => {
      if (messages.length > 0) await db.insertInto("mailMessages").values(messages).execute();
    },

    /** Drops the account's record of synced messages and folders (their knowledge folder is gone). */
    forgetMessages: async (accountId: number) => {
      await db.deleteFrom("mailMessages").where("accountId", "=", accountId).execute();
      await db.deleteFrom("mailFolders").where("accountId", "=", accountId).execute();
    },

    removeMessage: (id: number) => db.deleteFrom("mailMessages").where("id", "=", id).execute(),

    message: (userId: number, id: number) =>
      db.selectFrom("mailMessages").select(MESSAGE_COLUMNS).where("userId", "=", userId).where("id", "=", id).executeTakeFirst(),

    /** The user's messages held in these knowledge items, matching the filters. */
    messagesOfItems(userId: number, itemIds: number[], filters: MailFilters) {
      if (itemIds.length === 0) return Promise.resolve([]);
      return filtered(userId, filters).where("itemId", "in", itemIds).execute();
    },

    /** The user's newest messages matching the filters. */
    recent: (userId: number, filters: MailFilters, limit: number) =>
      filtered(userId, filters).orderBy("date", "desc").orderBy("id", "desc").limit(limit).execute(),

    /** Messages of the account whose subject is the same once "Re:" and "Fwd:" are taken off, oldest first. */
    sameSubject: (accountId: number, subjects: string[], limit: number) =>
      db
        .selectFrom("mailMessages")
        .select(MESSAGE_COLUMNS)
        .where("accountId", "=", accountId)
        .where("subject", "in", subjects)
        .orderBy("date")
        .limit(limit)
        .execute(),
  };

  function filtered(userId: number, filters: MailFilters) {
    let query = db.selectFrom("mailMessages").select(MESSAGE_COLUMNS).where("userId", "=", userId);
    if (filters.from) {
      // Part of the sender, in any case, on both engines (instr is SQLite's own): the filter's own \ % _ taken literally.
      const pattern = `%${filters.from.replace(/[\\%_]/g, "\\$&")}%`;
      query = query.where(sql<boolean>`lower(from_address) LIKE lower(${pattern}) ESCAPE '\\'`);
    }
    if (filters.since) query = query.where("date", ">=", filters.since);
    if (filters.until) query = query.where("date", "<=", filters.until);
    return query;
  }
}

export type AccountsRepo = ReturnType<typeof createAccountsRepo>;
