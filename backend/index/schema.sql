-- The index file of a Mundaneum workspace ("<workspace>-index"): derived data, rebuilt from
-- the workspace when it is missing, stale or of another version (PRAGMA user_version).

-- Where the index stands: which workspace it indexes, the last note of the workspace's
-- index_log it applied (and the page that note named, to recognise a workspace that is
-- older or newer than the index), and a rebuild's progress.
CREATE TABLE index_state (
    id              INTEGER PRIMARY KEY CHECK (id = 1),
    workspace       TEXT    NOT NULL,
    generation      INTEGER NOT NULL,      -- counts rebuilds (searches reset what they cache)
    applied         INTEGER NOT NULL,      -- index_log seq applied
    applied_page    INTEGER NOT NULL,      -- the page that note named (0 when applied = 0)
    rebuilding      INTEGER NOT NULL,      -- 1 while a rebuild walks the stored pages
    rebuilt_through INTEGER NOT NULL,      -- the rebuild's last page done
    rows            INTEGER NOT NULL,      -- rows of page_fts
    fix             TEXT    NOT NULL DEFAULT '' -- totals to take off FTS5's (see totals.go)
);

-- Pages whose incoming anchor text changed after they were indexed: their rows are
-- rewritten in bulk, when the index has caught up with the crawl (or after a while).
CREATE TABLE deferred (
    page_id INTEGER PRIMARY KEY,
    since   INTEGER NOT NULL                -- unix ms
);

-- A digest of each row's text (index.Doc.Sum): a page noted again whose row would be the
-- same (a new link with anchor text the row has, a page fetched again unchanged) is not
-- written again.
CREATE TABLE row_sums (
    page_id INTEGER PRIMARY KEY,
    sum     INTEGER NOT NULL
);

-- The word index; rowid = pages.id. Contentless: the text is stored once, in the
-- workspace (page_text), compressed. A prefix index of 2 characters only: a longer prefix
-- is asked as the OR of its terms, which search lists from the index's own leaves
-- (backend/search, expand.go), but a 2-letter one has thousands.
CREATE VIRTUAL TABLE page_fts USING fts5(
    title, headings, body, anchors, url,
    content = '', contentless_delete = 1,
    prefix = '2',
    tokenize = 'unicode61 remove_diacritics 2'
);
-- Fewer, larger merges while indexing; queries stay fast because an idle index merges
-- its segments (usermerge 2).
INSERT INTO page_fts(page_fts, rank) VALUES ('automerge', 8);
INSERT INTO page_fts(page_fts, rank) VALUES ('crisismerge', 32);
INSERT INTO page_fts(page_fts, rank) VALUES ('usermerge', 2);

-- The terms with their document and occurrence counts (spelling suggestions).
CREATE VIRTUAL TABLE page_vocab USING fts5vocab(page_fts, 'row');

-- Adjacent pairs of frequent words (backend/pairs): a phrase of common words is found from
-- short doclists. Same columns and rowids as page_fts.
CREATE VIRTUAL TABLE page_pairs USING fts5(
    title, headings, body, anchors, url,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO page_pairs(page_pairs, rank) VALUES ('automerge', 8);
INSERT INTO page_pairs(page_pairs, rank) VALUES ('crisismerge', 32);
INSERT INTO page_pairs(page_pairs, rank) VALUES ('usermerge', 2);

-- The frequent words, chosen once the index is large enough (see pairs.go). Every
-- page_pairs row is written with these words.
CREATE TABLE pair_words (
    word TEXT PRIMARY KEY
) WITHOUT ROWID;

-- How far page_pairs is built: rows up to built_to have their pairs row (rows indexed
-- later get theirs when written, or are noted in pair_missing). Search asks page_pairs
-- once complete and nothing is missing.
CREATE TABLE pair_state (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    chosen_at_rows INTEGER NOT NULL,
    built_to       INTEGER NOT NULL,
    complete       INTEGER NOT NULL
);

-- Rows written without their pairs row while the stage caught up with a crawl (past
-- PairsMinRows the pairs row was most of a row's cost): the idle pairs step writes them.
-- Search asks page_pairs only when pair_state is complete and this table is empty.
CREATE TABLE pair_missing (
    page_id INTEGER PRIMARY KEY
);
