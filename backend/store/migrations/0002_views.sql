-- Mundaneum workspace schema, version 2: saved views and the index's vocabulary.

-- Saved views: Harvest's standing queries. A view is re-evaluated when opened and tells
-- how many of its results are new (changed_at later than opened_at).
CREATE TABLE views (
    id         INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL UNIQUE,
    query      TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,         -- the query last changed
    opened_at  INTEGER,                  -- last opened (NULL: never)
    last_total INTEGER                   -- results when last opened
);

-- The terms of the full-text index with their document and occurrence counts (read-only;
-- search uses it for spelling suggestions).
CREATE VIRTUAL TABLE page_vocab USING fts5vocab(page_fts, 'row');
