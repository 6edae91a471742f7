-- Scheduled runs are jobs of the one queue (decision 086): a job may name its work with a unique key (a scheduled
-- run's schedule and due time), so it is queued once whichever process or tick gets there first; the queue's own
-- leases, crash recovery and multi-process claims serve schedules, and the runs' own leases (1060) go.
ALTER TABLE jobs ADD COLUMN unique_key TEXT;
CREATE UNIQUE INDEX jobs_unique_key ON jobs (unique_key);
ALTER TABLE schedule_runs DROP COLUMN lease_owner;
ALTER TABLE schedule_runs DROP COLUMN lease_expires_ms;
-- Runs left going by a process of the version before: no job will end them, so they end here as a restart ended them.
UPDATE schedule_runs SET status = 'interrupted', finished_at = started_at, error = 'The server stopped during this run; it was not run again.'
WHERE status IN ('running', 'waiting-approval');
