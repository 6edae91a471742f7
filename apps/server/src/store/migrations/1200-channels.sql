-- Channels (issue 49, decisions 075-079): a bot or mailbox each user connects, paired with one chat of theirs.
-- Tokens are sealed with the secret key like account passwords; a pairing code is kept only as its hash.
CREATE TABLE channels (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('telegram', 'slack', 'email')),
  -- The bot's @name, the Slack workspace and bot, or the e-mail address written to.
  name TEXT NOT NULL,
  -- What identifies the bot across users (a token's bot id, a Slack team and app, an address): one user per bot.
  identity TEXT NOT NULL UNIQUE,
  secrets TEXT NOT NULL,
  settings TEXT NOT NULL DEFAULT '{}',
  status TEXT NOT NULL DEFAULT 'unpaired' CHECK (status IN ('unpaired', 'paired', 'error')),
  pairing_hash TEXT,
  pairing_expires_at TEXT,
  allow_group INTEGER NOT NULL DEFAULT 0,
  chat_id TEXT,
  chat_user_id TEXT,
  chat_title TEXT,
  chat_group INTEGER NOT NULL DEFAULT 0,
  conversation_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL,
  -- Where receiving resumes: Telegram's update offset, the mailbox's last UID.
  cursor TEXT,
  error TEXT,
  failing_since TEXT,
  -- The process that listens to it, and until when its claim holds unless renewed.
  listener_owner TEXT,
  listener_expires_ms INTEGER,
  created_at TEXT NOT NULL
);
CREATE INDEX channels_by_user ON channels(user_id);

-- Messages from chats and people that are not the paired one: never read by the model, counted, refused once.
CREATE TABLE channel_refusals (
  channel_id INTEGER NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
  sender TEXT NOT NULL,
  title TEXT NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,
  wrong_codes INTEGER NOT NULL DEFAULT 0,
  replied INTEGER NOT NULL DEFAULT 0,
  first_at TEXT NOT NULL,
  last_at TEXT NOT NULL,
  PRIMARY KEY (channel_id, sender)
);

-- What arrived from the paired chat and is not answered yet: kept before the service is told it was received, so a
-- restart reads it again instead of losing it.
CREATE TABLE channel_inbox (
  id INTEGER PRIMARY KEY,
  channel_id INTEGER NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
  external_id TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (channel_id, external_id)
);

-- Every message SAGE sends to a channel, until the service took it: retried with backoff (429 retry_after
-- honoured), in order per channel; what failed for good stays counted and in the conversation.
CREATE TABLE channel_outbox (
  id INTEGER PRIMARY KEY,
  channel_id INTEGER NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
  body TEXT NOT NULL,
  -- An approval card: its buttons are closed when the approval is answered anywhere.
  approval_id TEXT,
  status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_ms INTEGER NOT NULL DEFAULT 0,
  claimed_until_ms INTEGER,
  error TEXT,
  sent_ref TEXT,
  created_at TEXT NOT NULL,
  sent_at TEXT
);
CREATE INDEX channel_outbox_queued ON channel_outbox(channel_id, status, id);
CREATE INDEX channel_outbox_approval ON channel_outbox(approval_id);

-- Where each kind of news reaches the user: "push" and "channel:ID" (PUT /api/notifications/targets).
CREATE TABLE notification_targets (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('briefing', 'reminders', 'runs', 'approvals')),
  targets TEXT NOT NULL,
  PRIMARY KEY (user_id, kind)
);

-- Reminders already delivered to a user's channels, per due date (a changed due date is delivered again).
CREATE TABLE channel_sent_reminders (
  reminder_id INTEGER PRIMARY KEY REFERENCES reminders(id) ON DELETE CASCADE,
  due_date TEXT NOT NULL
);
