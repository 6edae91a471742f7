import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { Database, MailTriageTable, TriageSettingsTable } from "../../store/schema.ts";
import type { Header } from "./mail-threads.ts";

export type TriageRow = Selectable<MailTriageTable>;
export type SettingsRow = Selectable<TriageSettingsTable>;

/** A synced message with what triage reads of it. */
export interface MailRow extends Header {
  accountId: number;
  itemId: number | null;
}

const MAIL_COLUMNS = [
  "m.id",
  "m.accountId",
  "m.folder",
  "m.subject",
  "m.fromAddress",
  "m.toAddress",
  "m.date",
  "m.messageId",
  "m.threadReferences",
  "m.itemId",
] as const;

/** The triage tables (written only here), and read-only looks at the synced mail headers. */
export function createTriageRepo(db: Kysely<Database>) {
  const now = () => new Date().toISOString();
  return {
    settings: (userId: number) => db.selectFrom("triageSettings").selectAll().where("userId", "=", userId).executeTakeFirst(),

    saveSettings: (userId: number, changes: Updateable<TriageSettingsTable>) =>
      db
        .insertInto("triageSettings")
        // A user's first setting keeps sorting on (the table's default predates decision 095's amendment).
        .values({ userId, enabled: 1, ...changes, updatedAt: now() })
        .onConflict((conflict) => conflict.column("userId").doUpdateSet({ ...changes, updatedAt: now() }))
        .execute(),

    /** Users whose sorting is on (a user with no settings row is too: sorting is on by default). */
    enabledUsers: async () => (await db.selectFrom("triageSettings").select("userId").where("enabled", "=", 1).execute()).map((row) => row.userId),

    /** Synced mail still being read (its .eml queued or in progress): who sent it, from which folder. */
    reading: (userId: number, limit: number) =>
      db
        .selectFrom("mailMessages as m")
        .innerJoin("knowledgeItems as k", "k.id", "m.itemId")
        .select(["m.folder", "m.fromAddress"])
        .where("m.userId", "=", userId)
        .where("k.status", "in", ["queued", "processing"])
        .limit(limit)
        .execute(),

    /**
     * Synced mail not yet sorted, oldest first: in these folders (received), or any folder (to tell sent mail apart).
     * Mail whose text is still being read waits for a later round: it is sorted on its words, not its headers alone.
     */
    unsorted: (userId: number, limit: number): Promise<MailRow[]> =>
      db
        .selectFrom("mailMessages as m")
        .leftJoin("mailTriage as t", "t.messageId", "m.id")
        .leftJoin("knowledgeItems as k", "k.id", "m.itemId")
        .select(MAIL_COLUMNS)
        .where("m.userId", "=", userId)
        .where("t.messageId", "is", null)
        .where((eb) => eb.or([eb("k.status", "is", null), eb("k.status", "not in", ["queued", "processing"])]))
        .orderBy("m.id")
        .limit(limit)
        .execute(),

    /** A batch's labels in one statement. */
    insertMany: async (rows: Insertable<MailTriageTable>[]) => {
      if (rows.length === 0) return;
      await db
        .insertInto("mailTriage")
        .values(rows)
        .onConflict((conflict) => conflict.column("messageId").doNothing())
        .execute();
    },

    /** Received mail sorted and not yet labelled on the mail server, with where it is there. */
    unlabelled: (userId: number, limit: number) =>
      db
        .selectFrom("mailTriage as t")
        .innerJoin("mailMessages as m", "m.id", "t.messageId")
        .select(["t.messageId", "t.label", "t.urgent", "m.accountId", "m.folder", "m.uid"])
        .where("t.userId", "=", userId)
        .where("t.direction", "=", "received")
        .where("t.inMailbox", "=", 0)
        .orderBy("t.messageId")
        .limit(limit)
        .execute(),

    markInMailbox: async (userId: number, messageIds: number[]) => {
      await db.updateTable("mailTriage").set({ inMailbox: 1 }).where("userId", "=", userId).where("messageId", "in", messageIds).execute();
    },

    update: (userId: number, messageId: number, changes: Updateable<MailTriageTable>) =>
      db.updateTable("mailTriage").set(changes).where("userId", "=", userId).where("messageId", "=", messageId).execute(),

    /** Sorted mail with its headers, oldest first. */
    listed: (userId: number, direction: "received" | "sent", label?: string) => {
      let query = db
        .selectFrom("mailTriage as t")
        .innerJoin("mailMessages as m", "m.id", "t.messageId")
        .selectAll("t")
        .select(["m.accountId", "m.folder", "m.subject", "m.fromAddress", "m.toAddress", "m.date", "m.messageId as headerId", "m.threadReferences", "m.itemId"])
        .where("t.userId", "=", userId)
        .where("t.direction", "=", direction);
      if (label) query = query.where("t.label", "=", label as TriageRow["label"]);
      return query.orderBy("m.date").orderBy("t.messageId").execute();
    },

    one: (userId: number, messageId: number) =>
      db
        .selectFrom("mailTriage as t")
        .innerJoin("mailMessages as m", "m.id", "t.messageId")
        .selectAll("t")
        .select(["m.accountId", "m.folder", "m.subject", "m.fromAddress", "m.toAddress", "m.date", "m.itemId"])
        .where("t.userId", "=", userId)
        .where("t.messageId", "=", messageId)
        .executeTakeFirst(),

    /** Headers of the user's mail since a date (threads are followed in them: who answered whom). */
    headersSince: (userId: number, since: string): Promise<MailRow[]> =>
      db.selectFrom("mailMessages as m").select(MAIL_COLUMNS).where("m.userId", "=", userId).where("m.date", ">=", since).execute(),

    /** The user's most recent sent mail (their style is learned from it). */
    sentMail: (userId: number, limit: number) =>
      db
        .selectFrom("mailMessages as m")
        .innerJoin("mailTriage as t", "t.messageId", "m.id")
        .select(["m.id", "m.toAddress", "m.itemId", "m.folder"])
        .where("m.userId", "=", userId)
        .where("t.direction", "=", "sent")
        .orderBy("m.date", "desc")
        .limit(limit)
        .execute(),
  };
}

export type TriageRepo = ReturnType<typeof createTriageRepo>;
