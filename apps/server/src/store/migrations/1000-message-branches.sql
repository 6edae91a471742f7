-- Edit and regenerate keep what they replace (issue 32, decision 045): messages form a tree. parent_id is the
-- message a message answers or follows (NULL: the conversation's first message, or an edit of it); siblings are
-- the branches shown as < 2/3 >. branch_rank says which branch was shown last: the message with the highest rank
-- is the active path's end, and the active path is it and its ancestors. Existing conversations become one path.
ALTER TABLE messages ADD COLUMN parent_id INTEGER REFERENCES messages(id) ON DELETE CASCADE;
ALTER TABLE messages ADD COLUMN branch_rank INTEGER NOT NULL DEFAULT 0;
UPDATE messages
SET parent_id = (SELECT MAX(p.id) FROM messages p WHERE p.conversation_id = messages.conversation_id AND p.id < messages.id),
    branch_rank = id;
CREATE INDEX messages_parent ON messages(parent_id);
CREATE INDEX messages_conversation_rank ON messages(conversation_id, branch_rank);
