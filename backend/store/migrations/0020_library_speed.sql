-- Mundaneum workspace schema, version 20: the library's speed (issue 12's figures).
--
-- 1. Counts below each library, stored: a library's page shows, for itself and for each of
--    its sub-libraries, how many libraries and postings are below it at any depth, and
--    recounting them by a range scan of lib_path at every open read every node below.
--    libs_below and postings_below are kept exact by:
--      - inserts: the store's InsertMany (the only INSERT into lib_nodes) adds what it
--        inserted to the ancestors, once per ancestor for a whole import;
--      - moves: the store's Move takes the subtree's counts from the old ancestors and gives
--        them to the new ones;
--      - deletes: the trigger below, row by row, whatever deletes (a subtree, or a saved
--        view whose placed postings go with it by ON DELETE CASCADE).
--    A test recounts after every operation (backend/library/counts_test.go).
--
-- 2. The node path in the library's full-text index: path "/1/5/17/" indexes the tokens
--    1, 5 and 17 in the column path, so that folder:PATH (the subtree of node 5) is the
--    term {path} : "5", intersected with the words inside FTS5 instead of a lookup of every
--    matching node's path. Text queries name the other columns; the search code says which.
--
-- 3. Prefix indexes of 2 and 3 characters (0016 had 3 only). The porter stemmer stems the
--    prefix of a query too, and a 3-letter prefix often stems to 2 ("abe*" is "ab*", "abs*"
--    is "ab*"): without a 2-character index, FTS5 merges the doclists of every term with
--    that prefix at each query (50-100 ms when it is in most of a 100,000-posting library;
--    1 ms through the index). It costs an import ~0.1-0.7 s of CPU per 100,000 bookmarks.

-- 4. A library's sub-libraries, apart: its page lists them first, and finding them among
--    10,000 postings by lib_by_title read every child's row for its kind. Libraries are
--    few (about 1 node in 100 in a big import): a small index to keep.

CREATE INDEX lib_libraries ON lib_nodes(parent_id, title COLLATE NOCASE) WHERE kind = 'library';

ALTER TABLE lib_nodes ADD COLUMN libs_below INTEGER NOT NULL DEFAULT 0;
ALTER TABLE lib_nodes ADD COLUMN postings_below INTEGER NOT NULL DEFAULT 0;

UPDATE lib_nodes AS l SET
    libs_below = (SELECT count(*) FROM lib_nodes d WHERE d.path > l.path AND d.path < substr(l.path, 1, length(l.path) - 1) || '0' AND d.kind = 'library'),
    postings_below = (SELECT count(*) FROM lib_nodes d WHERE d.path > l.path AND d.path < substr(l.path, 1, length(l.path) - 1) || '0' AND d.kind <> 'library')
    WHERE l.kind = 'library';

DROP TRIGGER lib_nodes_update;
DROP TRIGGER lib_nodes_delete;
DROP TABLE lib_fts;

CREATE VIRTUAL TABLE lib_fts USING fts5(
    title, url, notes, tags, body, path,
    content = 'lib_nodes', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2',
    prefix = '2 3'
);
INSERT INTO lib_fts(lib_fts, rank) VALUES ('automerge', 8);
-- The root (id 1) is never in lib_fts (see 0016).
INSERT INTO lib_fts(rowid, title, url, notes, tags, body, path)
    SELECT id, title, url, notes, tags, body, path FROM lib_nodes WHERE id <> 1;

CREATE TRIGGER lib_nodes_update AFTER UPDATE OF title, url, notes, tags, body, path ON lib_nodes BEGIN
    INSERT INTO lib_fts(lib_fts, rowid, title, url, notes, tags, body, path)
        SELECT 'delete', old.id, old.title, old.url, old.notes, old.tags, old.body, old.path WHERE old.id <> 1;
    INSERT INTO lib_fts(rowid, title, url, notes, tags, body, path)
        SELECT new.id, new.title, new.url, new.notes, new.tags, new.body, new.path WHERE new.id <> 1;
    DELETE FROM lib_tags WHERE node_id = new.id AND new.tags IS NOT old.tags;
    INSERT OR IGNORE INTO lib_tags(tag, node_id) SELECT value, new.id FROM json_each(new.tags)
        WHERE new.tags IS NOT old.tags AND new.tags <> '[]';
END;
CREATE TRIGGER lib_nodes_delete AFTER DELETE ON lib_nodes BEGIN
    INSERT INTO lib_fts(lib_fts, rowid, title, url, notes, tags, body, path)
        SELECT 'delete', old.id, old.title, old.url, old.notes, old.tags, old.body, old.path WHERE old.id <> 1;
    UPDATE lib_nodes SET libs_below = libs_below - (old.kind = 'library'),
        postings_below = postings_below - (old.kind <> 'library')
        WHERE id IN (SELECT value FROM json_each('[' || replace(trim(old.path, '/'), '/', ',') || ']')) AND id <> old.id;
END;
