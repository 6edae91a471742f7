-- Twin of SQLite's 1040-job-leases.sql (decision 053).
ALTER TABLE jobs ADD COLUMN lease_owner TEXT, ADD COLUMN lease_expires_ms BIGINT;
