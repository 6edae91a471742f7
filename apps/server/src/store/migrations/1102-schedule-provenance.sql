-- Where a schedule's prompt came from (issue 47, decision 062): one the user approved from a card whose words came
-- from a mail or a document records that source (JSON: { title, fileId?, messageId? }); each run reads the prompt as
-- that content, not as text the user typed. NULL: the user's own.
ALTER TABLE schedules ADD COLUMN derived_from TEXT;
