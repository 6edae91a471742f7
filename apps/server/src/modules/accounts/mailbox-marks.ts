import type { PrivateAddressRule } from "../../providers/mail/imap-client.ts";
import type { MailCredentials } from "./account-credentials.ts";
import type { AccountsRepo } from "./accounts.repo.ts";
import type { ConnectImap } from "./mail-sync.ts";

/**
 * The one change inbox triage makes on the mail server besides saving drafts: replacing a draft it prepared (deleting
 * it by the UID its save answered). Nothing is ever sent, moved or deleted besides SAGE's own drafts.
 */
export function createMailboxMarks(deps: { repo: AccountsRepo; credentials: MailCredentials; rule: PrivateAddressRule; connect: ConnectImap }) {
  async function withConnection<T>(userId: number, accountId: number, work: (connection: Awaited<ReturnType<ConnectImap>>) => Promise<T>): Promise<T | null> {
    const row = await deps.repo.find(userId, accountId);
    if (!row || row.kind !== "mail") return null;
    const servers = await deps.credentials(row);
    if (!servers) return null;
    const connection = await deps.connect(servers.imap, deps.rule);
    try {
      return await work(connection);
    } finally {
      await connection.close();
    }
  }

  return {
    /** Deletes a draft SAGE saved (its account, folder and UID as the save answered them). */
    async removeDraft(userId: number, place: { accountId: number; folder: string; uid: number }): Promise<void> {
      await withConnection(userId, place.accountId, (connection) => connection.removeMessage(place.folder, place.uid));
    },
  };
}

export type MailboxMarks = ReturnType<typeof createMailboxMarks>;
