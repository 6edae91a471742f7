-- Which process runs a job, and until when its claim holds unless renewed (decision 053). With several SAGE
-- processes on one PostgreSQL database, a process that starts must not take back the jobs another is running, and
-- the jobs of a process that died are taken over once their lease runs out. SQLite keeps the columns for one schema.
ALTER TABLE jobs ADD COLUMN lease_owner TEXT;
ALTER TABLE jobs ADD COLUMN lease_expires_ms INTEGER;
