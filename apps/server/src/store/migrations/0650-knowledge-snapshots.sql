-- Automatic snapshots of a user's knowledge, taken before every import, reset and snapshot restore (the zip
-- lives in <data>/snapshots/<file_name>; the counts are what the Settings list shows).
CREATE TABLE knowledge_snapshots (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  reason TEXT NOT NULL CHECK (reason IN ('import', 'reset', 'restore')),
  file_name TEXT NOT NULL UNIQUE,
  files INTEGER NOT NULL,
  links INTEGER NOT NULL,
  notes INTEGER NOT NULL,
  folders INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX knowledge_snapshots_user ON knowledge_snapshots(user_id, id);

-- One row while a user's knowledge is being replaced (an import or a snapshot restore). It is the per-user lock,
-- and a row found at start-up means the process died part-way: the snapshot taken just before is restored.
CREATE TABLE knowledge_restores (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  snapshot_id INTEGER REFERENCES knowledge_snapshots(id) ON DELETE SET NULL,
  started_at TEXT NOT NULL
);

-- A restore deletes and re-creates a user's items in batches. Deleting an item looks up its children and its
-- jobs through foreign keys; without these indexes each of those lookups scanned the whole table.
CREATE INDEX knowledge_items_parent ON knowledge_items(parent_id);
CREATE INDEX jobs_item ON jobs(item_id);

-- GET /api/files lists a user's items by type, name and id a page at a time (300,000 items are 111 MB of JSON):
-- each page is a range of this index instead of a sort of every item.
CREATE INDEX knowledge_items_user_listing ON knowledge_items(user_id, type, name, id);
