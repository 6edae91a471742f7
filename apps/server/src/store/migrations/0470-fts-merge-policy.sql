-- FTS5 merges a level's segments once it holds `automerge` of them (default 4). Ingestion commits a segment
-- per 100-chunk batch, so with 4 every posting was rewritten at about every 4x of growth; 8 halves the passes
-- (docs/benchmarks.md has the figures). A setting, not a schema change: the index is untouched.
INSERT INTO chunks_fts(chunks_fts, rank) VALUES('automerge', 8);
