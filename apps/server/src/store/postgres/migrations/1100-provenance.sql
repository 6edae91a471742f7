-- Twin of SQLite's 1100-provenance.sql (issue 47, decision 062).
ALTER TABLE reminders ADD COLUMN derived_from TEXT;
ALTER TABLE reminders ADD COLUMN kept BIGINT NOT NULL DEFAULT 1;
ALTER TABLE calendar_events ADD COLUMN description TEXT NOT NULL DEFAULT '';
