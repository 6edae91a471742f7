-- Each user's connected accounts (mail over IMAP/SMTP so far). `settings` is JSON without secrets (servers, user
-- names, folders, sinceDays); `secrets` is the passwords and tokens, encrypted with AES-256-GCM under a key kept
-- outside the database (decision 030). `folder_item_id` is the knowledge folder the account's mail is synced into;
-- deleting the account deletes that folder, and with it every message it synced.
CREATE TABLE accounts (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  settings TEXT NOT NULL,
  secrets TEXT,
  status TEXT NOT NULL DEFAULT 'ok',
  error TEXT,
  last_sync_at TEXT,
  -- The running sync's progress: messages fetched of those it found to fetch.
  sync_processed INTEGER NOT NULL DEFAULT 0,
  sync_total INTEGER NOT NULL DEFAULT 0,
  folder_item_id INTEGER REFERENCES knowledge_items(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX accounts_by_user ON accounts(user_id);

-- Where each synced IMAP folder stands: a new UIDVALIDITY means the server renumbered it, so it is synced afresh.
CREATE TABLE mail_folders (
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  folder TEXT NOT NULL,
  uid_validity TEXT NOT NULL,
  PRIMARY KEY (account_id, folder)
) WITHOUT ROWID;

-- One row per synced message: its headers for searchMail's filters and citations, and the knowledge item that
-- holds its text (the .eml, read in a conversion process like any upload).
CREATE TABLE mail_messages (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  folder TEXT NOT NULL,
  uid INTEGER NOT NULL,
  message_id TEXT,
  subject TEXT NOT NULL,
  from_address TEXT NOT NULL,
  to_address TEXT NOT NULL,
  date TEXT,
  item_id INTEGER REFERENCES knowledge_items(id) ON DELETE SET NULL,
  UNIQUE (account_id, folder, uid)
);
CREATE INDEX mail_messages_by_user_date ON mail_messages(user_id, date);
CREATE INDEX mail_messages_by_item ON mail_messages(item_id);
