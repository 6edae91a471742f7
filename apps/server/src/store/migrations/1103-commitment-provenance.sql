-- Where a commitment came from (issue 47, decision 064): one read from the mail of a stranger (a sender the user
-- never wrote to) records that mail (JSON: { title, fileId?, messageId? }) and is not the user's until they keep it
-- (kept = 0): the briefing, the people pages, dossiers and the assistant's listCommitments leave it out. Rows from
-- before are the user's, as they were.
ALTER TABLE commitments ADD COLUMN derived_from TEXT;
ALTER TABLE commitments ADD COLUMN kept INTEGER NOT NULL DEFAULT 1;
