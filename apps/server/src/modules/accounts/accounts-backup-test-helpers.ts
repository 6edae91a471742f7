import { describe, expect, it } from "vitest";
import { testDatabasesOf, type OpenTestDatabase } from "../../test/test-databases.ts";
import { createAccountsBackup } from "./accounts-backup.ts";

const ME = 1;
const OTHER = 2;
const AT = "2026-11-28T09:00:00.000Z";
const mailSettings = (host: string) =>
  JSON.stringify({ imap: { host, port: 993, secure: true, user: "anna@example.com" }, smtp: null, folders: ["INBOX"], sinceDays: 30 });

/** Mail accounts and their synced headers in a backup, the same on each engine: accounts-backup.test.ts, its PostgreSQL twin. */
export function accountsBackupCases(engine: string, open: OpenTestDatabase) {
  describe(`accounts in a backup (${engine})`, () => {
    const databases = testDatabasesOf(open);

    it("reads accounts with their folders and headers out, and writes them back onto matched or new accounts", async () => {
      const db = await databases.withUsers(ME, OTHER);
      const { accounts, messages } = createAccountsBackup(db);
      const account = async (userId: number, host: string, secrets: string | null) =>
        (
          await db
            .insertInto("accounts")
            .values({ userId, kind: "mail", name: host, settings: mailSettings(host), secrets, status: "ok", folderItemId: null, createdAt: AT, updatedAt: AT })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id;
      const kept = await account(ME, "imap.kept.example", "sealed-password");
      const gone = await account(ME, "imap.gone.example", "sealed-password");
      await account(OTHER, "imap.other.example", "theirs");
      const item = (
        await db
          .insertInto("knowledgeItems")
          .values({ userId: ME, type: "file", name: "Lease.eml", createdAt: AT, updatedAt: AT })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
      await db
        .insertInto("mailFolders")
        .values([
          { accountId: kept, folder: "INBOX", uidValidity: "11" },
          { accountId: kept, folder: "Archive", uidValidity: "12" },
          { accountId: gone, folder: "INBOX", uidValidity: "21" },
        ])
        .execute();
      const header = {
        userId: ME,
        folder: "INBOX",
        messageId: "<a@example.com>",
        subject: "Harbour lease",
        fromAddress: "anna@example.com",
        toAddress: "me",
        date: AT,
      };
      await db
        .insertInto("mailMessages")
        .values([
          { ...header, accountId: kept, uid: 1, itemId: item },
          { ...header, accountId: kept, uid: 2, itemId: null, subject: "Museum gala" },
          { ...header, accountId: gone, uid: 1, itemId: null },
        ])
        .execute();

      expect(await accounts.count(ME)).toBe(2);
      expect(await messages.count(ME)).toBe(3);
      const exportedAccounts = await accounts.exportPage(ME, 0, 10);
      expect(exportedAccounts.map((row) => [row.name, row.folders.map((folder) => `${folder.folder}:${folder.uid_validity}`)])).toEqual([
        ["imap.kept.example", ["Archive:12", "INBOX:11"]],
        ["imap.gone.example", ["INBOX:21"]],
      ]);
      expect(JSON.stringify(exportedAccounts)).not.toContain("sealed-password");
      const firstPage = await messages.exportPage(ME, 0, 2);
      const exportedMessages = [...firstPage, ...(await messages.exportPage(ME, firstPage[1]!.id, 2))];
      expect(exportedMessages.map((row) => [row.subject, row.uid, row.item_id])).toEqual([
        ["Harbour lease", 1, item],
        ["Museum gala", 2, null],
        ["Harbour lease", 1, null],
      ]);

      // The restore empties the mail record and the folder states, and never deletes an account.
      while ((await messages.emptyStep(ME, 2)) > 0);
      expect(await accounts.emptyStep(ME, 200)).toBe(0);
      await db.deleteFrom("accounts").where("id", "=", gone).execute();
      expect(await messages.count(ME)).toBe(0);
      expect(await db.selectFrom("mailFolders").selectAll().execute()).toEqual([]);
      expect(await messages.count(OTHER)).toBe(0);

      const restoredItem = item + 100;
      await db.insertInto("knowledgeItems").values({ id: restoredItem, userId: ME, type: "file", name: "Lease.eml", createdAt: AT, updatedAt: AT }).execute();
      const itemIds = { itemId: (backupId: number) => (backupId === item ? restoredItem : undefined) };
      await accounts.insert(ME, exportedAccounts, itemIds);
      await messages.insert(ME, exportedMessages, itemIds);
      await messages.insert(ME, exportedMessages, itemIds); // the same headers again change nothing

      const mine = await db.selectFrom("accounts").select(["id", "name", "secrets", "status"]).where("userId", "=", ME).orderBy("id").execute();
      expect(mine.map((row) => [row.name, row.secrets, row.status])).toEqual([
        ["imap.kept.example", "sealed-password", "ok"],
        ["imap.gone.example", null, "password-needed"],
      ]);
      const back = await messages.exportPage(ME, 0, 10);
      expect(back.map((row) => [row.subject, row.account_id, row.item_id])).toEqual([
        ["Harbour lease", kept, restoredItem],
        ["Museum gala", kept, null],
        ["Harbour lease", mine[1]!.id, null],
      ]);
      expect((await accounts.exportPage(ME, 0, 10)).map((row) => row.folders.length)).toEqual([2, 1]);
      expect(await accounts.count(OTHER)).toBe(1);
    });
  });
}
