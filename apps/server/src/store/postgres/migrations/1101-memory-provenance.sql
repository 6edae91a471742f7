-- Twin of SQLite's 1101-memory-provenance.sql (issue 47, decision 062).
ALTER TABLE memories ADD COLUMN derived_from TEXT;
