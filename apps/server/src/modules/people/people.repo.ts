import { sql, type Kysely, type Selectable, type Updateable } from "kysely";
import type { Database, PeopleTable } from "../../store/schema.ts";

export type PersonRow = Selectable<PeopleTable>;
export type AddressRow = Selectable<Database["personAddresses"]>;

/** A synced message as the people pages read it (the accounts module writes these rows). */
export interface MailHeader {
  id: number;
  accountId: number;
  folder: string;
  subject: string;
  fromAddress: string;
  toAddress: string;
  date: string | null;
  itemId: number | null;
}

const MAIL_COLUMNS = ["id", "accountId", "folder", "subject", "fromAddress", "toAddress", "date", "itemId"] as const;
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, "\\$&")}%`;

/**
 * The people tables (written only here), and read-only looks at what other modules synced: contact cards, mail
 * headers and calendar events, which the people pages are built from.
 */
export function createPeopleRepo(db: Kysely<Database>) {
  const now = () => new Date().toISOString();
  return {
    userIds: async () => (await db.selectFrom("users").select("id").execute()).map((row) => row.id),

    get: (userId: number, id: number) => db.selectFrom("people").selectAll().where("userId", "=", userId).where("id", "=", id).executeTakeFirst(),

    /** People matching a search (name, organisation, role, or an address), by last contact, newest first. */
    async search(userId: number, options: { q?: string; hidden: boolean; limit: number }): Promise<PersonRow[]> {
      let query = db
        .selectFrom("people as p")
        .selectAll("p")
        .where("p.userId", "=", userId)
        .where("p.hidden", "=", options.hidden ? 1 : 0);
      if (options.q) {
        const pattern = likePattern(options.q);
        query = query.where((eb) =>
          eb.or([
            eb(sql`lower(p.name)`, "like", sql`${pattern} ESCAPE '\\'`),
            eb(sql`lower(coalesce(p.organisation, ''))`, "like", sql`${pattern} ESCAPE '\\'`),
            eb(sql`lower(coalesce(p.role, ''))`, "like", sql`${pattern} ESCAPE '\\'`),
            eb(sql`lower(p.corrections)`, "like", sql`${pattern} ESCAPE '\\'`),
            eb.exists(
              eb
                .selectFrom("personAddresses as a")
                .select("a.address")
                .whereRef("a.personId", "=", "p.id")
                .where(sql<boolean>`(a.address LIKE ${pattern} ESCAPE '\\' OR lower(coalesce(a.display_name, '')) LIKE ${pattern} ESCAPE '\\')`),
            ),
          ]),
        );
      }
      return query
        .orderBy(
          (eb) =>
            eb
              .selectFrom("personAddresses as a")
              .select((inner) => inner.fn.max("a.lastContactAt").as("last"))
              .whereRef("a.personId", "=", "p.id"),
          "desc",
        )
        .orderBy("p.name")
        .limit(options.limit)
        .execute();
    },

    addressesOf: async (userId: number, personIds: number[]): Promise<AddressRow[]> =>
      personIds.length === 0
        ? []
        : db.selectFrom("personAddresses").selectAll().where("userId", "=", userId).where("personId", "in", personIds).orderBy("address").execute(),

    /** Who owns each of these addresses (lower case), as far as anyone does. */
    async owners(userId: number, addresses: string[]): Promise<Map<string, AddressRow>> {
      const found = new Map<string, AddressRow>();
      for (let start = 0; start < addresses.length; start += 500) {
        const slice = addresses.slice(start, start + 500);
        for (const row of await db.selectFrom("personAddresses").selectAll().where("userId", "=", userId).where("address", "in", slice).execute())
          found.set(row.address, row);
      }
      return found;
    },

    insertPerson: async (person: { userId: number; name: string; organisation: string | null; role: string | null; cardUid: string | null }) => {
      const at = now();
      return (
        await db
          .insertInto("people")
          .values({ ...person, createdAt: at, updatedAt: at })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
    },

    updatePerson: (userId: number, id: number, changes: Updateable<PeopleTable>) =>
      db
        .updateTable("people")
        .set({ ...changes, updatedAt: now() })
        .where("userId", "=", userId)
        .where("id", "=", id)
        .execute(),

    personWithCard: (userId: number, cardUid: string) =>
      db.selectFrom("people").selectAll().where("userId", "=", userId).where("cardUid", "=", cardUid).executeTakeFirst(),

    addAddress: (row: AddressRow) =>
      db
        .insertInto("personAddresses")
        .values(row)
        .onConflict((conflict) => conflict.columns(["userId", "address"]).doNothing())
        .execute(),

    /** Moves the other's addresses to the person and deletes the other, in one transaction. */
    merge: (userId: number, personId: number, otherId: number) =>
      db.transaction().execute(async (trx) => {
        await trx.updateTable("personAddresses").set({ personId }).where("userId", "=", userId).where("personId", "=", otherId).execute();
        await trx.deleteFrom("people").where("userId", "=", userId).where("id", "=", otherId).execute();
      }),

    touchAddress: (userId: number, address: string, changes: { lastContactAt?: string; displayName?: string }) =>
      db
        .updateTable("personAddresses")
        .set((eb) => ({
          ...(changes.lastContactAt === undefined
            ? {}
            : {
                lastContactAt: sql<string>`CASE WHEN last_contact_at IS NULL OR last_contact_at < ${changes.lastContactAt} THEN ${changes.lastContactAt} ELSE last_contact_at END`,
              }),
          ...(changes.displayName === undefined ? {} : { displayName: eb.fn.coalesce("displayName", eb.val(changes.displayName)) }),
        }))
        .where("userId", "=", userId)
        .where("address", "=", address)
        .execute(),

    watermark: async (userId: number) =>
      (await db.selectFrom("peopleSync").select("mailWatermark").where("userId", "=", userId).executeTakeFirst())?.mailWatermark ?? 0,

    setWatermark: (userId: number, mailWatermark: number) =>
      db
        .insertInto("peopleSync")
        .values({ userId, mailWatermark, refreshedAt: now() })
        .onConflict((conflict) => conflict.column("userId").doUpdateSet({ mailWatermark, refreshedAt: now() }))
        .execute(),

    /** Every address the user's people hold, with who holds it. */
    directory: (userId: number) =>
      db
        .selectFrom("personAddresses as a")
        .innerJoin("people as p", "p.id", "a.personId")
        .select(["a.address", "a.displayName", "p.id", "p.name", "p.organisation", "p.role", "p.corrections", "p.cardUid", "p.hidden"])
        .where("a.userId", "=", userId)
        .execute(),

    // What other modules synced, read here only.

    cards: (userId: number) =>
      db
        .selectFrom("contactCards")
        .select(["uid", "name", "emails", "organisation", "role", "categories"])
        .where("userId", "=", userId)
        .orderBy("id")
        .execute(),

    /** The user's own addresses: the user names of their mail accounts. */
    ownAddresses: async (userId: number) =>
      (await db.selectFrom("accounts").select("settings").where("userId", "=", userId).where("kind", "=", "mail").execute()).flatMap((row) => {
        try {
          const settings = JSON.parse(row.settings) as { imap?: { user?: string }; smtp?: { user?: string } | null };
          return [settings.imap?.user, settings.smtp?.user].filter((user): user is string => Boolean(user?.includes("@"))).map((user) => user.toLowerCase());
        } catch {
          return [];
        }
      }),

    mailAfter: (userId: number, afterId: number, limit: number): Promise<MailHeader[]> =>
      db.selectFrom("mailMessages").select(MAIL_COLUMNS).where("userId", "=", userId).where("id", ">", afterId).orderBy("id").limit(limit).execute(),

    /** The newest mail from or to any of the addresses (in its From or To header). */
    mailWith(userId: number, addresses: string[], limit: number, options: { from?: boolean } = {}): Promise<MailHeader[]> {
      if (addresses.length === 0) return Promise.resolve([]);
      return db
        .selectFrom("mailMessages")
        .select(MAIL_COLUMNS)
        .where("userId", "=", userId)
        .where((eb) =>
          eb.or(
            addresses.flatMap((address) => {
              const pattern = likePattern(address);
              const from = eb(sql`lower(from_address)`, "like", sql`${pattern} ESCAPE '\\'`);
              return options.from ? [from] : [from, eb(sql`lower(to_address)`, "like", sql`${pattern} ESCAPE '\\'`)];
            }),
          ),
        )
        .orderBy("date", "desc")
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
    },

    /** Every event of the user's synced calendars, for their attendees. */
    events: (userId: number) =>
      db.selectFrom("calendarEvents").select(["id", "title", "startAt", "endAt", "attendees"]).where("userId", "=", userId).orderBy("startAt").execute(),

    /** The headers of the mail held in these knowledge items (a commitment's source). */
    mailOfItems: async (userId: number, itemIds: number[]): Promise<MailHeader[]> =>
      itemIds.length === 0 ? [] : db.selectFrom("mailMessages").select(MAIL_COLUMNS).where("userId", "=", userId).where("itemId", "in", itemIds).execute(),
  };
}

export type PeopleRepo = ReturnType<typeof createPeopleRepo>;
