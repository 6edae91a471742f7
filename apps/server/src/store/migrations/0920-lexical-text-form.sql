-- How each user's full-text table holds text (modules/retrieval/index/lexical-index.ts, TEXT_FORM). Tables made
-- before this are form 1 (the text as written); the search index makes them again in the current form when it
-- starts, from `chunks`, so nothing saved is touched. Decision 028.
ALTER TABLE lexical_users ADD COLUMN text_form INTEGER NOT NULL DEFAULT 1;
