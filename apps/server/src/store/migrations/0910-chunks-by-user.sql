-- A user's chunks in id order: vectorising and re-vectorising page through them by `user_id = ? AND id > ?`.
-- With only chunks_scope (user_id, conversation_id) every page read all of the user's chunks and sorted them:
-- 4.4 ms a page at 10,000 chunks, 0.46 ms with this index.
CREATE INDEX chunks_user_id ON chunks(user_id, id);
