-- Issue 52 item 11 (decision 091): a file SAGE generated (createDocument, reviseDocument, a canvas export) keeps the
-- names of the sources it was made from, as a JSON array; NULL for everything else. Search ranks such a file below
-- those sources, and a citation of it names them.
ALTER TABLE knowledge_items ADD COLUMN made_from TEXT;
