-- A built-in schedule (decision 041): `template` names what the server assembles at each run instead of a turn
-- ("briefing": the morning briefing); `options` is its JSON settings (the news topics).
ALTER TABLE schedules ADD COLUMN template TEXT;
ALTER TABLE schedules ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
CREATE UNIQUE INDEX schedules_one_briefing ON schedules(user_id) WHERE template = 'briefing';

-- When a scheduled run wrote into the conversation that the user has not opened since; NULL once opened.
ALTER TABLE conversations ADD COLUMN unread_since TEXT;
