import { resolveAllowedHost, type PrivateAddressRule } from "./allowed-host.ts";
import { envelopeFromSource } from "./envelope-from-source.ts";
import { MailConnectionError } from "./mail-connection-error.ts";

export { MailConnectionError } from "./mail-connection-error.ts";
export type { PrivateAddressRule } from "./allowed-host.ts";

export interface ImapServer {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password?: string;
  accessToken?: string;
}

/** A message's headers as the server's ENVELOPE gives them (no body parsed here), and its raw bytes. */
export interface FetchedMessage {
  uid: number;
  messageId: string | null;
  subject: string;
  from: string;
  to: string;
  /** UTC ISO date-time, or null. */
  date: string | null;
  /** Its References chain (the References header, else In-Reply-To): what a reply to it carries before its Message-ID. */
  references: string | null;
  /** The whole RFC 822 message, or null when it is larger than the limit given to fetch. */
  source: Buffer | null;
  size: number;
}

export interface ImapConnection {
  /** Every folder's path, as the server names it. */
  listFolders(): Promise<string[]>;
  /**
   * The folder the server marks with this SPECIAL-USE flag (RFC 6154), else one named as mail programs name it
   * ("Sent", "Drafts", "Trash" or "Deleted Items", "Archive"; \\All has no such name; not with `named: false`), else null.
   */
  specialFolder(use: SpecialUse, options?: { named?: boolean }): Promise<string | null>;
  /** Creates a folder (the namespace's prefix added when the server needs one) and answers its path. */
  createFolder(path: string): Promise<string>;
  /** Moves one message by UID to another folder; answers its UID there when the server says it (UIDPLUS). */
  moveMessage(folder: string, uid: number, to: string): Promise<{ uid: number | null }>;
  /** Stores a message in a folder, marked read (a sent mail's copy in Sent; a draft, also flagged \\Draft); answers its UID when the server says it (UIDPLUS). */
  append(folder: string, message: Buffer, options?: { draft?: boolean }): Promise<{ uid: number | null }>;
  /**
   * Deletes one message by UID for good (flagged \\Deleted and expunged): a draft SAGE prepared and then wrote again,
   * or a mail the user approved deleting on an account with no Trash folder at all (decision 066).
   */
  removeMessage(folder: string, uid: number): Promise<void>;
  /** Adds keywords to messages by UID; answers false, writing nothing, when the folder does not take new keywords. */
  addKeywords(folder: string, uids: number[], keywords: string[]): Promise<boolean>;
  /** Opens a folder read-only; throws a `folder` problem when it does not exist. */
  /** Opens a folder: its UIDVALIDITY, how many messages it holds, and the UID the next message will get. */
  openFolder(folder: string): Promise<{ uidValidity: string; exists: number; uidNext: number }>;
  /** UIDs of the open folder's messages received on or after the date. */
  uidsSince(since: Date): Promise<number[]>;
  /** Headers and bytes of these UIDs of the open folder, in UID order. */
  fetch(uids: number[], maxBytes: number): Promise<FetchedMessage[]>;
  close(): Promise<void>;
}

export type SpecialUse = "\\Sent" | "\\Drafts" | "\\Trash" | "\\Archive" | "\\All";

/** What a folder is called when the server marks none (lower case; the whole path first, then the last part). */
const FOLDER_NAMES: Record<SpecialUse, string[]> = {
  "\\Sent": ["sent"],
  "\\Drafts": ["drafts"],
  "\\Trash": ["trash", "deleted items", "deleted messages"],
  "\\Archive": ["archive"],
  "\\All": [],
};

const CONNECT_TIMEOUT_MS = 20_000;

/**
 * Response codes (RFC 5530) of a server that answered but cannot now: UNAVAILABLE is Dovecot's and Gmail's "Temporary
 * authentication failure" (a sign-in's token could not be checked), INUSE a mailbox busy elsewhere.
 */
const TRY_LATER_CODES = new Set(["UNAVAILABLE", "INUSE"]);

/** Sorts a library or socket failure into the step that failed. */
function classify(error: unknown): MailConnectionError {
  if (error instanceof MailConnectionError) return error;
  const failure = error as {
    code?: string;
    message?: string;
    authenticationFailed?: boolean;
    responseText?: string;
    serverResponseCode?: string;
    cause?: { code?: string };
  };
  const code = failure.code ?? failure.cause?.code ?? "";
  const detail = failure.responseText ? `${failure.message ?? "failed"}: ${failure.responseText}` : (failure.message ?? String(error));
  // Before the login check: imapflow marks any refused LOGIN or AUTHENTICATE as an authentication failure.
  if (TRY_LATER_CODES.has(failure.serverResponseCode ?? "") || code === "ETHROTTLE") return new MailConnectionError("try-later", detail);
  if (failure.authenticationFailed || /AUTHENTICATIONFAILED|authenticat/i.test(failure.responseText ?? "")) return new MailConnectionError("login", detail);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ENODATA") return new MailConnectionError("dns", detail);
  if (code === "CONNECT_TIMEOUT" || code === "ETIMEDOUT" || code === "GREETING_TIMEOUT" || /timeout/i.test(code))
    return new MailConnectionError("timeout", detail);
  if (/^ERR_SSL|^ERR_TLS|CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code) || /ssl|tls|certificate|wrong version/i.test(detail)) {
    return new MailConnectionError("tls", detail);
  }
  return new MailConnectionError("network", detail);
}

const isoDate = (value: Date | string | undefined): string | null => {
  const date = value === undefined ? null : new Date(value);
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : null;
};

/** The References header's Message-IDs (folded lines joined), else the In-Reply-To one; null when neither. */
function referencesOf(headers: Buffer | undefined, inReplyTo: string | undefined): string | null {
  const text = headers?.toString("latin1").replace(/\r?\n[ \t]+/g, " ") ?? "";
  const value = /^references:(.*)$/im.exec(text)?.[1] ?? inReplyTo ?? "";
  const ids = [...new Set(value.match(/<[^<>\s]+>/g) ?? [])];
  return ids.length > 0 ? ids.join(" ") : null;
}

const addressList = (list: Array<{ name?: string; address?: string }> | undefined) =>
  (list ?? [])
    .map((entry) => (entry.name && entry.address ? `${entry.name} <${entry.address}>` : entry.address || entry.name || ""))
    .filter(Boolean)
    .join(", ");

/**
 * An imapflow client, not yet connected, for the server, after checking where the name leads: a private or loopback
 * address is refused unless the rule allows it, and the connection goes to the very address checked (TLS still
 * verifies the server's name), so a DNS answer that changes in between cannot redirect it. `idle` lets imapflow
 * IDLE as soon as no command runs (a watcher wants to hear of new mail at once; a sync wants none).
 */
export async function imapClientFor(server: ImapServer, rule: PrivateAddressRule, { idle }: { idle: boolean }) {
  const address = await resolveAllowedHost(server.host, server.port, rule).catch((error: unknown) => {
    throw error instanceof MailConnectionError ? error : classify(error);
  });
  const { ImapFlow } = await import("imapflow");
  return new ImapFlow({
    host: address,
    servername: server.host,
    port: server.port,
    secure: server.secure,
    auth: server.accessToken ? { user: server.user, accessToken: server.accessToken } : { user: server.user, pass: server.password ?? "" },
    // imapflow logs every command (logins included) through its own pino unless told not to.
    logger: false,
    connectionTimeout: CONNECT_TIMEOUT_MS,
    greetingTimeout: CONNECT_TIMEOUT_MS,
    ...(idle ? { disableAutoIdle: false, autoIdleDelay: 50 } : { disableAutoIdle: true }),
    tls: { servername: server.host },
  });
}

/** Logs in to an IMAP server with imapflow (see `imapClientFor` for where it may connect). */
export async function connectImap(server: ImapServer, rule: PrivateAddressRule): Promise<ImapConnection> {
  const client = await imapClientFor(server, rule, { idle: false });
  // A dropped connection is reported by the command in flight; without a listener it would crash the process.
  client.on("error", () => undefined);
  try {
    await client.connect();
  } catch (error) {
    await client.logout().catch(() => client.close());
    throw classify(error);
  }

  return {
    async listFolders() {
      const folders = await client.list().catch((error: unknown) => {
        throw classify(error);
      });
      return folders.map((folder) => folder.path);
    },

    async specialFolder(use, { named: byName = true } = {}) {
      const folders = await client.list().catch((error: unknown) => {
        throw classify(error);
      });
      const names = byName ? FOLDER_NAMES[use] : [];
      const named = (part: "path" | "name") => names.map((name) => folders.find((folder) => folder[part].toLowerCase() === name)).find(Boolean);
      return (folders.find((folder) => folder.specialUse === use) ?? named("path") ?? named("name"))?.path ?? null;
    },

    async createFolder(path) {
      const created = await client.mailboxCreate(path).catch((error: unknown) => {
        throw classify(error);
      });
      return created.path;
    },

    async moveMessage(folder, uid, to) {
      try {
        await client.mailboxOpen(folder);
        const moved = await client.messageMove(String(uid), to, { uid: true });
        return { uid: (moved ? moved.uidMap?.get(uid) : undefined) ?? null };
      } catch (error) {
        throw classify(error);
      }
    },

    async append(folder, message, options = {}) {
      const appended = await client.append(folder, message, options.draft ? ["\\Seen", "\\Draft"] : ["\\Seen"]).catch((error: unknown) => {
        throw classify(error);
      });
      return { uid: appended && typeof appended.uid === "number" ? appended.uid : null };
    },

    async removeMessage(folder, uid) {
      try {
        await client.mailboxOpen(folder);
        await client.messageDelete(String(uid), { uid: true });
      } catch (error) {
        throw classify(error);
      }
    },

    async addKeywords(folder, uids, keywords) {
      try {
        const mailbox = await client.mailboxOpen(folder);
        // A server that cannot keep new keywords (Exchange) says so in PERMANENTFLAGS: nothing is written there.
        const permanent = mailbox.permanentFlags ?? new Set<string>();
        if (!permanent.has("\\*") && !keywords.every((keyword) => permanent.has(keyword))) return false;
        return await client.messageFlagsAdd(uids.join(","), keywords, { uid: true });
      } catch (error) {
        throw classify(error);
      }
    },

    async openFolder(folder) {
      try {
        const mailbox = await client.mailboxOpen(folder, { readOnly: true });
        return { uidValidity: String(mailbox.uidValidity), exists: mailbox.exists, uidNext: Number(mailbox.uidNext ?? 1) };
      } catch (error) {
        const failure = error as { responseText?: string; serverResponseCode?: string; code?: string };
        if (failure.serverResponseCode === "NONEXISTENT" || /doesn't exist|not exist|no such|unknown mailbox/i.test(failure.responseText ?? "")) {
          throw new MailConnectionError("folder", `no folder ${folder}`, folder);
        }
        throw classify(error);
      }
    },

    async uidsSince(since) {
      const found = await client.search({ since }, { uid: true }).catch((error: unknown) => {
        throw classify(error);
      });
      return (found || []).sort((a, b) => a - b);
    },

    async fetch(uids, maxBytes) {
      if (uids.length === 0) return [];
      const messages: FetchedMessage[] = [];
      try {
        for await (const message of client.fetch(uids, { uid: true, envelope: true, size: true, headers: ["references"] }, { uid: true })) {
          const envelope = message.envelope;
          messages.push({
            references: referencesOf(message.headers, envelope?.inReplyTo),
            uid: message.uid,
            messageId: envelope?.messageId ?? null,
            subject: (envelope?.subject ?? "").trim(),
            from: addressList(envelope?.from),
            to: addressList(envelope?.to),
            date: isoDate(envelope?.date),
            source: null,
            size: message.size ?? 0,
          });
        }
        const wanted = messages.filter((message) => message.size <= maxBytes).map((message) => message.uid);
        if (wanted.length > 0) {
          const byUid = new Map(messages.map((message) => [message.uid, message]));
          for await (const message of client.fetch(wanted, { uid: true, source: true }, { uid: true })) {
            const entry = byUid.get(message.uid);
            if (!entry || !message.source) continue;
            entry.source = message.source;
            // A byte-order mark hid the first header from the server: what the envelope lacks is read here.
            const own = envelopeFromSource(message.source);
            if (own)
              for (const key of ["messageId", "subject", "from", "to", "date"] as const) if (!entry[key] && own[key]) Object.assign(entry, { [key]: own[key] });
          }
        }
      } catch (error) {
        throw classify(error);
      }
      return messages.sort((a, b) => a.uid - b.uid);
    },

    async close() {
      await client.logout().catch(() => client.close());
    },
  };
}

/** A library or socket failure sorted into the step that failed (the folder watcher's too). */
export const classifyImapFailure = classify;
