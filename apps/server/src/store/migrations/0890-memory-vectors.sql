-- Each memory's embedding for the vector half of choosing memories when they exceed a turn's budget. Made when
-- first needed, dropped when the memory's words change, replaced when SAGE's embedder changes.
CREATE TABLE memory_vectors (
  memory_id INTEGER PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
  embedder_id TEXT NOT NULL,
  vector BLOB NOT NULL
);
