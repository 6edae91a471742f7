-- Twin of SQLite's 1050-shared-approvals.sql (decision 057).
CREATE TABLE approvals (
  id TEXT PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  request TEXT NOT NULL,
  answer TEXT CHECK (answer IN ('approved', 'declined', 'timed-out')),
  expires_at_ms BIGINT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX approvals_user ON approvals(user_id, expires_at_ms);
