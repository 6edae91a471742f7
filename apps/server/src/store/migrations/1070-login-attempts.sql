-- Login attempts per client in the current window (decision 061): in the database, so that every process behind a
-- balancer counts the same attempts; one process on SQLite uses the same table.
CREATE TABLE login_attempts (
  client_key TEXT NOT NULL PRIMARY KEY,
  window_started_ms INTEGER NOT NULL,
  attempts INTEGER NOT NULL
);
CREATE INDEX login_attempts_window ON login_attempts (window_started_ms);
