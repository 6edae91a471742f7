-- "Label in my mailbox" (issue 53, decision 107): off unless the user turns it on; when on, each sorted mail's label
-- is written back to the mail server as an IMAP keyword, and the row remembers that it was (so mail sorted before the
-- user turned it on is labelled too, and a failed write is tried again at the next round).
ALTER TABLE triage_settings ADD COLUMN label_in_mailbox INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mail_triage ADD COLUMN in_mailbox INTEGER NOT NULL DEFAULT 0;
