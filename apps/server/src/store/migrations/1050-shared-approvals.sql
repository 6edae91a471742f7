-- Tool calls waiting for their user's answer, where every SAGE process sharing a PostgreSQL database can list and
-- answer them (decision 057). SQLite's single process keeps them in memory; the table is here for one schema.
CREATE TABLE approvals (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  request TEXT NOT NULL,
  answer TEXT CHECK (answer IN ('approved', 'declined', 'timed-out')),
  expires_at_ms INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX approvals_user ON approvals(user_id, expires_at_ms);
