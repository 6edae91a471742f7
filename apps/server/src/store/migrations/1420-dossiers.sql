-- Meeting dossiers (issue 53, decision 097): one per calendar event SAGE prepared, its cited lines (JSON) and the
-- "Meetings" conversation it was delivered in; and each user's lead time and calendars (JSON ids, null: all).
CREATE TABLE dossiers (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  event_id INTEGER NOT NULL,
  conversation_id INTEGER NOT NULL,
  lines TEXT NOT NULL,
  prepared_at TEXT NOT NULL
);
CREATE UNIQUE INDEX dossiers_by_event ON dossiers(user_id, event_id);

CREATE TABLE dossier_settings (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  minutes_before INTEGER NOT NULL DEFAULT 30,
  calendars TEXT,
  updated_at TEXT NOT NULL
);
