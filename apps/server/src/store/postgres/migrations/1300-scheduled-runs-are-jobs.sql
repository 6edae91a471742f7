-- Twin of SQLite's 1300-scheduled-runs-are-jobs.sql (decision 086).
ALTER TABLE jobs ADD COLUMN unique_key TEXT;
CREATE UNIQUE INDEX jobs_unique_key ON jobs (unique_key);
ALTER TABLE schedule_runs DROP COLUMN lease_owner, DROP COLUMN lease_expires_ms;
-- Runs left going by a process of the version before: no job will end them, so they end here as a restart ended them.
UPDATE schedule_runs SET status = 'interrupted', finished_at = started_at, error = 'The server stopped during this run; it was not run again.'
WHERE status IN ('running', 'waiting-approval');
