import { EMAIL_ADDRESS, type ServerInput } from "@sage/contracts/accounts";
import type { OAuthProviderId } from "@sage/contracts/oauth";
import type { ImapServer } from "../../providers/mail/imap-client.ts";
import type { SecretBox } from "../../store/secret-box.ts";
import type { AccountRow } from "../../store/schema.ts";

/** What an account's row keeps in the clear: where the servers are and what to sync, never a password or token. */
export interface MailSettings {
  imap: { host: string; port: number; secure: boolean; user: string };
  smtp: { host: string; port: number; secure: boolean; user: string } | null;
  folders: string[];
  sinceDays: number;
  /** The From address (issue 48); absent on accounts made before it: the login name then, when it is an address. */
  address?: string | null;
  displayName?: string | null;
  /** An account that signs in with a provider instead of a password (its tokens are the grant's, row.grantId). */
  auth?: { provider: OAuthProviderId } | null;
  /** Whether the sign-in should also bring the provider's calendar (made at the first sign-in). */
  calendar?: boolean;
  /** Whether the name was left to the sign-in (it then becomes the address signed in as). */
  nameFromSignIn?: boolean;
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

export const isAddress = (value: string | null | undefined): value is string => Boolean(value && EMAIL_ADDRESS.test(value));

/** The From address: the one set, else the SMTP or IMAP login when it is an address, else none (nothing can be sent). */
export const senderAddress = (settings: MailSettings): string | null =>
  settings.address ?? [settings.smtp?.user, settings.imap.user].find((user) => isAddress(user)) ?? null;

/** "Anna Berg <anna@example.com>", quoted when the name needs it; the bare address without a name. */
export function formatSender(address: string, displayName: string | null | undefined): string {
  const name = displayName?.trim();
  if (!name) return address;
  const quoted = /^[\w .'-]+$/.test(name) ? name : `"${name.replace(/["\\]/g, "\\$&")}"`;
  return `${quoted} <${address}>`;
}
