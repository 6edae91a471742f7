import type { PrivateAddressRule } from "../../providers/mail/imap-client.ts";
import type { MailCredentials } from "./account-credentials.ts";
import type { AccountsRepo } from "./accounts.repo.ts";
import type { ConnectImap } from "./mail-sync.ts";

/**
 * The changes inbox triage makes on the mail server besides saving drafts: replacing a draft it prepared (deleting
 * it by the UID its save answered), and, when the user turned it on, its labels as keywords. Nothing is ever sent,
 * moved or deleted besides SAGE's own drafts.
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
    /**
     * Adds IMAP keywords to messages of one account ("Label in my mailbox", decision 107): answers false when the
     * account is gone or a folder does not take new keywords (its PERMANENTFLAGS lack \*), true once written.
     */
    async labelMessages(userId: number, accountId: number, mails: { folder: string; uid: number; keywords: string[] }[]): Promise<boolean> {
      const written = await withConnection(userId, accountId, async (connection) => {
        // One STORE per folder and set of keywords.
        const groups = new Map<string, { folder: string; keywords: string[]; uids: number[] }>();
        for (const mail of mails) {
          const key = JSON.stringify([mail.folder, mail.keywords]);
          const group = groups.get(key) ?? { folder: mail.folder, keywords: mail.keywords, uids: [] };
          group.uids.push(mail.uid);
          groups.set(key, group);
        }
        let all = true;
        for (const group of groups.values()) if (!(await connection.addKeywords(group.folder, group.uids, group.keywords))) all = false;
        return all;
      });
      return written ?? false;
    },

    /** Deletes a draft SAGE saved (its account, folder and UID as the save answered them). */
    async removeDraft(userId: number, place: { accountId: number; folder: string; uid: number }): Promise<void> {
      await withConnection(userId, place.accountId, (connection) => connection.removeMessage(place.folder, place.uid));
    },
  };
}

export type MailboxMarks = ReturnType<typeof createMailboxMarks>;
