-- A deleted conversation is kept, with its messages, files and reminders, for 30 days so it can be restored
-- (decision 035); the purge then deletes it for good. Live lists read only rows with deleted_at NULL.
ALTER TABLE conversations ADD COLUMN deleted_at TEXT;
CREATE INDEX conversations_deleted ON conversations(deleted_at) WHERE deleted_at IS NOT NULL;
