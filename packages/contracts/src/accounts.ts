import { z } from "zod";

/** Settings > Accounts: each user's own mail accounts (IMAP to read, SMTP to send), synced into the knowledge base. */

export const ACCOUNT_STATUSES = ["syncing", "ok", "error", "password-needed"] as const;
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
  kindInvalid: 'Only mail accounts can be connected so far: kind must be "mail"',
  foldersInvalid: "Folders must be a list of folder names",
  sinceDaysInvalid: `sinceDays must be a whole number of days from 1 to ${MAX_SINCE_DAYS}`,
  nothingToUpdate: "Nothing to update: send name, imap, smtp, folders or sinceDays",
} as const;

/** Why a connection failed, in words an executive understands; `problem` says which step failed. */
export const CONNECTION_PROBLEMS = ["dns", "tls", "login", "folder", "network", "timeout", "blocked"] as const;
export type ConnectionProblem = (typeof CONNECTION_PROBLEMS)[number];

export const connectionProblemMessage = (problem: ConnectionProblem, where: { host: string; port: number; folder?: string }): string => {
  switch (problem) {
    case "dns":
      return `The mail server ${where.host} could not be found. Check the server name.`;
    case "tls":
      return `A secure connection to ${where.host}:${where.port} could not be made. Check the port and the security setting (TLS on port 993, STARTTLS on 143).`;
    case "login":
      return "The mail server refused the user name or password. Gmail and Microsoft 365 need an app password here, not your usual password.";
    case "folder":
      return `The folder "${where.folder ?? ""}" does not exist on the mail server. Check the folder names.`;
    case "timeout":
      return `The mail server ${where.host}:${where.port} did not answer in time.`;
    case "blocked":
      return `${where.host} is on a local or private network. SAGE connects to such servers only when the administrator allows it (SAGE_FETCH_ALLOW_PRIVATE or SAGE_ACCOUNT_ALLOW_HOSTS).`;
    default:
      return `The mail server ${where.host}:${where.port} could not be reached. Check the server name and port.`;
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

/** POST /api/accounts (and POST /api/accounts/test, which checks the same fields without saving). */
export const createAccountRequestSchema = z.object({
  kind: z.literal("mail", { error: ACCOUNT_ERRORS.kindInvalid }),
  name: nameSchema,
  imap: serverInputSchema,
  smtp: z.preprocess(absentAsUndefined, serverInputSchema.optional()),
  folders: z.preprocess(absentAsUndefined, foldersSchema.default(DEFAULT_MAIL_FOLDERS)),
  sinceDays: z.preprocess(absentAsUndefined, sinceDaysSchema.default(DEFAULT_SINCE_DAYS)),
});
export type CreateAccountRequest = z.input<typeof createAccountRequestSchema>;
export type CreateAccountInput = z.output<typeof createAccountRequestSchema>;

/** PATCH /api/accounts/{id}: any of the fields; a server without a password keeps the stored one. */
export const updateAccountRequestSchema = z
  .object({
    name: z.preprocess(absentAsUndefined, nameSchema.optional()),
    imap: z.preprocess(absentAsUndefined, serverPatchSchema.optional()),
    smtp: z.preprocess(absentAsUndefined, serverPatchSchema.optional()),
    folders: z.preprocess(absentAsUndefined, foldersSchema.optional()),
    sinceDays: z.preprocess(absentAsUndefined, sinceDaysSchema.optional()),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { error: ACCOUNT_ERRORS.nothingToUpdate });
export type UpdateAccountRequest = z.input<typeof updateAccountRequestSchema>;
export type UpdateAccountInput = z.output<typeof updateAccountRequestSchema>;

/** A server as the API shows it: never its password or token. */
export const serverSchema = z.object({ host: z.string(), port: z.number().int(), secure: z.boolean(), user: z.string() });

export const accountSchema = z.object({
  id: z.number().int(),
  kind: z.literal("mail"),
  name: z.string(),
  status: z.enum(ACCOUNT_STATUSES),
  lastSyncAt: z.string().nullable(),
  /** Why the last sync failed, in plain words; null when it did not. */
  error: z.string().nullable(),
  counts: z.object({ messages: z.number().int().optional(), events: z.number().int().optional() }),
  /** While syncing: messages synced of those to sync ("Synced 1,240 of 10,000 messages"). */
  progress: z.object({ processed: z.number().int(), total: z.number().int() }).nullable(),
  imap: serverSchema,
  smtp: serverSchema.nullable(),
  folders: z.array(z.string()),
  sinceDays: z.number().int(),
  createdAt: z.string(),
});
export type Account = z.infer<typeof accountSchema>;
export const accountListSchema = z.array(accountSchema);

/** POST /api/accounts/test: what worked, or which step failed and why. */
export const testConnectionResponseSchema = z.union([
  z.object({ ok: z.literal(true), folders: z.array(z.string()) }),
  z.object({ ok: z.literal(false), problem: z.enum(CONNECTION_PROBLEMS), message: z.string() }),
]);
export type TestConnectionResponse = z.infer<typeof testConnectionResponseSchema>;

export const syncProgressText = (processed: number, total: number) =>
  `Synced ${processed.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} messages`;
