-- Twin of SQLite's 1102-schedule-provenance.sql (issue 47, decision 062).
ALTER TABLE schedules ADD COLUMN derived_from TEXT;
