-- Where a memory came from (issue 47, decision 062): one the user kept from a card whose words came from a mail or a
-- document records that source (JSON: { title, fileId?, messageId? }), so it is shown as such. NULL: the user's own.
ALTER TABLE memories ADD COLUMN derived_from TEXT;
