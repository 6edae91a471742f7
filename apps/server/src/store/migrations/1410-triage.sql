-- The triaged inbox (issue 53, decision 095). One row per synced mail SAGE sorted: its label, why, whether it is
-- urgent and why, and who decided (one of the user's rules, or the model). A mail the user sent gets a row too:
-- `asked` is what it asked for (null when it asked nothing), for "Waiting on others". The prepared draft (a reply,
-- or a nudge for a sent mail) is where the save put it; SAGE only ever replaces its own draft by that UID.
CREATE TABLE mail_triage (
  message_id INTEGER PRIMARY KEY REFERENCES mail_messages(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- 'received' (sorted under a label) or 'sent' (read for what it asked, for follow-ups).
  direction TEXT NOT NULL,
  label TEXT NOT NULL,
  urgent INTEGER NOT NULL DEFAULT 0,
  reason TEXT NOT NULL,
  urgent_reason TEXT,
  decided_by TEXT NOT NULL,
  asked TEXT,
  draft_account_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
  draft_account TEXT,
  draft_folder TEXT,
  draft_subject TEXT,
  draft_uid INTEGER,
  draft_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX mail_triage_by_user_label ON mail_triage(user_id, direction, label);

-- Each user's triage settings: whether sorting is on, their rules (JSON list of sentences), the folders sorted (JSON,
-- null: the INBOX), working days before a follow-up, whether drafts are prepared ahead, and the writing
-- style learned from their Sent mail (JSON) with when it was learned.
CREATE TABLE triage_settings (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  enabled INTEGER NOT NULL DEFAULT 0,
  rules TEXT NOT NULL DEFAULT '[]',
  folders TEXT,
  follow_up_days INTEGER NOT NULL DEFAULT 3,
  drafts INTEGER NOT NULL DEFAULT 1,
  style TEXT,
  style_at TEXT,
  updated_at TEXT NOT NULL
);
