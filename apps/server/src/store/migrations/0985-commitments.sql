-- The commitments ledger (decision 041): who owes what to whom by when, each read by the model from one source
-- (a knowledge item: synced mail, note, document; or a user's message in a conversation) with the sentence quoted.
-- A deleted source takes its commitments with it.
CREATE TABLE commitments (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  direction TEXT NOT NULL,
  kind TEXT NOT NULL,
  owner TEXT NOT NULL,
  counterparty TEXT NOT NULL,
  what TEXT NOT NULL,
  due_date TEXT,
  status TEXT NOT NULL DEFAULT 'open',
  quote TEXT NOT NULL,
  source_kind TEXT NOT NULL,
  item_id INTEGER REFERENCES knowledge_items(id) ON DELETE CASCADE,
  page INTEGER,
  conversation_id INTEGER REFERENCES conversations(id) ON DELETE CASCADE,
  message_id INTEGER REFERENCES messages(id) ON DELETE CASCADE,
  source_title TEXT NOT NULL,
  source_date TEXT,
  reminder_id INTEGER REFERENCES reminders(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX commitments_by_user ON commitments(user_id, status, due_date);

-- What the ledger has read, so each item is read once ("new items only"): knowledge items by id, messages by id.
CREATE TABLE commitment_scans (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  source_kind TEXT NOT NULL,
  source_id INTEGER NOT NULL,
  scanned_at TEXT NOT NULL,
  PRIMARY KEY (source_kind, source_id)
) WITHOUT ROWID;
