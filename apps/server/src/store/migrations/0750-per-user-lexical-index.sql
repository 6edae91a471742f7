-- BM25 statistics (row count, average length, document frequency) are FTS5's own, per table. With one table for
-- everybody, a user's scores moved with words in other users' knowledge, so a score told whether another user
-- held a word. Each user now gets a table of their own (chunks_fts_<user id>, made by the search index in
-- modules/retrieval/index/lexical-index.ts with triggers of its own), and these two tables track them:
-- the users whose table exists, and chunks written before their user's table did (this migration's backlog, or
-- rows written straight to the store), which the index takes in before it next answers for that user.
CREATE TABLE lexical_users (user_id INTEGER PRIMARY KEY);
CREATE TABLE lexical_pending (
  chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL
);
CREATE INDEX lexical_pending_user ON lexical_pending(user_id);

DROP TRIGGER chunks_fts_insert;
DROP TRIGGER chunks_fts_delete;
DROP TRIGGER chunks_fts_rename;
DROP TABLE chunks_fts_vocab;
DROP TABLE chunks_fts;

INSERT INTO lexical_pending (chunk_id, user_id) SELECT id, user_id FROM chunks;
CREATE TRIGGER chunks_lexical_pending AFTER INSERT ON chunks
WHEN NOT EXISTS (SELECT 1 FROM lexical_users WHERE user_id = new.user_id) BEGIN
  INSERT INTO lexical_pending (chunk_id, user_id) VALUES (new.id, new.user_id);
END;
