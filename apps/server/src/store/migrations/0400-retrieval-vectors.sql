-- Retrieval: per-term document counts for calibrated BM25 scores, and chunk vectors.
CREATE VIRTUAL TABLE chunks_fts_vocab USING fts5vocab(chunks_fts, 'row');

-- One vector per chunk and embedder. The float32 vector is the source of truth (exact re-ranking, export);
-- a chunk's vectors vanish with it through the cascade, wherever the chunk is deleted from.
CREATE TABLE chunk_vectors (
  chunk_id INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
  embedder_id TEXT NOT NULL,
  dimensions INTEGER NOT NULL,
  user_id INTEGER NOT NULL,
  conversation_id INTEGER,
  vector BLOB NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (chunk_id, embedder_id)
) WITHOUT ROWID;
CREATE INDEX chunk_vectors_scope ON chunk_vectors(embedder_id, user_id, conversation_id);
