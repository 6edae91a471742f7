import { contactsProblemMessage, type CreateContactsAccountInput } from "@sage/contracts/accounts";
import type { Kysely } from "kysely";
import type { CarddavConnection, CarddavServer } from "../../providers/contacts/carddav-client.ts";
import { readVcard } from "../../providers/contacts/read-vcard.ts";
import type { PrivateAddressRule } from "../../providers/mail/allowed-host.ts";
import { MailConnectionError } from "../../providers/mail/mail-connection-error.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import type { AccountRow, Database } from "../../store/schema.ts";
import type { AccountsRepo } from "./accounts.repo.ts";
import { UNEXPECTED_SYNC_FAILURE } from "./calendar-sync.ts";

/** What a contacts account's row keeps in the clear: the CardDAV address and user; the password is sealed. */
export interface ContactsSettings {
  carddav: { url: string; user: string };
}

export type ConnectCarddav = (server: CarddavServer, rule: PrivateAddressRule) => Promise<CarddavConnection>;

export const readContactsSettings = (row: Pick<AccountRow, "settings">): ContactsSettings => JSON.parse(row.settings) as ContactsSettings;

export function readContactsPassword(box: SecretBox, row: Pick<AccountRow, "secrets">): string | null {
  if (!row.secrets) return null;
  const plain = box.open(row.secrets);
  return plain === null ? null : ((JSON.parse(plain) as { password?: string }).password ?? null);
}

export const contactsParts = (input: Pick<CreateContactsAccountInput, "carddav">) => ({
  settings: { carddav: { url: input.carddav.url, user: input.carddav.user } } satisfies ContactsSettings,
  secrets: { password: input.carddav.password },
});

export const contactsHost = (settings: ContactsSettings) => new URL(settings.carddav.url).hostname;

export function contactsSyncFailure(error: unknown, settings: ContactsSettings): string {
  if (error instanceof MailConnectionError) return contactsProblemMessage(error.problem, contactsHost(settings));
  return UNEXPECTED_SYNC_FAILURE;
}

/** The contact cards table, written only here (a sync replaces an account's cards). */
export function createContactCardsRepo(db: Kysely<Database>) {
  return {
    count: async (accountId: number) =>
      Number(
        (
          await db
            .selectFrom("contactCards")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("accountId", "=", accountId)
            .executeTakeFirstOrThrow()
        ).n,
      ),

    /** Replaces the account's cards in one transaction: a reader never sees half an address book. */
    replace: (accountId: number, userId: number, cards: Array<{ href: string; etag: string | null; vcard: string }>) =>
      db.transaction().execute(async (trx) => {
        await trx.deleteFrom("contactCards").where("accountId", "=", accountId).execute();
        const rows = cards.flatMap((card) => {
          const read = readVcard(card.vcard);
          if (!read) return [];
          return [
            {
              accountId,
              userId,
              href: card.href,
              etag: card.etag,
              uid: read.uid,
              name: read.name,
              emails: JSON.stringify(read.emails),
              organisation: read.organisation,
              role: read.role,
              categories: JSON.stringify(read.categories),
              vcard: card.vcard,
            },
          ];
        });
        for (let start = 0; start < rows.length; start += 200)
          await trx
            .insertInto("contactCards")
            .values(rows.slice(start, start + 200))
            .execute();
        return rows.length;
      }),
  };
}

export type ContactCardsRepo = ReturnType<typeof createContactCardsRepo>;

export interface ContactsSyncDeps {
  repo: AccountsRepo;
  cards: ContactCardsRepo;
  box: SecretBox;
  rule: PrivateAddressRule;
  connectCarddav: ConnectCarddav;
  /** Where a sync that stopped on an unexpected error is logged, with its cause and the account's id. */
  warn?(message: string, error?: unknown): void;
}

/** One sync of an address book: every card the server holds replaces those stored (new, changed and deleted ones follow). */
export async function syncContactsAccount(deps: ContactsSyncDeps, accountId: number): Promise<void> {
  const { repo } = deps;
  const account = await repo.findById(accountId);
  if (!account || account.kind !== "contacts") return;
  const settings = readContactsSettings(account);
  const password = readContactsPassword(deps.box, account);
  if (password === null) {
    await repo.update(accountId, { status: "password-needed", error: null });
    return;
  }
  try {
    const connection = await deps.connectCarddav({ ...settings.carddav, password }, deps.rule);
    const cards = await connection.cards();
    if (!(await repo.findById(accountId))) return;
    await deps.cards.replace(accountId, account.userId, cards);
    await repo.update(accountId, { status: "ok", error: null, lastSyncAt: new Date().toISOString(), syncProcessed: 0, syncTotal: 0 });
  } catch (error) {
    if (await repo.findById(accountId)) await repo.update(accountId, { status: "error", error: contactsSyncFailure(error, settings) });
    if (!(error instanceof MailConnectionError)) {
      deps.warn?.(`contacts account ${accountId}: the sync stopped on an unexpected error`, error);
      throw error;
    }
  }
}
