-- A built-in schedule (decision 041): `template` names what the server assembles at each run instead of a turn
-- ("briefing": the morning briefing); `options` is its JSON settings (the news topics).
ALTER TABLE schedules ADD COLUMN template TEXT;
ALTER TABLE schedules ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
CREATE UNIQUE INDEX schedules_one_briefing ON schedules(user_id) WHERE template = 'briefing';

-- When a scheduled run wrote into the conversation that the user has not opened since; NULL once opened.
ALTER TABLE conversations ADD COLUMN unread_since TEXT;

-- Web push (decision 041): the server's VAPID key pair, made once, its private half sealed like account secrets.
CREATE TABLE push_keys (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  public_key TEXT NOT NULL,
  private_key TEXT NOT NULL,
  created_at TEXT NOT NULL
);
-- Each browser or phone a user turned notifications on in; the push service's endpoint is unique.
CREATE TABLE push_subscriptions (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  endpoint TEXT NOT NULL UNIQUE,
  p256dh TEXT NOT NULL,
  auth TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX push_subscriptions_by_user ON push_subscriptions(user_id);
-- Which kinds a user wants pushed (all on until switched off).
CREATE TABLE push_settings (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  reminders INTEGER NOT NULL DEFAULT 1,
  runs INTEGER NOT NULL DEFAULT 1,
  approvals INTEGER NOT NULL DEFAULT 1
);
-- Reminders already pushed at their due time, so each is pushed once.
CREATE TABLE push_sent_reminders (
  reminder_id INTEGER PRIMARY KEY REFERENCES reminders(id) ON DELETE CASCADE,
  due_date TEXT NOT NULL
);
