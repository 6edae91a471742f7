-- Each user's scheduled prompts (decision 036). `rrule` is the RFC 5545 text as given (DTSTART and RRULE lines);
-- `next_run_at` is the next occurrence in UTC, kept so the scheduler finds due schedules with one indexed query.
CREATE TABLE schedules (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  prompt TEXT NOT NULL,
  rrule TEXT NOT NULL,
  timezone TEXT NOT NULL,
  conversation_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL,
  paused INTEGER NOT NULL DEFAULT 0,
  next_run_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX schedules_by_user ON schedules(user_id);
CREATE INDEX schedules_due ON schedules(next_run_at) WHERE paused = 0 AND next_run_at IS NOT NULL;

-- One row per occurrence run: the row is the claim. UNIQUE(schedule_id, due_at) makes a second claim of the same
-- occurrence (another tick, a restart) fail, so each occurrence runs at most once.
CREATE TABLE schedule_runs (
  id INTEGER PRIMARY KEY,
  schedule_id INTEGER NOT NULL REFERENCES schedules(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  due_at TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  status TEXT NOT NULL,
  late INTEGER NOT NULL DEFAULT 0,
  manual INTEGER NOT NULL DEFAULT 0,
  conversation_id INTEGER,
  message_ids TEXT NOT NULL DEFAULT '[]',
  error TEXT,
  UNIQUE (schedule_id, due_at)
);
CREATE INDEX schedule_runs_by_status ON schedule_runs(status);
