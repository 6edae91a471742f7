-- Twin of SQLite's 1410-triage.sql (decision 095).
CREATE TABLE mail_triage (
  message_id BIGINT PRIMARY KEY REFERENCES mail_messages(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  direction TEXT NOT NULL,
  label TEXT NOT NULL,
  urgent BIGINT NOT NULL DEFAULT 0,
  reason TEXT NOT NULL,
  urgent_reason TEXT,
  decided_by TEXT NOT NULL,
  asked TEXT,
  draft_account_id BIGINT REFERENCES accounts(id) ON DELETE SET NULL,
  draft_account TEXT,
  draft_folder TEXT,
  draft_subject TEXT,
  draft_uid BIGINT,
  draft_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX mail_triage_by_user_label ON mail_triage(user_id, direction, label);

CREATE TABLE triage_settings (
  user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  enabled BIGINT NOT NULL DEFAULT 0,
  rules TEXT NOT NULL DEFAULT '[]',
  folders TEXT,
  follow_up_days BIGINT NOT NULL DEFAULT 3,
  drafts BIGINT NOT NULL DEFAULT 1,
  style TEXT,
  style_at TEXT,
  updated_at TEXT NOT NULL
);
