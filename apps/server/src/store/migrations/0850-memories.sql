-- Memories: short facts about the user that every assistant turn is given. A memory outlives the conversation
-- it was saved in (the link is only where it came from).
CREATE TABLE memories (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  content TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('user', 'assistant')),
  conversation_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX memories_user ON memories(user_id, id);

-- "Let SAGE remember", per user; no row means on.
CREATE TABLE memory_settings (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  enabled INTEGER NOT NULL
);
