-- Twin of SQLite's 1070-login-attempts.sql (decision 061).
CREATE TABLE login_attempts (
  client_key TEXT NOT NULL PRIMARY KEY,
  window_started_ms BIGINT NOT NULL,
  attempts BIGINT NOT NULL
);
CREATE INDEX login_attempts_window ON login_attempts (window_started_ms);
