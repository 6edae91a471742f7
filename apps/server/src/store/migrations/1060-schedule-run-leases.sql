-- Which process runs a scheduled run, and until when its claim holds unless renewed (decision 058): with several
-- processes on one PostgreSQL database, a process that starts marks interrupted only the runs whose lease ran out,
-- not those another process is running. SQLite keeps the columns for one schema.
ALTER TABLE schedule_runs ADD COLUMN lease_owner TEXT;
ALTER TABLE schedule_runs ADD COLUMN lease_expires_ms INTEGER;
