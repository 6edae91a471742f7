-- An item's text (a note's words) lives in a table of its own. SQLite rewrites a whole record on every UPDATE,
-- overflow pages included: with the text in knowledge_items, each status change of a 0.9 MB note's ingestion
-- rewrote 0.9 MB (2-21 ms), and reading the item for its status read the text too. Now a status change writes a
-- few bytes, and the text is read only where it is wanted. Items without text have no row here.
CREATE TABLE knowledge_item_texts (
  item_id INTEGER PRIMARY KEY REFERENCES knowledge_items(id) ON DELETE CASCADE,
  content TEXT NOT NULL
);
INSERT INTO knowledge_item_texts (item_id, content) SELECT id, content FROM knowledge_items WHERE content <> '';
ALTER TABLE knowledge_items DROP COLUMN content;
