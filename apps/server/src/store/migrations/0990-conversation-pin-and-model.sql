-- A conversation can be pinned to the top of the list (pinned_at: when, newest pin first) and remember the model
-- the user chose for it (NULL: the server's default chat model). Issue 32.
ALTER TABLE conversations ADD COLUMN pinned_at TEXT;
ALTER TABLE conversations ADD COLUMN model TEXT;
