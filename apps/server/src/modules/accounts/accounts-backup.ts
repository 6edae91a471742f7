import { z } from "zod";
import { OAUTH_PROVIDER_IDS } from "@sage/contracts/oauth";
import type { Kysely } from "kysely";
import type { Database } from "../../store/schema.ts";
import type { BackupPart } from "../backup/backup.module.ts";
import type { CalendarSettings } from "./calendar-settings.ts";
import type { MailSettings } from "./account-settings.ts";

/**
 * An account as a backup carries it: its settings in the clear (servers, user names, folders), never a password or
 * token, so it comes back "password needed" (decision 040), or "sign-in needed" when it signs in with a provider
 * (decision 070: the sign-in's grant is never in a backup). Its knowledge folder and each folder's UIDVALIDITY come
 * along, so the first sync after the password is entered goes on from the restored mail instead of fetching it all.
 */
const server = z.object({ host: z.string().min(1).max(255), port: z.number().int().min(1).max(65535), secure: z.boolean(), user: z.string().max(320) });
/** Settings as the accounts' code reads them: a backup's are checked whole, so a made-up one cannot break the list. */
const settingsOf = {
  mail: z.object({
    imap: server,
    smtp: server.nullable(),
    folders: z.array(z.string().min(1).max(1000)).min(1).max(100),
    sinceDays: z.number().int().positive(),
  }),
  calendar: z.union([
    z.object({ caldav: z.object({ url: z.url().max(2000), user: z.string().max(320) }), ics: z.null() }),
    z.object({ caldav: z.null(), ics: z.object({ host: z.string().min(1).max(255) }) }),
    // Microsoft's calendar over Graph, which came with a sign-in (decision 070).
    z.object({
      caldav: z.null(),
      ics: z.null(),
      graph: z.object({ url: z.url().max(2000), user: z.string().max(320) }),
      auth: z.object({ provider: z.enum(OAUTH_PROVIDER_IDS) }),
    }),
  ]),
  contacts: z.object({ carddav: z.object({ url: z.url().max(2000), user: z.string().max(320) }) }),
};
const parsesAs = (schema: z.ZodType, text: string) => {
  try {
    return schema.safeParse(JSON.parse(text)).success;
  } catch {
    return false;
  }
};

const accountRowSchema = z
  .object({
    id: z.number().int().positive(),
    kind: z.enum(["mail", "calendar", "contacts"]),
    name: z.string().min(1).max(200),
    settings: z.string().max(20_000),
    folder_item_id: z.number().int().positive().nullable(),
    folders: z.array(z.object({ folder: z.string().min(1).max(1000), uid_validity: z.string().min(1).max(40) })).max(1000),
    created_at: z.string().max(40),
  })
  .refine((row) => parsesAs(settingsOf[row.kind], row.settings), { message: "the account's settings are not an account's", path: ["settings"] });
type AccountBackupRow = z.infer<typeof accountRowSchema>;

/** A synced message's headers and the knowledge item holding its text. */
const messageRowSchema = z.object({
  id: z.number().int().positive(),
  account_id: z.number().int().positive(),
  folder: z.string().min(1).max(1000),
  uid: z.number().int().positive(),
  message_id: z.string().max(2000).nullable(),
  subject: z.string().max(5000),
  from_address: z.string().max(5000),
  to_address: z.string().max(20_000),
  date: z.string().max(40).nullable(),
  item_id: z.number().int().positive().nullable(),
});
type MessageBackupRow = z.infer<typeof messageRowSchema>;

/** Mail headers per INSERT: 10 parameters each, far under SQLite's 32,766 and PostgreSQL's 65,535. */
const INSERT_SLICE = 1_000;

/** What makes two accounts the same one: the server and user (mail, CalDAV), or the name (an ICS subscription, whose address is secret). */
function identity(kind: string, name: string, settingsText: string): string {
  const settings = JSON.parse(settingsText) as Partial<MailSettings & CalendarSettings>;
  if (kind === "mail" && settings.imap) return `mail:${settings.imap.host.toLowerCase()}:${settings.imap.port}:${settings.imap.user}`;
  if (kind === "calendar" && settings.caldav) return `caldav:${settings.caldav.url}:${settings.caldav.user}`;
  const carddav = (settings as { carddav?: { url: string; user: string } }).carddav;
  if (kind === "contacts" && carddav) return `carddav:${carddav.url}:${carddav.user}`;
  return `${kind}:${name}`;
}

/**
 * The user's accounts and synced mail headers in the knowledge backup: `accounts.jsonl` and `mail-messages.jsonl`.
 * A restore never deletes an account (its password is something the user saved): an account in the backup that the
 * user still has is kept with its password and takes the backup's mail; one they no longer have comes back
 * without a password. The restore has emptied the knowledge, so every account's mail record starts again from
 * the backup's (an account not in it fetches its mail afresh at its next sync).
 */
export function createAccountsBackup(db: Kysely<Database>): { accounts: BackupPart<AccountBackupRow>; messages: BackupPart<MessageBackupRow> } {
  /** Per user, during one restore: the backup's account ids -> the accounts they became. */
  const restored = new Map<number, Map<number, number>>();
  const countOf = async (table: "accounts" | "mailMessages", userId: number) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("userId", "=", userId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  const accounts: BackupPart<AccountBackupRow> = {
    name: "accounts",
    schema: accountRowSchema,
    count: (userId) => countOf("accounts", userId),
    async exportPage(userId, afterId, size) {
      const rows = await db
        .selectFrom("accounts")
        .select(["id", "kind", "name", "settings", "folderItemId", "createdAt"])
        .where("userId", "=", userId)
        .where("id", ">", afterId)
        .orderBy("id")
        .limit(size)
        .execute();
      const folders = rows.length
        ? await db
            .selectFrom("mailFolders")
            .select(["accountId", "folder", "uidValidity"])
            .where(
              "accountId",
              "in",
              rows.map((row) => row.id),
            )
            .orderBy("accountId")
            .orderBy("folder")
            .execute()
        : [];
      return rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        name: row.name,
        settings: row.settings,
        folder_item_id: row.folderItemId,
        folders: folders.filter((folder) => folder.accountId === row.id).map((folder) => ({ folder: folder.folder, uid_validity: folder.uidValidity })),
        created_at: row.createdAt,
      }));
    },
    // Nothing is deleted: accounts are matched or added (insert). Each account's folder states go, with the mail record.
    async emptyStep(userId) {
      restored.set(userId, new Map());
      await db
        .deleteFrom("mailFolders")
        .where("accountId", "in", (eb) => eb.selectFrom("accounts").select("id").where("userId", "=", userId))
        .execute();
      return 0;
    },
    // An account at a time (a user has a handful): a restore that fails part-way is undone from its snapshot.
    async insert(userId, rows, ids) {
      const existing = await db.selectFrom("accounts").select(["id", "kind", "name", "settings"]).where("userId", "=", userId).execute();
      const byIdentity = new Map(existing.map((row) => [identity(row.kind, row.name, row.settings), row.id]));
      const mapping = restored.get(userId) ?? new Map<number, number>();
      restored.set(userId, mapping);
      const now = new Date().toISOString();
      for (const row of rows) {
        const folderItemId = row.folder_item_id === null ? null : (ids.itemId(row.folder_item_id) ?? null);
        let id = byIdentity.get(identity(row.kind, row.name, row.settings));
        if (id === undefined) {
          id = (
            await db
              .insertInto("accounts")
              .values({
                userId,
                kind: row.kind,
                name: row.name,
                settings: row.settings,
                secrets: null,
                status: "password-needed",
                folderItemId,
                createdAt: row.created_at,
                updatedAt: now,
              })
              .returning("id")
              .executeTakeFirstOrThrow()
          ).id;
          byIdentity.set(identity(row.kind, row.name, row.settings), id);
        } else await db.updateTable("accounts").set({ folderItemId }).where("id", "=", id).execute();
        mapping.set(row.id, id);
        if (row.folders.length === 0) continue;
        await db
          .insertInto("mailFolders")
          .values(row.folders.map((folder) => ({ accountId: id, folder: folder.folder, uidValidity: folder.uid_validity })))
          .onConflict((conflict) => conflict.columns(["accountId", "folder"]).doUpdateSet((eb) => ({ uidValidity: eb.ref("excluded.uidValidity") })))
          .execute();
      }
    },
  };

  const messages: BackupPart<MessageBackupRow> = {
    name: "mail-messages",
    schema: messageRowSchema,
    count: (userId) => countOf("mailMessages", userId),
    exportPage: async (userId, afterId, size) =>
      (
        await db
          .selectFrom("mailMessages")
          .select(["id", "accountId", "folder", "uid", "messageId", "subject", "fromAddress", "toAddress", "date", "itemId"])
          .where("userId", "=", userId)
          .where("id", ">", afterId)
          .orderBy("id")
          .limit(size)
          .execute()
      ).map((row) => ({
        id: row.id,
        account_id: row.accountId,
        folder: row.folder,
        uid: row.uid,
        message_id: row.messageId,
        subject: row.subject,
        from_address: row.fromAddress,
        to_address: row.toAddress,
        date: row.date,
        item_id: row.itemId,
      })),
    emptyStep: async (userId, limit) =>
      Number(
        (
          await db
            .deleteFrom("mailMessages")
            .where("id", "in", (eb) => eb.selectFrom("mailMessages").select("id").where("userId", "=", userId).limit(limit))
            .executeTakeFirst()
        ).numDeletedRows,
      ),
    // The batch in one statement (so whole or not at all), a slice at a time under SQLite's parameter limit.
    async insert(userId, rows, ids) {
      const mapping = restored.get(userId);
      const values = rows.flatMap((row) => {
        const accountId = mapping?.get(row.account_id);
        if (accountId === undefined) return [];
        return [
          {
            accountId,
            userId,
            folder: row.folder,
            uid: row.uid,
            messageId: row.message_id,
            subject: row.subject,
            fromAddress: row.from_address,
            toAddress: row.to_address,
            date: row.date,
            itemId: row.item_id === null ? null : (ids.itemId(row.item_id) ?? null),
          },
        ];
      });
      for (let start = 0; start < values.length; start += INSERT_SLICE) {
        await db
          .insertInto("mailMessages")
          .values(values.slice(start, start + INSERT_SLICE))
          .onConflict((conflict) => conflict.doNothing())
          .execute();
      }
    },
  };
  return { accounts, messages };
}
