-- The files a user attached to a message (issue 32), as JSON (NULL when none): [{ fileId, name, mimeType }].
-- Kept with the message so they show after a reload even once the file is renamed or deleted.
ALTER TABLE messages ADD COLUMN attachments TEXT;
