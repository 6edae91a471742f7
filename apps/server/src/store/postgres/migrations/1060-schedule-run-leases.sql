-- Twin of SQLite's 1060-schedule-run-leases.sql (decision 058).
ALTER TABLE schedule_runs ADD COLUMN lease_owner TEXT, ADD COLUMN lease_expires_ms BIGINT;
