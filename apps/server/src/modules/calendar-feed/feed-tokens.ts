import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../store/schema.ts";
import type { SecretBox } from "../../store/secret-box.ts";

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * The reminders feed's token, per user: kept sealed (so Settings can show the address again) beside its SHA-256
 * hash (what a feed request is looked up by, so the lookup never needs the key and never compares secrets).
 */
export function createFeedTokens(db: Kysely<Database>, box: SecretBox) {
  async function issue(userId: number): Promise<string> {
    const token = randomBytes(32).toString("base64url");
    const values = { feedTokenHash: hash(token), feedToken: box.seal(token), updatedAt: new Date().toISOString() };
    await db
      .insertInto("calendarPreferences")
      .values({ userId, ...values })
      .onConflict((conflict) => conflict.column("userId").doUpdateSet(values))
      .execute();
    return token;
  }
  return {
    /** The user's token, made on first use (or again when the sealed one no longer opens). */
    async current(userId: number): Promise<string> {
      const row = await db.selectFrom("calendarPreferences").select("feedToken").where("userId", "=", userId).executeTakeFirst();
      const token = row?.feedToken ? box.open(row.feedToken) : null;
      return token ?? issue(userId);
    },
    /** A new token: the old address stops working at once. */
    rotate: issue,
    /** Whose feed a token opens, or null. */
    async owner(token: string): Promise<number | null> {
      const row = await db.selectFrom("calendarPreferences").select("userId").where("feedTokenHash", "=", hash(token)).executeTakeFirst();
      return row?.userId ?? null;
    },
  };
}

export type FeedTokens = ReturnType<typeof createFeedTokens>;

/** The user's own time zone (null while the server's default applies), and setting it. */
export function createTimeZones(db: Kysely<Database>) {
  return {
    async get(userId: number): Promise<string | null> {
      return (await db.selectFrom("calendarPreferences").select("timeZone").where("userId", "=", userId).executeTakeFirst())?.timeZone ?? null;
    },
    async set(userId: number, timeZone: string): Promise<void> {
      const values = { timeZone, updatedAt: new Date().toISOString() };
      await db
        .insertInto("calendarPreferences")
        .values({ userId, ...values })
        .onConflict((conflict) => conflict.column("userId").doUpdateSet(values))
        .execute();
    },
  };
}

export type TimeZones = ReturnType<typeof createTimeZones>;
