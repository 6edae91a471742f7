import { z } from "zod";
import { OAUTH_PROVIDER_IDS } from "./oauth.ts";

/**
 * Settings > Accounts: each user's own mail accounts (IMAP to read, SMTP to send), synced into the knowledge base,
 * and calendars (a CalDAV account, or an ICS subscription address), synced into their events.
 */

export const ACCOUNT_STATUSES = ["syncing", "ok", "error", "password-needed", "sign-in-needed"] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

export const DEFAULT_MAIL_FOLDERS = ["INBOX", "Sent"];
export const DEFAULT_SINCE_DAYS = 365;
export const MAX_SINCE_DAYS = 36_500;

/** The server's 400/404 texts, shown as they are. */
export const ACCOUNT_ERRORS = {
  accountNotFound: "Account not found",
  nameRequired: "Name is required",
  hostRequired: "Server name is required",
  portInvalid: "Port must be a number from 1 to 65535",
  userRequired: "User name is required",
  passwordRequired: "Password (or an app password) is required",
  kindInvalid: 'kind must be "mail", "calendar" or "contacts"',
  calendarSourceRequired: "Give either a CalDAV server (url, user, password) or an ICS subscription address (icsUrl), not both",
  calendarUrlInvalid: "The calendar address must be a web address starting with https:// or http://",
  foldersInvalid: "Folders must be a list of folder names",
  sinceDaysInvalid: `sinceDays must be a whole number of days from 1 to ${MAX_SINCE_DAYS}`,
  nothingToUpdate: "Nothing to update: send name, address, displayName, imap, smtp, folders or sinceDays",
  calendarNothingToUpdate: "Nothing to update: send name, caldav or icsUrl",
  contactsNothingToUpdate: "Nothing to update: send name or carddav",
  notThisKind: "This change does not fit the account's kind",
  addressInvalid: "The sender address must be an e-mail address, like anna@example.com",
  displayNameInvalid: "The display name must be at most 200 characters, on one line",
  serverRequiredForCompany: "Give the company's mail server (imap: host, port, secure): only Google and Microsoft come with their own",
  calendarNotWithCompany: "A calendar comes with Google and Microsoft sign-in; connect your company's calendar with its address below",
  signInNotThisWay: "This account signs in with its provider: use Sign in again instead of a password",
} as const;

/** Why a connection failed, in words an executive understands; `problem` says which step failed. */
export const CONNECTION_PROBLEMS = [
  "dns",
  "tls",
  "login",
  "folder",
  "network",
  "timeout",
  "blocked",
  "not-found",
  "not-calendar",
  /** CardDAV: the server answered, but holds no address book there. */
  "not-addressbook",
  /** SMTP: the server refused the sender address (MAIL FROM). */
  "sender",
  /** SMTP: the server refused a recipient (RCPT TO). */
  "recipient",
  /** SMTP: the server refused the message itself (DATA): too large, or taken for spam. */
  "message",
  /** A 4xx reply: the server is busy or limiting, and asks to try again later. */
  "try-later",
  /** The provider's sign-in ended (revoked, password changed, consent withdrawn): the user signs in again. */
  "sign-in",
] as const;
export type ConnectionProblem = (typeof CONNECTION_PROBLEMS)[number];

const SIGN_IN_AGAIN = "The sign-in has expired or was withdrawn at the provider: press Sign in again in Settings > Accounts.";

export const connectionProblemMessage = (problem: ConnectionProblem, where: { host: string; port: number; folder?: string; signIn?: boolean }): string => {
  switch (problem) {
    case "dns":
      return `The mail server ${where.host} could not be found. Check the server name.`;
    case "tls":
      return `A secure connection to ${where.host}:${where.port} could not be made. Check the port and the security setting (TLS on port 993, STARTTLS on 143).`;
    case "login":
      return where.signIn
        ? `The mail server ${where.host} refused the sign-in. Its administrator may have turned IMAP off for this mailbox (Gmail: Settings > Forwarding and POP/IMAP).`
        : "The mail server refused the user name or password. Gmail and Microsoft 365 need an app password here, not your usual password.";
    case "sign-in":
      return SIGN_IN_AGAIN;
    case "folder":
      return `The folder "${where.folder ?? ""}" does not exist on the mail server. Check the folder names.`;
    case "timeout":
      return `The mail server ${where.host}:${where.port} did not answer in time.`;
    case "try-later":
      return `The mail server ${where.host} had a passing problem and asked to try again later. SAGE tries again at the next sync.`;
    case "blocked":
      return `${where.host} is on a local or private network. SAGE connects to such servers only when the administrator allows it (SAGE_FETCH_ALLOW_PRIVATE or SAGE_ACCOUNT_ALLOW_HOSTS).`;
    default:
      return `The mail server ${where.host}:${where.port} could not be reached. Check the server name and port.`;
  }
};

/** "The mail server ..." -> "the mail server ...", to follow "Sending: " (a name or address keeps its case). */
const continuing = (sentence: string) => (/^[A-Z][a-z]/.test(sentence) ? sentence[0]!.toLowerCase() + sentence.slice(1) : sentence);

/**
 * Why sending failed, naming the step the SMTP server refused, in words (never its reply, which goes to the log):
 * "the server refused the sender address exec: use your full e-mail address."
 */
export const smtpProblemMessage = (
  problem: ConnectionProblem,
  where: { host: string; port: number; address: string; signIn?: boolean; rejected?: string[] },
): string => {
  switch (problem) {
    case "sender":
      return where.address.includes("@")
        ? `the server refused the sender address ${where.address}: it does not let this login send as that address.`
        : `the server refused the sender address ${where.address}: use your full e-mail address.`;
    case "recipient":
      return where.rejected && where.rejected.length > 0
        ? `the server refused ${where.rejected.length === 1 ? "the recipient" : "the recipients"} ${where.rejected.join(", ")}: check the address.`
        : "the server refused a recipient: check the addresses.";
    case "message":
      return "the server refused the message itself (it may be too large, or taken for spam).";
    case "try-later":
      return `the server ${where.host} is busy or limiting sending, and asked to try again later.`;
    case "login":
      return where.signIn
        ? `the server ${where.host} refused the sign-in for sending. Its administrator may have turned authenticated SMTP off for this mailbox.`
        : "the server refused the user name or password. Gmail and Microsoft 365 need an app password here, not your usual password.";
    case "tls":
      return `a secure connection to ${where.host}:${where.port} could not be made. Check the port and the security setting (TLS on port 465, STARTTLS on 587).`;
    default:
      return continuing(connectionProblemMessage(problem, where));
  }
};

/** "Sending: the server refused ..." / "Receiving: ...": a test's or a failure's step, then what went wrong. */
export const stepMessage = (step: "Receiving" | "Sending", problem: string) => `${step}: ${continuing(problem)}`;

/** Why a calendar could not be reached, in plain words: `host` is the address's host (never the secret address). */
export const calendarProblemMessage = (problem: ConnectionProblem, host: string, signIn = false): string => {
  switch (problem) {
    case "dns":
      return `The calendar server ${host} could not be found. Check the address.`;
    case "tls":
      return `A secure connection to ${host} could not be made. Check that the address starts with https://.`;
    case "login":
      return signIn
        ? `The calendar server ${host} refused the sign-in. Its administrator may not allow SAGE to read this calendar.`
        : "The calendar server refused the user name or password. iCloud and Fastmail need an app password here, not your usual password.";
    case "try-later":
      return `The calendar server ${host} is busy and asked to try again later; SAGE will.`;
    case "not-found":
      return `${host} answered that there is no calendar at this address. Copy the address again from your calendar's settings.`;
    case "not-calendar":
      return `${host} answered, but not with a calendar. For Google or Outlook, use the secret address in iCal format (it ends in .ics).`;
    case "sign-in":
      return SIGN_IN_AGAIN;
    case "timeout":
      return `The calendar server ${host} did not answer in time.`;
    case "blocked":
      return `${host} is on a local or private network. SAGE connects to such servers only when the administrator allows it (SAGE_FETCH_ALLOW_PRIVATE or SAGE_ACCOUNT_ALLOW_HOSTS).`;
    default:
      return `The calendar server ${host} could not be reached. Check the address.`;
  }
};

/** Why an address book could not be reached, in plain words. */
export const contactsProblemMessage = (problem: ConnectionProblem, host: string): string => {
  switch (problem) {
    case "login":
      return "The contacts server refused the user name or password. iCloud and Fastmail need an app password here, not your usual password.";
    case "not-found":
    case "not-calendar":
    case "not-addressbook":
      return `${host} answered, but holds no address book at this address. Use your server's CardDAV address (for iCloud https://contacts.icloud.com/).`;
    default:
      return calendarProblemMessage(problem, host).replace("calendar server", "contacts server");
  }
};

const absentAsUndefined = (value: unknown) => (value === null ? undefined : value);

const serverFields = {
  host: z.string({ error: ACCOUNT_ERRORS.hostRequired }).trim().min(1, ACCOUNT_ERRORS.hostRequired).max(255, ACCOUNT_ERRORS.hostRequired),
  port: z.coerce
    .number({ error: ACCOUNT_ERRORS.portInvalid })
    .int(ACCOUNT_ERRORS.portInvalid)
    .min(1, ACCOUNT_ERRORS.portInvalid)
    .max(65535, ACCOUNT_ERRORS.portInvalid),
  /** true: TLS from the first byte (993, 465); false: STARTTLS when the server offers it (143, 587). */
  secure: z.boolean().default(true),
  user: z.string({ error: ACCOUNT_ERRORS.userRequired }).trim().min(1, ACCOUNT_ERRORS.userRequired).max(500, ACCOUNT_ERRORS.userRequired),
};
const secretField = z.string().min(1).max(10_000);

/** A server as the user types it: a password or app password, or an XOAUTH2 bearer token. */
export const serverInputSchema = z
  .object({
    ...serverFields,
    password: z.preprocess(absentAsUndefined, secretField.optional()),
    accessToken: z.preprocess(absentAsUndefined, secretField.optional()),
  })
  .refine((server) => server.password !== undefined || server.accessToken !== undefined, { error: ACCOUNT_ERRORS.passwordRequired, path: ["password"] });
export type ServerInput = z.output<typeof serverInputSchema>;

/** On PATCH the password may be left out: the stored one is kept. */
const serverPatchSchema = z.object({
  ...serverFields,
  password: z.preprocess(absentAsUndefined, secretField.optional()),
  accessToken: z.preprocess(absentAsUndefined, secretField.optional()),
});

const nameSchema = z.string({ error: ACCOUNT_ERRORS.nameRequired }).trim().min(1, ACCOUNT_ERRORS.nameRequired).max(200, ACCOUNT_ERRORS.nameRequired);
const foldersSchema = z
  .array(z.string().trim().min(1).max(500), { error: ACCOUNT_ERRORS.foldersInvalid })
  .min(1, ACCOUNT_ERRORS.foldersInvalid)
  .max(50, ACCOUNT_ERRORS.foldersInvalid)
  .transform((folders) => [...new Set(folders)]);
const sinceDaysSchema = z
  .number({ error: ACCOUNT_ERRORS.sinceDaysInvalid })
  .int(ACCOUNT_ERRORS.sinceDaysInvalid)
  .min(1, ACCOUNT_ERRORS.sinceDaysInvalid)
  .max(MAX_SINCE_DAYS, ACCOUNT_ERRORS.sinceDaysInvalid);

/** A lenient e-mail address: something@somewhere, no spaces or angle brackets (servers judge the rest). */
export const EMAIL_ADDRESS = /^[^\s@<>"(),;:]+@[^\s@<>"(),;:]+$/;
const addressSchema = z
  .string({ error: ACCOUNT_ERRORS.addressInvalid })
  .trim()
  .max(320, ACCOUNT_ERRORS.addressInvalid)
  .regex(EMAIL_ADDRESS, ACCOUNT_ERRORS.addressInvalid);
const displayNameSchema = z
  .string({ error: ACCOUNT_ERRORS.displayNameInvalid })
  .trim()
  .max(200, ACCOUNT_ERRORS.displayNameInvalid)
  .regex(/^[^\r\n]*$/, ACCOUNT_ERRORS.displayNameInvalid);

/**
 * A password account has no `auth` (absent or null): a body with one is a sign-in account's, and never falls back to
 * a password account when its sign-in part is wrong.
 */
const noAuth = {
  auth: z.null({ error: "Only a mail account signs in with a provider, and it is tested by signing in: leave auth out here" }).optional(),
};

/** A mail account as POST /api/accounts takes it. */
export const createMailAccountSchema = z.object({
  kind: z.literal("mail", { error: ACCOUNT_ERRORS.kindInvalid }),
  ...noAuth,
  name: nameSchema,
  /** The From address; by default the login name when that is an address. */
  address: z.preprocess(absentAsUndefined, addressSchema.optional()),
  /** The name shown beside the address: "Anna Berg <anna@example.com>". */
  displayName: z.preprocess(absentAsUndefined, displayNameSchema.optional()),
  imap: serverInputSchema,
  smtp: z.preprocess(absentAsUndefined, serverInputSchema.optional()),
  folders: z.preprocess(absentAsUndefined, foldersSchema.default(DEFAULT_MAIL_FOLDERS)),
  sinceDays: z.preprocess(absentAsUndefined, sinceDaysSchema.default(DEFAULT_SINCE_DAYS)),
});
export type CreateAccountRequest = z.input<typeof createMailAccountSchema>;
export type CreateAccountInput = z.output<typeof createMailAccountSchema>;

/** Where a provider's server is; Google and Microsoft fill in their own, the company provider needs imap (and smtp to send). */
const hostSchema = z.object({ host: serverFields.host, port: serverFields.port, secure: serverFields.secure });

/**
 * POST /api/accounts with `auth`: a mail account that signs in with Google, Microsoft or the company's identity server
 * (no password). It answers `sign-in-needed` with `signInUrl`; the login name comes from the sign-in (the ID token's
 * email, else preferred_username), as do the address and display name when not given. `calendar` (default true for
 * Google and Microsoft) adds their calendar, through the same sign-in.
 */
export const signInAccountRequestSchema = z.object({
  kind: z.literal("mail", { error: ACCOUNT_ERRORS.kindInvalid }),
  name: z.preprocess(absentAsUndefined, nameSchema.optional()),
  address: z.preprocess(absentAsUndefined, addressSchema.optional()),
  displayName: z.preprocess(absentAsUndefined, displayNameSchema.optional()),
  auth: z.object({ provider: z.enum(OAUTH_PROVIDER_IDS, { error: 'auth.provider must be "google", "microsoft" or "oidc"' }) }),
  imap: z.preprocess(absentAsUndefined, hostSchema.optional()),
  smtp: z.preprocess(absentAsUndefined, hostSchema.optional()),
  calendar: z.preprocess(absentAsUndefined, z.boolean({ error: "calendar must be true or false" }).optional()),
  folders: z.preprocess(absentAsUndefined, foldersSchema.default(DEFAULT_MAIL_FOLDERS)),
  sinceDays: z.preprocess(absentAsUndefined, sinceDaysSchema.default(DEFAULT_SINCE_DAYS)),
});
export type SignInAccountRequest = z.input<typeof signInAccountRequestSchema>;
export type SignInAccountInput = z.output<typeof signInAccountRequestSchema>;

const calendarUrlSchema = z
  .string({ error: ACCOUNT_ERRORS.calendarUrlInvalid })
  .trim()
  .max(4000, ACCOUNT_ERRORS.calendarUrlInvalid)
  .refine((value) => {
    try {
      const url = new URL(value.replace(/^webcals?:/i, "https:"));
      return url.protocol === "https:" || url.protocol === "http:";
    } catch {
      return false;
    }
  }, ACCOUNT_ERRORS.calendarUrlInvalid)
  // Google and Apple hand out webcal:// addresses: the same address over https.
  .transform((value) => value.replace(/^webcals?:/i, "https:"));

/** A CalDAV server as the user types it (Fastmail, iCloud, Nextcloud, Radicale...): the password is sealed. */
export const caldavInputSchema = z.object({
  url: calendarUrlSchema,
  user: z.string({ error: ACCOUNT_ERRORS.userRequired }).trim().min(1, ACCOUNT_ERRORS.userRequired).max(500, ACCOUNT_ERRORS.userRequired),
  password: z.string({ error: ACCOUNT_ERRORS.passwordRequired }).min(1, ACCOUNT_ERRORS.passwordRequired).max(10_000, ACCOUNT_ERRORS.passwordRequired),
});
export type CaldavInput = z.output<typeof caldavInputSchema>;

/** A calendar account: a CalDAV server, or an ICS subscription address (Google's or Outlook's secret address). */
export const createCalendarAccountSchema = z
  .object({
    kind: z.literal("calendar"),
    ...noAuth,
    name: nameSchema,
    caldav: z.preprocess(absentAsUndefined, caldavInputSchema.optional()),
    icsUrl: z.preprocess(absentAsUndefined, calendarUrlSchema.optional()),
  })
  .refine((account) => (account.caldav === undefined) !== (account.icsUrl === undefined), { error: ACCOUNT_ERRORS.calendarSourceRequired });
export type CreateCalendarAccountRequest = z.input<typeof createCalendarAccountSchema>;
export type CreateCalendarAccountInput = z.output<typeof createCalendarAccountSchema>;

/** An address book over CardDAV (iCloud, Fastmail, Nextcloud, Radicale...): its contacts feed the people pages. */
export const createContactsAccountSchema = z.object({
  kind: z.literal("contacts"),
  ...noAuth,
  name: nameSchema,
  carddav: caldavInputSchema,
});
export type CreateContactsAccountInput = z.output<typeof createContactsAccountSchema>;

/** PATCH /api/accounts/{id} of a contacts account: a server without a password keeps the stored one. */
export const updateContactsAccountSchema = z
  .object({
    name: z.preprocess(absentAsUndefined, nameSchema.optional()),
    carddav: z.preprocess(absentAsUndefined, caldavInputSchema.extend({ password: caldavInputSchema.shape.password.optional() }).optional()),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { error: ACCOUNT_ERRORS.contactsNothingToUpdate });
export type UpdateContactsAccountInput = z.output<typeof updateContactsAccountSchema>;

/** POST /api/accounts (and POST /api/accounts/test, which checks the same fields without saving). */
export const createAccountRequestSchema = z.discriminatedUnion("kind", [createMailAccountSchema, createCalendarAccountSchema, createContactsAccountSchema], {
  error: ACCOUNT_ERRORS.kindInvalid,
});
export type CreateAnyAccountInput = z.output<typeof createAccountRequestSchema>;
export type CreateAnyAccountRequest = z.input<typeof createAccountRequestSchema>;

/**
 * POST /api/accounts: a mail account that signs in with a provider (with `auth`), or any account with its password.
 * A body whose `auth` is absent or null is the second.
 */
export const newAccountRequestSchema = z.union([signInAccountRequestSchema, createAccountRequestSchema]);
export type NewAccountInput = z.output<typeof newAccountRequestSchema>;

/** PATCH /api/accounts/{id}: any of the fields; a server without a password keeps the stored one. */
export const updateAccountRequestSchema = z
  .object({
    name: z.preprocess(absentAsUndefined, nameSchema.optional()),
    address: z.preprocess(absentAsUndefined, addressSchema.optional()),
    /** "" takes the display name away. */
    displayName: z.preprocess((value) => (value === null ? "" : value), displayNameSchema.optional()),
    imap: z.preprocess(absentAsUndefined, serverPatchSchema.optional()),
    smtp: z.preprocess(absentAsUndefined, serverPatchSchema.optional()),
    folders: z.preprocess(absentAsUndefined, foldersSchema.optional()),
    sinceDays: z.preprocess(absentAsUndefined, sinceDaysSchema.optional()),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { error: ACCOUNT_ERRORS.nothingToUpdate });
export type UpdateAccountRequest = z.input<typeof updateAccountRequestSchema>;
export type UpdateAccountInput = z.output<typeof updateAccountRequestSchema>;

/** PATCH /api/accounts/{id} of a calendar account: a CalDAV server without a password keeps the stored one. */
export const updateCalendarAccountSchema = z
  .object({
    name: z.preprocess(absentAsUndefined, nameSchema.optional()),
    caldav: z.preprocess(absentAsUndefined, caldavInputSchema.extend({ password: caldavInputSchema.shape.password.optional() }).optional()),
    icsUrl: z.preprocess(absentAsUndefined, calendarUrlSchema.optional()),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { error: ACCOUNT_ERRORS.calendarNothingToUpdate });
export type UpdateCalendarAccountInput = z.output<typeof updateCalendarAccountSchema>;

/** A server as the API shows it: never its password or token. */
export const serverSchema = z.object({ host: z.string(), port: z.number().int(), secure: z.boolean(), user: z.string() });

const accountFields = {
  id: z.number().int(),
  name: z.string(),
  status: z.enum(ACCOUNT_STATUSES),
  lastSyncAt: z.string().nullable(),
  /** Why the last sync failed, in plain words; null when it did not. */
  error: z.string().nullable(),
  counts: z.object({
    messages: z.number().int().optional(),
    /** A mail account's synced messages not yet searchable (still being read): "Reading 12 messages" until 0. */
    reading: z.number().int().optional(),
    events: z.number().int().optional(),
    contacts: z.number().int().optional(),
  }),
  /** While syncing: messages synced of those to sync ("Synced 1,240 of 10,000 messages"). */
  progress: z.object({ processed: z.number().int(), total: z.number().int() }).nullable(),
  createdAt: z.string(),
};

/** How an account signs in when it has no password: the provider, and who signed in (null before the first sign-in). */
export const accountAuthSchema = z.object({ provider: z.enum(OAUTH_PROVIDER_IDS), user: z.string().nullable() });

export const mailAccountSchema = z.object({
  ...accountFields,
  kind: z.literal("mail"),
  /** The From address (null: none known yet, so nothing can be sent until one is set). */
  address: z.string().nullable(),
  displayName: z.string().nullable(),
  auth: accountAuthSchema.nullable(),
  /** Where "Sign in again" leads (GET, a redirect to the provider); null for password accounts. */
  signInUrl: z.string().nullable(),
  imap: serverSchema,
  smtp: serverSchema.nullable(),
  folders: z.array(z.string()),
  sinceDays: z.number().int(),
});
export type MailAccount = z.infer<typeof mailAccountSchema>;

/** A calendar account as the API shows it: the CalDAV address and user, or only the host of a (secret) ICS address. */
export const calendarAccountSchema = z.object({
  ...accountFields,
  kind: z.literal("calendar"),
  caldav: z.object({ url: z.string(), user: z.string() }).nullable(),
  ics: z.object({ host: z.string() }).nullable(),
  /** A calendar that came with a sign-in: Google's over CalDAV, Microsoft's over Microsoft Graph (caldav and ics null). */
  auth: accountAuthSchema.nullable(),
  signInUrl: z.string().nullable(),
});
export type CalendarAccount = z.infer<typeof calendarAccountSchema>;

/** An address book as the API shows it: the CardDAV address and user, never the password. */
export const contactsAccountSchema = z.object({
  ...accountFields,
  kind: z.literal("contacts"),
  carddav: z.object({ url: z.string(), user: z.string() }),
  /** Address books sign in with a password (no provider sign-in): always null, as the other kinds say it. */
  auth: accountAuthSchema.nullable(),
  signInUrl: z.string().nullable(),
});
export type ContactsAccount = z.infer<typeof contactsAccountSchema>;

export const accountSchema = z.discriminatedUnion("kind", [mailAccountSchema, calendarAccountSchema, contactsAccountSchema]);
export type Account = z.infer<typeof accountSchema>;
export const accountListSchema = z.array(accountSchema);

/** One step of a test: whether it worked, in words ("Receiving works." / "Sending: the server refused ..."). */
const testStepSchema = z.object({ ok: z.boolean(), problem: z.enum(CONNECTION_PROBLEMS).nullable(), message: z.string() });

/** POST /api/accounts/test: what worked, or which step failed and why. */
export const testConnectionResponseSchema = z.union([
  /**
   * A mail account: receiving (IMAP login, the folders) and sending (connect, TLS, AUTH, MAIL FROM with the address,
   * then RSET: nothing is sent); `message` says both in words. `ok` only when both work.
   */
  z.object({
    ok: z.boolean(),
    message: z.string(),
    folders: z.array(z.string()),
    receiving: testStepSchema,
    sending: testStepSchema.nullable(),
    problem: z.enum(CONNECTION_PROBLEMS).nullable(),
  }),
  /** A calendar account: the calendars found (a subscription is one) and how many events they hold. */
  z.object({ ok: z.literal(true), calendars: z.array(z.string()), events: z.number().int() }),
  /** A contacts account: the address books found and how many contacts they hold. */
  z.object({ ok: z.literal(true), addressBooks: z.array(z.string()), contacts: z.number().int() }),
  z.object({ ok: z.literal(false), problem: z.enum(CONNECTION_PROBLEMS), message: z.string() }),
]);
export type TestConnectionResponse = z.infer<typeof testConnectionResponseSchema>;

export const syncContactsText = (contacts: number) => `${contacts.toLocaleString("en-US")} ${contacts === 1 ? "contact" : "contacts"}`;

export const syncEventsText = (events: number) => `${events.toLocaleString("en-US")} ${events === 1 ? "event" : "events"}`;

/** A mail account synced but not yet searchable (issue 52 item 7): said instead of "Up to date". */
export const readingMessagesText = (messages: number) => `Reading ${messages.toLocaleString("en-US")} ${messages === 1 ? "message" : "messages"}`;

export const syncProgressText = (processed: number, total: number) =>
  `Synced ${processed.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} messages`;
