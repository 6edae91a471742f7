-- Twin of SQLite's 1350-generated-file-sources.sql (decision 091).
ALTER TABLE knowledge_items ADD COLUMN made_from TEXT;
