import type { ImapServer } from "../../providers/mail/imap-client.ts";
import type { SmtpServer } from "../../providers/mail/smtp-client.ts";
import type { AccountRow } from "../../store/schema.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import { SignInNeededError, type SignInPort } from "../sign-in/sign-in.module.ts";
import { imapServer, readSecrets, readSettings } from "./account-settings.ts";

export interface MailServers {
  imap: ImapServer;
  smtp: SmtpServer | null;
}

/**
 * An account's servers with what logs in to them: its sealed password, or, for an account that signs in with a
 * provider, a working access token (refreshed before it expires) for XOAUTH2. null when no password is kept
 * ("password needed"); SignInNeededError / SignInUnavailableError when the sign-in ended or cannot be reached.
 */
export function createMailCredentials(deps: { box: SecretBox; signIn: SignInPort }) {
  return async (row: AccountRow): Promise<MailServers | null> => {
    const settings = readSettings(row);
    if (settings.auth) {
      if (row.grantId === null) throw new SignInNeededError(0);
      const accessToken = await deps.signIn.accessToken(row.grantId, "mail");
      return { imap: { ...settings.imap, accessToken }, smtp: settings.smtp ? { ...settings.smtp, accessToken } : null };
    }
    const secrets = readSecrets(deps.box, row);
    if (!secrets) return null;
    return { imap: imapServer(settings, secrets), smtp: settings.smtp && secrets.smtp ? { ...settings.smtp, ...secrets.smtp } : null };
  };
}

export type MailCredentials = ReturnType<typeof createMailCredentials>;
