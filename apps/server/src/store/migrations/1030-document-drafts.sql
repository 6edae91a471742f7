-- The drafts documents are written from (the canvas, decision 047): the Markdown createDocument was given, edited by
-- the user or revised by the model, and the file last written from it. `model_version` is the version the model
-- last wrote or read, so a revision never overwrites edits the model has not seen.
CREATE TABLE document_drafts (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  format TEXT NOT NULL,
  title TEXT NOT NULL,
  content TEXT NOT NULL,
  citations TEXT NOT NULL DEFAULT '[]',
  version INTEGER NOT NULL DEFAULT 1,
  model_version INTEGER NOT NULL DEFAULT 1,
  file_id INTEGER REFERENCES knowledge_items(id) ON DELETE SET NULL,
  file_name TEXT,
  exported_version INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX document_drafts_by_conversation ON document_drafts(conversation_id, id);
