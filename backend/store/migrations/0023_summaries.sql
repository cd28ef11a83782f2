-- Mundaneum workspace schema, version 23: type-specific summaries (issue 14, Harvest's Essence).
--
-- pages.summariser names the summariser that made the page's summary (backend/summary:
-- html, text, markdown, feed, pdf, gzip, zip, tar); NULL for pages summarised before it
-- was recorded (HTML or text) and for pages never fetched.
--
-- summary_attrs holds each fetched page's type-specific attributes as (name, value) pairs,
-- in the order the summariser found them (seq): a PDF's title, author, pages, keywords,
-- subject, created, creator and producer; a feed's title, author and entries; an archive's
-- members; a compressed file's inner summariser. They are automatic and replaced whenever
-- the page's content is summarised again; the user's own notes and tags live in the library
-- (lib_nodes), which no crawl writes. Read them generically, one SOIF attribute per row:
--   SELECT p.url, p.summariser, a.name, a.value FROM pages p JOIN summary_attrs a
--   ON a.page_id = p.id ORDER BY p.id, a.seq
-- num is the value as a number when it is one (pages), for comparisons (pages:>10).
ALTER TABLE pages ADD COLUMN summariser TEXT;

CREATE TABLE summary_attrs (
    page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    name    TEXT    NOT NULL,
    value   TEXT    NOT NULL,
    num     REAL,
    PRIMARY KEY (page_id, seq)
) WITHOUT ROWID;

CREATE INDEX summary_attrs_name ON summary_attrs(name, num);
