-- Mundaneum workspace schema, version 6: how far MergeIndex merges the full-text index.
--
-- Every FTS5 segment is one more b-tree to seek per query word: the crawl leaves up to seven
-- per level (automerge 8 keeps its writes cheap), and a million-page index had 22. At the
-- end of a crawl run, MergeIndex merges any level with two or more segments, which leaves
-- about one per level.
INSERT INTO page_fts(page_fts, rank) VALUES ('usermerge', 2);
