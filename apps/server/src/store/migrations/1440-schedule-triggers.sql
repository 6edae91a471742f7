-- Schedules set off by something happening (issue 53, decision 105): `trigger_kind` 'time' (the rule's occurrences,
-- as before), 'mail' (a synced mail containing `trigger_match`), 'before-event' (`trigger_minutes` before an event
-- whose title contains `trigger_match`) or 'webhook' (a POST to /api/hooks/{secret}; only the secret's SHA-256 is
-- kept). `trigger_after_id`: the last synced mail a mail trigger looked at (it never fires for mail older than itself).
ALTER TABLE schedules ADD COLUMN trigger_kind TEXT NOT NULL DEFAULT 'time';
ALTER TABLE schedules ADD COLUMN trigger_match TEXT;
ALTER TABLE schedules ADD COLUMN trigger_minutes INTEGER;
ALTER TABLE schedules ADD COLUMN trigger_after_id INTEGER;
ALTER TABLE schedules ADD COLUMN webhook_secret_hash TEXT;
CREATE UNIQUE INDEX schedules_by_webhook ON schedules(webhook_secret_hash) WHERE webhook_secret_hash IS NOT NULL;
CREATE INDEX schedules_by_trigger ON schedules(trigger_kind, user_id) WHERE trigger_kind <> 'time';

-- Each thing that set a schedule off, once: a mail, an event's occurrence, a webhook delivery's Idempotency-Key.
-- UNIQUE(schedule_id, event_key) makes a second sync, tick or delivery of the same thing run nothing.
CREATE TABLE schedule_trigger_events (
  id INTEGER PRIMARY KEY,
  schedule_id INTEGER NOT NULL REFERENCES schedules(id) ON DELETE CASCADE,
  event_key TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (schedule_id, event_key)
);
