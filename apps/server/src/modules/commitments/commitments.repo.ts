import type { Insertable, Kysely, Selectable } from "kysely";
import type { CommitmentDirection, CommitmentStatus } from "@sage/contracts/commitments";
import type { CommitmentsTable, Database } from "../../store/schema.ts";

export type CommitmentRow = Selectable<CommitmentsTable>;
export type NewCommitment = Insertable<CommitmentsTable>;

/** A knowledge item not read yet: its mail headers when it is a synced message (and the account's own login). */
export interface NewItemSource {
  id: number;
  type: "file" | "note";
  name: string;
  mimeType: string | null;
  createdAt: string;
  mailFolder: string | null;
  mailSubject: string | null;
  mailFrom: string | null;
  mailTo: string | null;
  mailDate: string | null;
  /** The synced message's id (searchMail's), when it is one. */
  mailMessageId: number | null;
  accountSettings: string | null;
}

/** A user's message in a conversation not read yet. */
export interface NewMessageSource {
  id: number;
  conversationId: number;
  conversationName: string;
  content: string;
  createdAt: string;
}

/**
 * The ledger's SQL. It writes only its own tables; it reads the items, mail headers and messages it finds
 * commitments in (never writing them), which a port per owner would only forward.
 */
export function createCommitmentsRepo(db: Kysely<Database>) {
  return {
    /** `keptOnly`: the user's own, leaving out what a stranger's mail said until the user keeps it (issue 47). */
    async list(userId: number, filter: { direction?: CommitmentDirection; status?: CommitmentStatus | "all"; dueBy?: string; keptOnly?: boolean }) {
      let query = db.selectFrom("commitments").selectAll().where("userId", "=", userId);
      if (filter.keptOnly) query = query.where("kept", "=", 1);
      if (filter.direction) query = query.where("direction", "=", filter.direction);
      if (filter.status && filter.status !== "all") query = query.where("status", "=", filter.status);
      if (filter.dueBy) query = query.where("dueDate", "is not", null).where("dueDate", "<=", filter.dueBy);
      // Dated first, soonest first; then undated, newest first.
      return query
        .orderBy((eb) => eb.fn("coalesce", [eb.ref("dueDate"), eb.val("9999-12-31")]), "asc")
        .orderBy("id", "desc")
        .execute();
    },

    get: (userId: number, id: number) => db.selectFrom("commitments").selectAll().where("userId", "=", userId).where("id", "=", id).executeTakeFirst(),

    async update(userId: number, id: number, change: Partial<Pick<CommitmentRow, "status" | "dueDate" | "reminderId" | "kept">>, at: string) {
      await db
        .updateTable("commitments")
        .set({ ...change, updatedAt: at })
        .where("userId", "=", userId)
        .where("id", "=", id)
        .execute();
    },

    async insert(row: NewCommitment) {
      await db.insertInto("commitments").values(row).execute();
    },

    /** Whether the user already has this sentence in the ledger (a reply that quotes the mail it answers). */
    async hasQuote(userId: number, quote: string) {
      return (await db.selectFrom("commitments").select("id").where("userId", "=", userId).where("quote", "=", quote).executeTakeFirst()) !== undefined;
    },

    /** Ready files and notes made since `since` that the ledger has not read, oldest first. */
    newItems(userId: number, since: string, limit: number): Promise<NewItemSource[]> {
      return db
        .selectFrom("knowledgeItems as ki")
        .leftJoin("commitmentScans as cs", (join) => join.onRef("cs.sourceId", "=", "ki.id").on("cs.sourceKind", "=", "item"))
        .leftJoin("mailMessages as mm", "mm.itemId", "ki.id")
        .leftJoin("accounts as a", "a.id", "mm.accountId")
        .leftJoin("conversations as c", "c.id", "ki.conversationId")
        .select([
          "ki.id",
          "ki.type",
          "ki.name",
          "ki.mimeType",
          "ki.createdAt",
          "mm.folder as mailFolder",
          "mm.subject as mailSubject",
          "mm.fromAddress as mailFrom",
          "mm.toAddress as mailTo",
          "mm.date as mailDate",
          "mm.id as mailMessageId",
          "a.settings as accountSettings",
        ])
        .where("ki.userId", "=", userId)
        .where("ki.type", "in", ["file", "note"])
        .where("ki.status", "=", "ready")
        .where("ki.createdAt", ">=", since)
        .where("cs.sourceId", "is", null)
        .where("c.deletedAt", "is", null)
        .orderBy("ki.id")
        .limit(limit)
        .execute() as Promise<NewItemSource[]>;
    },

    /** The user's own messages since `since` that the ledger has not read, oldest first. */
    newMessages(userId: number, since: string, limit: number): Promise<NewMessageSource[]> {
      return db
        .selectFrom("messages as m")
        .innerJoin("conversations as c", "c.id", "m.conversationId")
        .leftJoin("commitmentScans as cs", (join) => join.onRef("cs.sourceId", "=", "m.id").on("cs.sourceKind", "=", "message"))
        .select(["m.id", "m.conversationId", "c.name as conversationName", "m.content", "m.createdAt"])
        .where("c.userId", "=", userId)
        .where("c.deletedAt", "is", null)
        .where("m.role", "=", "user")
        .where("m.createdAt", ">=", since)
        .where("cs.sourceId", "is", null)
        .orderBy("m.id")
        .limit(limit)
        .execute();
    },

    async markScanned(userId: number, sourceKind: "item" | "message", sourceId: number, at: string) {
      await db
        .insertInto("commitmentScans")
        .values({ userId, sourceKind, sourceId, scannedAt: at })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },

    async lastScanAt(userId: number): Promise<string | null> {
      const row = await db
        .selectFrom("commitmentScans")
        .select((eb) => eb.fn.max("scannedAt").as("at"))
        .where("userId", "=", userId)
        .executeTakeFirst();
      return (row?.at as string | null | undefined) ?? null;
    },

    userIds: async () => (await db.selectFrom("users").select("id").execute()).map((row) => row.id),
  };
}

export type CommitmentsRepo = ReturnType<typeof createCommitmentsRepo>;
