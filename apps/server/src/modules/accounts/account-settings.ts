import type { ServerInput } from "@sage/contracts/accounts";
import type { ImapServer } from "../../providers/mail/imap-client.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import type { AccountRow } from "../../store/schema.ts";

/** What an account's row keeps in the clear: where the servers are and what to sync, never a password. */
export interface MailSettings {
  imap: { host: string; port: number; secure: boolean; user: string };
  smtp: { host: string; port: number; secure: boolean; user: string } | null;
  folders: string[];
  sinceDays: number;
}

/** What the row keeps sealed (decision 030). */
export interface MailSecrets {
  imap: { password?: string; accessToken?: string };
  smtp: { password?: string; accessToken?: string } | null;
}

export const serverPart = (server: ServerInput) => ({ host: server.host, port: server.port, secure: server.secure, user: server.user });
export const secretPart = (server: Pick<ServerInput, "password" | "accessToken">) => ({
  ...(server.password === undefined ? {} : { password: server.password }),
  ...(server.accessToken === undefined ? {} : { accessToken: server.accessToken }),
});

export const readSettings = (row: Pick<AccountRow, "settings">): MailSettings => JSON.parse(row.settings) as MailSettings;

/** The account's secrets, or null when they cannot be opened (another key, or none kept: "password needed"). */
export function readSecrets(box: SecretBox, row: Pick<AccountRow, "secrets">): MailSecrets | null {
  if (!row.secrets) return null;
  const plain = box.open(row.secrets);
  return plain === null ? null : (JSON.parse(plain) as MailSecrets);
}

export const imapServer = (settings: MailSettings, secrets: MailSecrets): ImapServer => ({ ...settings.imap, ...secrets.imap });
