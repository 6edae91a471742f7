-- Twin of SQLite's 1445-label-in-mailbox.sql (decision 107).
ALTER TABLE triage_settings ADD COLUMN label_in_mailbox BIGINT NOT NULL DEFAULT 0;
ALTER TABLE mail_triage ADD COLUMN in_mailbox BIGINT NOT NULL DEFAULT 0;
