-- Files shared by link (issue 47, decision 068): anyone with the link opens the file, read-only, until it expires or
-- the user stops sharing (the row is deleted). Only the token's SHA-256 is kept; deleting the file ends its links.
CREATE TABLE file_shares (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  item_id INTEGER NOT NULL REFERENCES knowledge_items(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX file_shares_by_user ON file_shares(user_id, expires_at);
CREATE INDEX file_shares_by_item ON file_shares(item_id);
