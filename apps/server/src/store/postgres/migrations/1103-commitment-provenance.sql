-- Twin of SQLite's 1103-commitment-provenance.sql (issue 47, decision 064).
ALTER TABLE commitments ADD COLUMN derived_from TEXT;
ALTER TABLE commitments ADD COLUMN kept BIGINT NOT NULL DEFAULT 1;
