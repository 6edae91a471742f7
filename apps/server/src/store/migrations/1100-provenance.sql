-- Where what SAGE keeps came from (issue 47, decision 062). A reminder the assistant made from a mail's or a
-- document's words records that source (JSON: { title, fileId?, messageId? }) and is not the user's until they keep
-- it (kept = 0). Rows from before are the user's, as they were.
ALTER TABLE reminders ADD COLUMN derived_from TEXT;
ALTER TABLE reminders ADD COLUMN kept INTEGER NOT NULL DEFAULT 1;
-- An invitation's description (DESCRIPTION): text its organiser wrote, given to the model as content.
ALTER TABLE calendar_events ADD COLUMN description TEXT NOT NULL DEFAULT '';
