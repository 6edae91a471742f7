-- Which pages of an item were read by text recognition, and which it gave up on (JSON arrays of 1-based page
-- numbers), so the item can say so; '[]' for everything ingested before.
ALTER TABLE knowledge_items ADD COLUMN ocr_pages TEXT NOT NULL DEFAULT '[]';
ALTER TABLE knowledge_items ADD COLUMN ocr_failed_pages TEXT NOT NULL DEFAULT '[]';
