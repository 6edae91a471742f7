-- Knowledge items carry their chunk count: the knowledge module owns items, the search index owns chunks, and
-- listing items (tens of thousands for some users) no longer counts chunks per row.
ALTER TABLE knowledge_items ADD COLUMN chunk_count INTEGER NOT NULL DEFAULT 0;
UPDATE knowledge_items SET chunk_count = (SELECT count(*) FROM chunks WHERE chunks.item_id = knowledge_items.id);

-- Stored uploads whose item is gone, however it went (its own delete, a folder's, a conversation's cascade,
-- an import). The knowledge module removes the files and then these rows; a crash in between only delays it.
CREATE TABLE blob_deletions (storage_key TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TRIGGER knowledge_items_blob_deletion AFTER DELETE ON knowledge_items WHEN old.storage_key IS NOT NULL BEGIN
  INSERT OR IGNORE INTO blob_deletions (storage_key) VALUES (old.storage_key);
END;
