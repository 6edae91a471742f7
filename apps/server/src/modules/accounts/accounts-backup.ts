import { z } from "zod";
import type { Store } from "../../store/open-store.ts";
import type { BackupPart } from "../backup/backup.module.ts";
import type { CalendarSettings } from "./calendar-settings.ts";
import type { MailSettings } from "./account-settings.ts";

/**
 * An account as a backup carries it: its settings in the clear (servers, user names, folders), never a password or
 * token, so it comes back "password needed" (decision 040). Its knowledge folder and each folder's UIDVALIDITY come
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
  ]),
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
    kind: z.enum(["mail", "calendar"]),
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

/** What makes two accounts the same one: the server and user (mail, CalDAV), or the name (an ICS subscription, whose address is secret). */
function identity(kind: string, name: string, settingsText: string): string {
  const settings = JSON.parse(settingsText) as Partial<MailSettings & CalendarSettings>;
  if (kind === "mail" && settings.imap) return `mail:${settings.imap.host.toLowerCase()}:${settings.imap.port}:${settings.imap.user}`;
  if (kind === "calendar" && settings.caldav) return `caldav:${settings.caldav.url}:${settings.caldav.user}`;
  return `${kind}:${name}`;
}

/**
 * The user's accounts and synced mail headers in the knowledge backup: `accounts.jsonl` and `mail-messages.jsonl`.
 * A restore never deletes an account (its password is something the user saved): an account in the backup that the
 * user still has is kept with its password and takes the backup's mail; one they no longer have comes back
 * without a password. The restore has emptied the knowledge, so every account's mail record starts again from
 * the backup's (an account not in it fetches its mail afresh at its next sync).
 */
export function createAccountsBackup(store: Pick<Store, "db" | "prepare">): { accounts: BackupPart<AccountBackupRow>; messages: BackupPart<MessageBackupRow> } {
  const { db } = store;
  /** Per user, during one restore: the backup's account ids -> the accounts they became. */
  const restored = new Map<number, Map<number, number>>();

  const countAccounts = store.prepare((argument) =>
    db
      .selectFrom("accounts")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("userId", "=", argument<number>(0)),
  );
  const accountPage = store.prepare((argument) =>
    db
      .selectFrom("accounts")
      .select(["id", "kind", "name", "settings", "folderItemId", "createdAt"])
      .where("userId", "=", argument<number>(0))
      .where("id", ">", argument<number>(1))
      .orderBy("id")
      .limit(argument<number>(2)),
  );
  const foldersOf = store.prepare((argument) => db.selectFrom("mailFolders").select(["folder", "uidValidity"]).where("accountId", "=", argument<number>(0)));
  const accountsOf = store.prepare((argument) =>
    db.selectFrom("accounts").select(["id", "kind", "name", "settings"]).where("userId", "=", argument<number>(0)),
  );
  const insertAccount = store.prepare((argument) =>
    db
      .insertInto("accounts")
      .values({
        userId: argument<number>(0),
        kind: argument<"mail" | "calendar">(1),
        name: argument<string>(2),
        settings: argument<string>(3),
        secrets: null,
        status: "password-needed",
        folderItemId: argument<number | null>(4),
        createdAt: argument<string>(5),
        updatedAt: argument<string>(6),
      })
      .returning("id"),
  );
  const setFolder = store.prepare((argument) =>
    db
      .updateTable("accounts")
      .set({ folderItemId: argument<number | null>(0) })
      .where("id", "=", argument<number>(1)),
  );
  const insertFolder = store.prepare((argument) =>
    db
      .insertInto("mailFolders")
      .values({ accountId: argument<number>(0), folder: argument<string>(1), uidValidity: argument<string>(2) })
      .onConflict((conflict) => conflict.columns(["accountId", "folder"]).doUpdateSet({ uidValidity: argument<string>(2) })),
  );
  const deleteFolders = store.prepare((argument) =>
    db.deleteFrom("mailFolders").where("accountId", "in", (eb) => eb.selectFrom("accounts").select("id").where("userId", "=", argument<number>(0))),
  );

  const countMessages = store.prepare((argument) =>
    db
      .selectFrom("mailMessages")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("userId", "=", argument<number>(0)),
  );
  const messagePage = store.prepare((argument) =>
    db
      .selectFrom("mailMessages")
      .select(["id", "accountId", "folder", "uid", "messageId", "subject", "fromAddress", "toAddress", "date", "itemId"])
      .where("userId", "=", argument<number>(0))
      .where("id", ">", argument<number>(1))
      .orderBy("id")
      .limit(argument<number>(2)),
  );
  const deleteMessages = store.prepare((argument) =>
    db
      .deleteFrom("mailMessages")
      .where("id", "in", (eb) => eb.selectFrom("mailMessages").select("id").where("userId", "=", argument<number>(0)).limit(argument<number>(1))),
  );
  const insertMessage = store.prepare((argument) =>
    db
      .insertInto("mailMessages")
      .values({
        accountId: argument<number>(0),
        userId: argument<number>(1),
        folder: argument<string>(2),
        uid: argument<number>(3),
        messageId: argument<string | null>(4),
        subject: argument<string>(5),
        fromAddress: argument<string>(6),
        toAddress: argument<string>(7),
        date: argument<string | null>(8),
        itemId: argument<number | null>(9),
      })
      .onConflict((conflict) => conflict.doNothing()),
  );

  const accounts: BackupPart<AccountBackupRow> = {
    name: "accounts",
    schema: accountRowSchema,
    count: (userId) => Number(countAccounts.get(userId)?.n ?? 0),
    exportPage: (userId, afterId, size) =>
      accountPage.all(userId, afterId, size).map((row) => ({
        id: row.id,
        kind: row.kind,
        name: row.name,
        settings: row.settings,
        folder_item_id: row.folderItemId,
        folders: foldersOf.all(row.id).map((folder) => ({ folder: folder.folder, uid_validity: folder.uidValidity })),
        created_at: row.createdAt,
      })),
    // Nothing is deleted: accounts are matched or added (insertSync). Each account's folder states go, with the mail record.
    emptyStepSync(userId) {
      restored.set(userId, new Map());
      deleteFolders.run(userId);
      return 0;
    },
    insertSync(userId, rows, ids) {
      const byIdentity = new Map(accountsOf.all(userId).map((row) => [identity(row.kind, row.name, row.settings), row.id]));
      const mapping = restored.get(userId) ?? new Map<number, number>();
      restored.set(userId, mapping);
      const now = new Date().toISOString();
      for (const row of rows) {
        const folderItemId = row.folder_item_id === null ? null : (ids.itemId(row.folder_item_id) ?? null);
        let id = byIdentity.get(identity(row.kind, row.name, row.settings));
        if (id === undefined) {
          id = insertAccount.get(userId, row.kind, row.name, row.settings, folderItemId, row.created_at, now)!.id;
          byIdentity.set(identity(row.kind, row.name, row.settings), id);
        } else setFolder.run(folderItemId, id);
        mapping.set(row.id, id);
        for (const folder of row.folders) insertFolder.run(id, folder.folder, folder.uid_validity);
      }
    },
  };

  const messages: BackupPart<MessageBackupRow> = {
    name: "mail-messages",
    schema: messageRowSchema,
    count: (userId) => Number(countMessages.get(userId)?.n ?? 0),
    exportPage: (userId, afterId, size) =>
      messagePage.all(userId, afterId, size).map((row) => ({
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
    emptyStepSync: (userId, limit) => Number(deleteMessages.run(userId, limit).changes),
    insertSync(userId, rows, ids) {
      const mapping = restored.get(userId);
      for (const row of rows) {
        const accountId = mapping?.get(row.account_id);
        if (accountId === undefined) continue;
        const itemId = row.item_id === null ? null : (ids.itemId(row.item_id) ?? null);
        insertMessage.run(accountId, userId, row.folder, row.uid, row.message_id, row.subject, row.from_address, row.to_address, row.date, itemId);
      }
    },
  };
  return { accounts, messages };
}
