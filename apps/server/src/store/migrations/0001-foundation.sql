-- Core schema shared by every module. Times are ISO-8601 UTC text unless named *_ms.
CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  username TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash TEXT NOT NULL,
  created_at TEXT NOT NULL
);

-- The cookie carries a random token; only its SHA-256 is stored, so a copied database opens no session.
CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  expires_at_ms INTEGER NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE conversations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX conversations_user_created ON conversations(user_id, created_at);

CREATE TABLE messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('user', 'model')),
  content TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX messages_conversation ON messages(conversation_id, id);

CREATE TABLE reminders (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  conversation_id INTEGER REFERENCES conversations(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  due_date TEXT NOT NULL,
  priority TEXT NOT NULL DEFAULT 'medium' CHECK (priority IN ('high', 'medium', 'low')),
  type TEXT NOT NULL DEFAULT 'reminder' CHECK (type IN ('task', 'alert', 'reminder')),
  status TEXT NOT NULL DEFAULT 'unread',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX reminders_user_due ON reminders(user_id, due_date);
CREATE INDEX reminders_conversation ON reminders(conversation_id);

-- Knowledge items form a tree. conversation_id NULL is the system knowledge base (the API's 0).
CREATE TABLE knowledge_items (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  conversation_id INTEGER REFERENCES conversations(id) ON DELETE CASCADE,
  parent_id INTEGER REFERENCES knowledge_items(id) ON DELETE CASCADE,
  type TEXT NOT NULL CHECK (type IN ('file', 'url', 'note', 'folder')),
  name TEXT NOT NULL,
  path TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL DEFAULT '',
  url TEXT,
  mime_type TEXT,
  size INTEGER NOT NULL DEFAULT 0,
  storage_key TEXT,
  content_hash TEXT,
  status TEXT NOT NULL DEFAULT 'ready' CHECK (status IN ('ready', 'queued', 'processing', 'failed', 'stored')),
  status_reason TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX knowledge_items_user_parent ON knowledge_items(user_id, parent_id);
CREATE INDEX knowledge_items_conversation ON knowledge_items(conversation_id);

-- user_id and conversation_id are copied from the item so scoped search needs no join.
CREATE TABLE chunks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  item_id INTEGER NOT NULL REFERENCES knowledge_items(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL,
  conversation_id INTEGER,
  position INTEGER NOT NULL,
  source TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX chunks_item ON chunks(item_id, position);
CREATE INDEX chunks_scope ON chunks(user_id, conversation_id);

-- BM25 index over chunk text and the item's name; rowid = chunks.id. Kept in step by triggers.
CREATE VIRTUAL TABLE chunks_fts USING fts5(
  title, content,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER chunks_fts_insert AFTER INSERT ON chunks BEGIN
  INSERT INTO chunks_fts(rowid, title, content)
  SELECT new.id, ki.name, new.content FROM knowledge_items ki WHERE ki.id = new.item_id;
END;
CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
  DELETE FROM chunks_fts WHERE rowid = old.id;
END;
CREATE TRIGGER chunks_fts_rename AFTER UPDATE OF name ON knowledge_items BEGIN
  DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE item_id = new.id);
  INSERT INTO chunks_fts(rowid, title, content) SELECT id, new.name, content FROM chunks WHERE item_id = new.id;
END;

-- Background work (ingestion, re-vectorising) that must survive a restart.
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  item_id INTEGER REFERENCES knowledge_items(id) ON DELETE CASCADE,
  status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'processing', 'done', 'failed')),
  payload TEXT NOT NULL DEFAULT '{}',
  processed INTEGER NOT NULL DEFAULT 0,
  total INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX jobs_status ON jobs(status, id);
