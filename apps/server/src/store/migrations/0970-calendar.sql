-- Calendar accounts (decision 037): a CalDAV account or an ICS subscription is an `accounts` row of kind
-- 'calendar'. Each synced calendar object (one VCALENDAR resource, with its recurring master and exceptions) is
-- kept as the server sent it, so the occurrences can be expanded again as the window moves; `calendar_events`
-- holds those occurrences, in UTC, for listEvents and findFreeTime. Deleting the account deletes both.
CREATE TABLE calendar_objects (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  -- The object's URL on the CalDAV server; for an ICS subscription, the event's UID.
  href TEXT NOT NULL,
  calendar_url TEXT,
  etag TEXT,
  ics TEXT NOT NULL,
  UNIQUE (account_id, href)
);

CREATE TABLE calendar_events (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  object_id INTEGER NOT NULL REFERENCES calendar_objects(id) ON DELETE CASCADE,
  uid TEXT NOT NULL,
  -- A recurring event's occurrence: its original start (UTC ISO); null for a single event.
  recurrence_id TEXT,
  title TEXT NOT NULL,
  location TEXT NOT NULL DEFAULT '',
  -- UTC ISO instants; an all-day event runs from midnight to midnight in the user's time zone at sync time.
  start_at TEXT NOT NULL,
  end_at TEXT NOT NULL,
  all_day INTEGER NOT NULL DEFAULT 0,
  -- The zone the event was written in (IANA name), or '' for UTC, floating and all-day times.
  time_zone TEXT NOT NULL DEFAULT '',
  attendees TEXT NOT NULL DEFAULT '[]',
  -- TRANSP:TRANSPARENT or STATUS:CANCELLED: shown, but the time stays free.
  busy INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX calendar_events_by_user_start ON calendar_events(user_id, start_at);
CREATE INDEX calendar_events_by_object ON calendar_events(object_id);

-- Per user: the time zone read for floating and all-day times and working hours, and the secret reminders feed
-- (its token sealed like account secrets, with a SHA-256 hash to find it by).
CREATE TABLE calendar_preferences (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  time_zone TEXT,
  feed_token_hash TEXT UNIQUE,
  feed_token TEXT,
  updated_at TEXT NOT NULL
);
