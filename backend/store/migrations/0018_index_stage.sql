-- Mundaneum workspace schema, version 18: the full-text index leaves the workspace.
--
-- The index is derived data. It now lives in a file of its own beside the workspace
-- (backend/index: "<workspace>-index"), written by its own writer behind the crawl's, and
-- rebuilt from what is stored here when it is missing or stale. What it reads:

-- The extracted text of a fetched page (title, headings and body, separated by NUL bytes),
-- stored once: compressed ('zstd'), or as it was when an older workspace was upgraded
-- ('none'). A duplicate (pages.duplicate_of) has none: its text is its original's. The
-- index holds no copy of it (its tables are contentless); snippets and the document view
-- read it here.
CREATE TABLE page_text (
    page_id INTEGER PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
    codec   TEXT    NOT NULL,
    data    BLOB    NOT NULL
);

-- The pages whose index row may have changed, in the order the changes committed: new or
-- gone text, a resource's citations, and (anchors = 1) new anchor text of links pointing
-- at the page, which the index refreshes later and in bulk. The index remembers the last
-- seq it applied and the page it named; applied entries are trimmed, that last one kept,
-- so seq never goes back and an index older or newer than the workspace is recognised.
CREATE TABLE index_log (
    seq     INTEGER PRIMARY KEY,
    page_id INTEGER NOT NULL,
    anchors INTEGER NOT NULL DEFAULT 0
);

-- Move the text out of the old index (resources' rows hold only what cites them: they are
-- built from links again).
INSERT INTO page_text(page_id, codec, data)
    SELECT f.rowid, 'none', CAST(replace(coalesce(f.title, ''), char(0), '') || char(0) ||
        replace(coalesce(f.headings, ''), char(0), '') || char(0) || replace(coalesce(f.body, ''), char(0), '') AS BLOB)
    FROM page_fts f JOIN pages p ON p.id = f.rowid
    WHERE NOT (p.state = 'skipped' AND p.reason = 'type');

-- The index reads the distinct anchor texts of the links to a page: with the anchor in the
-- index of links by target, it seeks from one to the next instead of reading every link
-- (a page cited by 50,000 links with 16 distinct anchors: 17 seeks). The index still
-- serves every lookup by target.
DROP INDEX links_to;
CREATE INDEX links_to ON links(to_id, anchor);

-- Which workspace an index file belongs to (a workspace copied over another is not
-- indexed with the other's index).
INSERT INTO settings(key, value) VALUES ('workspace', json_object('id', lower(hex(randomblob(16)))))
    ON CONFLICT(key) DO NOTHING;

DROP TABLE page_vocab;
DROP TABLE page_pairs;
DROP TABLE page_fts;
DROP TABLE pair_words;
DROP TABLE pair_state;
DROP TABLE fts_dirty;
