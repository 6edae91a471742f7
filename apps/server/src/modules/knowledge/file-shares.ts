import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { SHARE_DEFAULT_DAYS, type FileShare } from "@sage/contracts/shares";
import type { Database } from "../../store/schema.ts";
import { deletedConversations } from "./knowledge-listing.ts";

const DAY_MS = 86_400_000;
const hash = (token: string) => createHash("sha256").update(token).digest("hex");

/** A link just made: its token is known only now (the store keeps its hash). */
export interface MadeShare extends FileShare {
  token: string;
}

/**
 * Files shared by link (issue 47, decision 068): a random token of 32 bytes per link, kept only as its SHA-256 (a
 * stolen database opens nothing, and a lookup never compares secrets). A link ends when it expires, when the user
 * stops sharing (its row goes), or with its file (ON DELETE CASCADE); a deleted conversation's files open nothing.
 */
export function createFileShares(db: Kysely<Database>, now: () => Date) {
  /** The user's links to items that still exist and whose conversation was not deleted. */
  const live = () =>
    db
      .selectFrom("fileShares")
      .innerJoin("knowledgeItems", "knowledgeItems.id", "fileShares.itemId")
      .where("fileShares.expiresAt", ">", now().toISOString())
      .where((eb) => eb.or([eb("knowledgeItems.conversationId", "is", null), eb("knowledgeItems.conversationId", "not in", deletedConversations(eb))]));
  const shown = ["fileShares.id", "fileShares.itemId as fileId", "knowledgeItems.name as fileName", "fileShares.createdAt", "fileShares.expiresAt"] as const;

  return {
    /** A new link to the item (the caller checked it is the user's file or note). */
    async share(userId: number, item: { id: number; name: string }, days = SHARE_DEFAULT_DAYS): Promise<MadeShare> {
      // The user's ended links open nothing and are never listed: they go when the next one is made.
      await db.deleteFrom("fileShares").where("userId", "=", userId).where("expiresAt", "<=", now().toISOString()).execute();
      const token = randomBytes(32).toString("base64url");
      const createdAt = now().toISOString();
      const expiresAt = new Date(now().getTime() + days * DAY_MS).toISOString();
      const row = await db
        .insertInto("fileShares")
        .values({ userId, itemId: item.id, tokenHash: hash(token), createdAt, expiresAt })
        .returning("id")
        .executeTakeFirstOrThrow();
      return { id: Number(row.id), fileId: item.id, fileName: item.name, createdAt, expiresAt, token };
    },

    /** The user's live links, the soonest to end first. */
    async list(userId: number): Promise<FileShare[]> {
      const rows = await live().select(shown).where("fileShares.userId", "=", userId).orderBy("fileShares.expiresAt").orderBy("fileShares.id").execute();
      return rows.map((row) => ({ ...row, id: Number(row.id), fileId: Number(row.fileId) }));
    },

    /** Stops a link of the user's; false when they have no such link (another user's is not theirs). */
    async stop(userId: number, id: number): Promise<boolean> {
      const result = await db.deleteFrom("fileShares").where("userId", "=", userId).where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Whose item a token opens, or null for an unknown, expired or stopped one (the same answer for all three). */
    async open(token: string): Promise<{ userId: number; itemId: number } | null> {
      const row = await live()
        .select(["fileShares.userId", "fileShares.itemId"])
        .where("fileShares.tokenHash", "=", hash(token))
        .whereRef("knowledgeItems.userId", "=", "fileShares.userId")
        .executeTakeFirst();
      return row ? { userId: Number(row.userId), itemId: Number(row.itemId) } : null;
    },
  };
}

export type FileShares = ReturnType<typeof createFileShares>;
