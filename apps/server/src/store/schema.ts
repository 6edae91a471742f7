import type { Generated, Insertable, Selectable, Updateable } from "kysely";

/** Kysely's view of the tables (CamelCasePlugin maps to the snake_case columns). */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  passwordHash: string;
  createdAt: string;
}

export interface SessionsTable {
  tokenHash: string;
  userId: number;
  createdAt: string;
  expiresAtMs: number;
}

export interface ConversationsTable {
  id: Generated<number>;
  userId: number;
  name: Generated<string>;
  createdAt: string;
  updatedAt: string;
  /** Set when the user deleted it; restorable until the purge (decision 035). */
  deletedAt: string | null;
  /** A scheduled run wrote here since the user last opened it (migration 0986). */
  unreadSince: Generated<string | null>;
  /** When the user pinned it to the top of the list; null when not pinned. */
  pinnedAt: string | null;
  /** The model the user chose for it; null for the server's default. */
  model: string | null;
}

export interface MessagesTable {
  id: Generated<number>;
  conversationId: number;
  role: "user" | "model";
  content: string;
  createdAt: string;
  /** JSON arrays (NULL when empty): Citation[], ToolCallRecord[], and the user message's context Citation[] and MessageAttachment[]. */
  citations: string | null;
  toolCalls: string | null;
  context: string | null;
  attachments: string | null;
  /** The message this one follows (NULL: a first message); its siblings are branches (migration 1000, decision 045). */
  parentId: number | null;
  /** The highest rank in a conversation ends its active path. */
  branchRank: Generated<number>;
}

export interface RemindersTable {
  id: Generated<number>;
  userId: number;
  conversationId: number | null;
  title: string;
  description: Generated<string>;
  dueDate: string;
  priority: Generated<"high" | "medium" | "low">;
  type: Generated<"task" | "alert" | "reminder">;
  status: Generated<string>;
  createdAt: string;
  updatedAt: string;
  /** JSON ContentSource: made from a mail's or document's words (migration 1100); null when the user's own. */
  derivedFrom: string | null;
  /** 0 while a reminder made from content waits for the user's Keep. */
  kept: Generated<number>;
}

export type KnowledgeItemType = "file" | "url" | "note" | "folder";
export type KnowledgeItemStatus = "ready" | "queued" | "processing" | "failed" | "stored";

export interface KnowledgeItemsTable {
  id: Generated<number>;
  userId: number;
  conversationId: number | null;
  parentId: number | null;
  type: KnowledgeItemType;
  name: string;
  path: Generated<string>;
  description: Generated<string>;
  url: string | null;
  mimeType: string | null;
  size: Generated<number>;
  storageKey: string | null;
  contentHash: string | null;
  status: Generated<KnowledgeItemStatus>;
  statusReason: string | null;
  /** Set by the knowledge module from what the search index stored for the item. */
  chunkCount: Generated<number>;
  /** JSON arrays of 1-based pages read by text recognition, and pages it gave up on. */
  ocrPages: Generated<string>;
  ocrFailedPages: Generated<string>;
  /** A file SAGE generated: the names of the sources it was made from (JSON array); null for anything else. */
  madeFrom: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An item's text (a note's words), kept out of its row so that a status change never rewrites it (migration 0900). */
export interface KnowledgeItemTextsTable {
  itemId: number;
  content: string;
}

/** Filled by a trigger when an item with stored bytes is deleted; emptied once the file is removed. */
export interface BlobDeletionsTable {
  storageKey: string;
}

export type SnapshotReason = "import" | "reset" | "restore";

/** A snapshot of one user's knowledge (a backup zip under <data>/snapshots), taken before it is replaced. */
export interface KnowledgeSnapshotsTable {
  id: Generated<number>;
  userId: number;
  reason: SnapshotReason;
  fileName: string;
  files: number;
  links: number;
  notes: number;
  folders: number;
  bytes: number;
  createdAt: string;
}

/** Present while a user's knowledge is being replaced: the lock, and what to fall back to after a crash. */
export interface KnowledgeRestoresTable {
  userId: number;
  snapshotId: number | null;
  startedAt: string;
}

export type JobStatus = "queued" | "processing" | "done" | "failed";

export interface JobsTable {
  id: Generated<number>;
  userId: number;
  kind: string;
  itemId: number | null;
  status: Generated<JobStatus>;
  payload: Generated<string>;
  processed: Generated<number>;
  total: Generated<number>;
  attempts: Generated<number>;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  /** The process running the job (job-queue.ts), and until when its claim holds unless renewed. */
  leaseOwner: string | null;
  leaseExpiresMs: number | null;
  /** Names the work of a job queued at most once (a scheduled run's schedule and due time; migration 1300). */
  uniqueKey: Generated<string | null>;
}

/** A tool call waiting for its user's answer, shared by the processes on one PostgreSQL database (decision 057). */
export interface ApprovalsTable {
  id: string;
  userId: number;
  /** The ApprovalRequest the card shows, as JSON. */
  request: string;
  answer: "approved" | "declined" | "timed-out" | null;
  expiresAtMs: number;
  createdAt: string;
}

export interface MemoriesTable {
  id: Generated<number>;
  userId: number;
  content: string;
  source: "user" | "assistant";
  conversationId: number | null;
  createdAt: string;
  updatedAt: string;
  /** 1 when the start-up scan found it looks like a secret (0920). */
  flaggedSecret: Generated<number>;
  /** JSON ContentSource: kept by the user from a card whose words came from a mail or a document (1101, issue 47). */
  derivedFrom: string | null;
}

export interface MemoryVectorsTable {
  memoryId: number;
  embedderId: string;
  /** Float32 values, little-endian. */
  vector: Buffer;
}

export interface MemorySettingsTable {
  userId: number;
  enabled: number;
}

export interface ExternalToolSettingsTable {
  userId: number;
  server: string;
  tool: string;
  enabled: number;
  ask: number | null;
  updatedAt: string;
}

/** A remote MCP server a user added (migration 1250, decision 080). */
export interface McpServersTable {
  id: string;
  userId: number;
  name: string;
  url: string;
  createdAt: string;
}

/** A user's trust in a tool server's hints, by server id ("config:<name>" for the administrator's). */
export interface McpServerSettingsTable {
  userId: number;
  serverId: string;
  trusted: number;
  updatedAt: string;
}

/** Which sign-in grant holds a user's sign-in to a remote MCP server (migration 1251, decision 080). */
export interface McpSignInsTable {
  userId: number;
  serverId: string;
  grantId: number;
}

/** A connected account (migration 0950): settings as JSON without secrets; secrets encrypted (decision 030). */
export interface AccountsTable {
  id: Generated<number>;
  userId: number;
  kind: "mail" | "calendar" | "contacts";
  name: string;
  settings: string;
  secrets: string | null;
  status: Generated<"syncing" | "ok" | "error" | "password-needed" | "sign-in-needed">;
  error: string | null;
  lastSyncAt: string | null;
  syncProcessed: Generated<number>;
  syncTotal: Generated<number>;
  folderItemId: number | null;
  /** The sign-in the account uses instead of a password (migration 1150). */
  grantId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** One user's sign-in at one identity provider (migration 1150, decision 070): tokens sealed, never in the clear. */
export interface OAuthGrantsTable {
  id: Generated<number>;
  userId: number;
  provider: string;
  status: Generated<"pending" | "ok" | "sign-in-needed">;
  subject: string | null;
  login: string | null;
  displayName: string | null;
  scopes: Generated<string>;
  tokens: string | null;
  client: string | null;
  refreshLeaseUntilMs: number | null;
  createdAt: string;
  updatedAt: string;
}

/** A sign-in under way (migration 1150): its state's SHA-256, the sealed PKCE verifier, the browser that started it. */
export interface OAuthFlowsTable {
  stateHash: string;
  userId: number;
  grantId: number;
  secrets: string;
  browserHash: string;
  redirectUri: string;
  expiresAtMs: number;
}

export interface SchedulesTable {
  id: Generated<number>;
  userId: number;
  title: string;
  prompt: string;
  rrule: string;
  timezone: string;
  conversationId: number | null;
  paused: Generated<number>;
  /** The next occurrence (UTC ISO); null when paused or the rule has ended. */
  nextRunAt: string | null;
  /** A built-in schedule the server assembles ("briefing"), null for a prompt (migration 0986). */
  template: string | null;
  /** The template's JSON settings. */
  options: Generated<string>;
  createdAt: string;
  updatedAt: string;
  /** JSON ContentSource: its prompt came from a mail's or document's words (1102, issue 47); NULL: the user's own. */
  derivedFrom: string | null;
  /** What sets it off (1440, decision 105): "time", "mail", "before-event" or "webhook". */
  triggerKind: Generated<string>;
  /** The words a mail or an event's title must contain. */
  triggerMatch: Generated<string | null>;
  /** How long before the event a before-event trigger fires. */
  triggerMinutes: Generated<number | null>;
  /** The last synced mail a mail trigger looked at. */
  triggerAfterId: Generated<number | null>;
  /** SHA-256 (hex) of a webhook schedule's secret. */
  webhookSecretHash: Generated<string | null>;
}

/** Each thing that set a schedule off, once (1440, decision 105). */
export interface ScheduleTriggerEventsTable {
  id: Generated<number>;
  scheduleId: number;
  eventKey: string;
  createdAt: string;
}

export interface ScheduleRunsTable {
  id: Generated<number>;
  scheduleId: number;
  userId: number;
  dueAt: string;
  startedAt: string;
  finishedAt: string | null;
  status: "running" | "waiting-approval" | "succeeded" | "failed" | "not-approved" | "interrupted";
  late: Generated<number>;
  manual: Generated<number>;
  conversationId: number | null;
  /** JSON array of the ids of the messages the run wrote. */
  messageIds: Generated<string>;
  error: string | null;
}

/** The commitments ledger (migration 0985, decision 041). */
export interface CommitmentsTable {
  id: Generated<number>;
  userId: number;
  direction: "mine" | "owed-to-me";
  kind: "promise" | "request";
  owner: string;
  counterparty: string;
  what: string;
  /** YYYY-MM-DD or null. */
  dueDate: string | null;
  status: Generated<"open" | "done" | "dismissed">;
  quote: string;
  sourceKind: "mail" | "document" | "note" | "message";
  itemId: number | null;
  page: number | null;
  conversationId: number | null;
  messageId: number | null;
  sourceTitle: string;
  sourceDate: string | null;
  reminderId: number | null;
  createdAt: string;
  updatedAt: string;
  /** JSON ContentSource: read from a stranger's mail (migration 1103, decision 064); null when the user's own. */
  derivedFrom: string | null;
  /** 0 while a commitment from a stranger's mail waits for the user's Keep. */
  kept: Generated<number>;
}

/** A document's Markdown draft, editable in the canvas (migration 1030, decision 047). */
export interface DocumentDraftsTable {
  id: Generated<number>;
  userId: number;
  conversationId: number;
  format: "docx" | "pptx" | "xlsx" | "pdf";
  title: string;
  content: string;
  /** JSON: the passages its [n] marks name (Citation[]), kept from the turns that wrote it. */
  citations: Generated<string>;
  version: Generated<number>;
  modelVersion: Generated<number>;
  fileId: number | null;
  fileName: string | null;
  exportedVersion: number | null;
  createdAt: string;
  updatedAt: string;
}

/** Each source the ledger has read once: "item" (knowledge item id) or "message" (message id). */
export interface CommitmentScansTable {
  userId: number;
  sourceKind: "item" | "message";
  sourceId: number;
  scannedAt: string;
}

/** Web push (migration 0986): the VAPID key pair (private half sealed), subscriptions, switches, reminders pushed. */
export interface PushKeysTable {
  id: number;
  publicKey: string;
  privateKey: string;
  createdAt: string;
}
export interface PushSubscriptionsTable {
  id: Generated<number>;
  userId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  createdAt: string;
}
export interface PushSettingsTable {
  userId: number;
  reminders: Generated<number>;
  runs: Generated<number>;
  approvals: Generated<number>;
}
export interface PushSentRemindersTable {
  reminderId: number;
  dueDate: string;
}

/** A bot or mailbox a user connected as a channel (migration 1200, decisions 075-079). */
export interface ChannelsTable {
  id: Generated<number>;
  userId: number;
  kind: "telegram" | "slack" | "email";
  name: string;
  identity: string;
  /** Sealed JSON: the tokens. */
  secrets: string;
  /** JSON: the mail account and address, Slack's mode. */
  settings: Generated<string>;
  status: Generated<"unpaired" | "paired" | "error">;
  pairingHash: string | null;
  pairingExpiresAt: string | null;
  allowGroup: Generated<number>;
  chatId: string | null;
  chatUserId: string | null;
  chatTitle: string | null;
  chatGroup: Generated<number>;
  conversationId: number | null;
  cursor: string | null;
  error: string | null;
  failingSince: string | null;
  listenerOwner: string | null;
  listenerExpiresMs: number | null;
  createdAt: string;
}
export interface ChannelRefusalsTable {
  channelId: number;
  sender: string;
  title: string;
  count: Generated<number>;
  wrongCodes: Generated<number>;
  replied: Generated<number>;
  firstAt: string;
  lastAt: string;
}
export interface ChannelInboxTable {
  id: Generated<number>;
  channelId: number;
  externalId: string;
  body: string;
  createdAt: string;
}
export interface ChannelOutboxTable {
  id: Generated<number>;
  channelId: number;
  body: string;
  approvalId: string | null;
  status: Generated<"queued" | "sent" | "failed">;
  attempts: Generated<number>;
  nextAttemptMs: Generated<number>;
  claimedUntilMs: number | null;
  error: string | null;
  sentRef: string | null;
  createdAt: string;
  sentAt: string | null;
}
export interface NotificationTargetsTable {
  userId: number;
  kind: "briefing" | "reminders" | "runs" | "approvals";
  /** JSON array of "push" and "channel:ID". */
  targets: string;
}
export interface ChannelSentRemindersTable {
  reminderId: number;
  dueDate: string;
}

/** A client's login attempts in its current fixed window (decision 061). */
export interface LoginAttemptsTable {
  clientKey: string;
  windowStartedMs: number;
  attempts: number;
}

export interface MailFoldersTable {
  accountId: number;
  folder: string;
  uidValidity: string;
}

export interface MailMessagesTable {
  id: Generated<number>;
  accountId: number;
  userId: number;
  folder: string;
  uid: number;
  messageId: string | null;
  subject: string;
  fromAddress: string;
  toAddress: string;
  /** UTC ISO date-time, or null when the message has none. */
  date: string | null;
  itemId: number | null;
  /** Its References chain (References, else In-Reply-To), for a reply's References (migration 1150). */
  threadReferences: string | null;
}

/** A synced calendar object (migration 0970): one VCALENDAR resource as its server sent it. */
export interface CalendarObjectsTable {
  id: Generated<number>;
  accountId: number;
  href: string;
  calendarUrl: string | null;
  etag: string | null;
  ics: string;
}

/** One occurrence of a synced event, in UTC (migration 0970). */
export interface CalendarEventsTable {
  id: Generated<number>;
  accountId: number;
  userId: number;
  objectId: number;
  uid: string;
  recurrenceId: string | null;
  title: string;
  location: string;
  startAt: string;
  endAt: string;
  allDay: number;
  timeZone: string;
  /** JSON list of addresses. */
  attendees: string;
  busy: number;
  /** The invitation's DESCRIPTION, written by its organiser (migration 1100). */
  description: Generated<string>;
}

export interface CalendarPreferencesTable {
  userId: number;
  timeZone: string | null;
  feedTokenHash: string | null;
  feedToken: string | null;
  updatedAt: string;
}

/** A synced contact card (migration 1400): the vCard as its CardDAV server sent it, and what SAGE read from it. */
export interface ContactCardsTable {
  id: Generated<number>;
  accountId: number;
  userId: number;
  href: string;
  etag: string | null;
  uid: string;
  name: string;
  /** JSON list of lower-case addresses. */
  emails: Generated<string>;
  organisation: string | null;
  role: string | null;
  /** JSON list of the card's groups. */
  categories: Generated<string>;
  vcard: string;
}

/** A person the user deals with (migration 1400, decision 096). */
export interface PeopleTable {
  id: Generated<number>;
  userId: number;
  name: string;
  organisation: string | null;
  role: string | null;
  /** The contact card that names the person, when one does. */
  cardUid: string | null;
  /** JSON: what the user corrected ({ name, organisation, role, profile }), winning over sources and regeneration. */
  corrections: Generated<string>;
  /** JSON lines [{ text, citations }]: the model's profile. */
  profile: Generated<string>;
  profileAt: string | null;
  hidden: Generated<number>;
  createdAt: string;
  updatedAt: string;
}

export interface PersonAddressesTable {
  userId: number;
  address: string;
  personId: number;
  displayName: string | null;
  lastContactAt: string | null;
}

export interface PeopleSyncTable {
  userId: number;
  mailWatermark: Generated<number>;
  refreshedAt: string;
}

/** A mail SAGE sorted (migration 1410, decision 095). */
export interface MailTriageTable {
  messageId: number;
  userId: number;
  direction: "received" | "sent";
  label: "needs-reply" | "waiting-on-others" | "fyi" | "newsletter" | "automated";
  urgent: Generated<number>;
  reason: string;
  urgentReason: string | null;
  decidedBy: "rule" | "model";
  /** A sent mail: what it asked for; null when it asked nothing (or for received mail). */
  asked: string | null;
  draftAccountId: number | null;
  draftAccount: string | null;
  draftFolder: string | null;
  draftSubject: string | null;
  draftUid: number | null;
  draftAt: string | null;
  createdAt: string;
  /** Whether its label was written to the mail server as a keyword (migration 1445, decision 107). */
  inMailbox: Generated<number>;
}

export interface TriageSettingsTable {
  userId: number;
  /** Whether the user turned sorting on (each mail is one model call). */
  enabled: Generated<number>;
  /** JSON list of the user's rules, one sentence each. */
  rules: Generated<string>;
  /** JSON list of folders, or null for the INBOX. */
  folders: string | null;
  followUpDays: Generated<number>;
  drafts: Generated<number>;
  /** JSON: the writing style learned from Sent mail. */
  style: string | null;
  styleAt: string | null;
  updatedAt: string;
  /** Whether labels are written back as IMAP keywords ("Label in my mailbox", migration 1445, decision 107). */
  labelInMailbox: Generated<number>;
}

/** A meeting dossier (migration 1420, decision 097). */
export interface DossiersTable {
  id: Generated<number>;
  userId: number;
  eventId: number;
  conversationId: number;
  /** JSON list of cited lines. */
  lines: string;
  preparedAt: string;
}

export interface DossierSettingsTable {
  userId: number;
  minutesBefore: Generated<number>;
  /** JSON list of calendar account ids, or null for all. */
  calendars: string | null;
  updatedAt: string;
}

/** A note the user added after a meeting ("Add notes"), filed under its event (migration 1430, decision 099). */
export interface EventNotesTable {
  id: Generated<number>;
  userId: number;
  eventId: number;
  /** The knowledge base note holding the words. */
  itemId: number;
  createdAt: string;
}

/** A knowledge file shared by link (migration 1120, decision 068): only the token's hash is kept. */
export interface FileSharesTable {
  id: Generated<number>;
  userId: number;
  itemId: number;
  /** SHA-256 of the link's token, hex. */
  tokenHash: string;
  createdAt: string;
  expiresAt: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  reminders: RemindersTable;
  knowledgeItems: KnowledgeItemsTable;
  knowledgeItemTexts: KnowledgeItemTextsTable;
  blobDeletions: BlobDeletionsTable;
  jobs: JobsTable;
  approvals: ApprovalsTable;
  memories: MemoriesTable;
  memorySettings: MemorySettingsTable;
  memoryVectors: MemoryVectorsTable;
  knowledgeSnapshots: KnowledgeSnapshotsTable;
  knowledgeRestores: KnowledgeRestoresTable;
  externalToolSettings: ExternalToolSettingsTable;
  mcpServers: McpServersTable;
  mcpServerSettings: McpServerSettingsTable;
  mcpSignIns: McpSignInsTable;
  accounts: AccountsTable;
  mailFolders: MailFoldersTable;
  mailMessages: MailMessagesTable;
  schedules: SchedulesTable;
  scheduleRuns: ScheduleRunsTable;
  scheduleTriggerEvents: ScheduleTriggerEventsTable;
  calendarObjects: CalendarObjectsTable;
  calendarEvents: CalendarEventsTable;
  calendarPreferences: CalendarPreferencesTable;
  commitments: CommitmentsTable;
  commitmentScans: CommitmentScansTable;
  pushKeys: PushKeysTable;
  pushSubscriptions: PushSubscriptionsTable;
  pushSettings: PushSettingsTable;
  pushSentReminders: PushSentRemindersTable;
  documentDrafts: DocumentDraftsTable;
  loginAttempts: LoginAttemptsTable;
  oauthGrants: OAuthGrantsTable;
  oauthFlows: OAuthFlowsTable;
  channels: ChannelsTable;
  channelRefusals: ChannelRefusalsTable;
  channelInbox: ChannelInboxTable;
  channelOutbox: ChannelOutboxTable;
  notificationTargets: NotificationTargetsTable;
  channelSentReminders: ChannelSentRemindersTable;
  contactCards: ContactCardsTable;
  people: PeopleTable;
  personAddresses: PersonAddressesTable;
  peopleSync: PeopleSyncTable;
  mailTriage: MailTriageTable;
  triageSettings: TriageSettingsTable;
  dossiers: DossiersTable;
  dossierSettings: DossierSettingsTable;
  eventNotes: EventNotesTable;
  fileShares: FileSharesTable;
}
// chunks, chunks_fts and chunk_vectors are the search index's own tables (modules/retrieval/index), written and
// read there with SQL; they are left out here so nothing else reaches them through Kysely.

export type UserRow = Selectable<UsersTable>;
export type ConversationRow = Selectable<ConversationsTable>;
export type MessageRow = Selectable<MessagesTable>;
export type ReminderRow = Selectable<RemindersTable>;
export type KnowledgeItemRow = Selectable<KnowledgeItemsTable>;
/** An item with its text ('' when it has none), as the API shows it. */
export type KnowledgeItemWithText = KnowledgeItemRow & { content: string };
/** An item as written by the knowledge module: `content` goes to knowledge_item_texts. */
export type NewKnowledgeItem = Insertable<KnowledgeItemsTable> & { content?: string };
export type KnowledgeItemUpdate = Updateable<KnowledgeItemsTable> & { content?: string };
export type JobRow = Selectable<JobsTable>;
export type AccountRow = Selectable<AccountsTable>;
export type KnowledgeSnapshotRow = Selectable<KnowledgeSnapshotsTable>;
