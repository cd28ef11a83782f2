-- Mundaneum workspace schema: page requisites, for reading offline (issue 27).
--
-- A crawl that asks for its pages' requisites (--requisites, wget's -p) stores the style
-- sheets, images and fonts they need to look like themselves offline. Every fetch of one is
-- a row of requisites, by canonical URL and time: what answered (status, media type) and,
-- when it was kept, its body's hash. An offline copy takes, of each requisite, the fetch
-- nearest in time to the page's own (a web archive's replay), so an old version of a page
-- shows the style sheet it had then, when that was kept. Each URL keeps its newest few
-- fetches.
--
-- Bodies are stored once per content in requisite_bodies, apart from the pages' blobs:
-- they have a life of their own (the retention of page versions never touches them; a body
-- goes with the last fetch that names it).
CREATE TABLE requisites (
    url          TEXT    NOT NULL,   -- canonical (urlnorm)
    fetched_at   INTEGER NOT NULL,
    kind         TEXT    NOT NULL,   -- stylesheet | image | font
    status       INTEGER NOT NULL,   -- HTTP status; 0: no answer
    content_type TEXT    NOT NULL DEFAULT '',
    hash         TEXT,               -- sha256 of the body in requisite_bodies; NULL: not kept
    error        TEXT,               -- why it was not kept
    PRIMARY KEY (url, fetched_at)
) WITHOUT ROWID;
CREATE INDEX requisites_hash ON requisites(hash) WHERE hash IS NOT NULL;

CREATE TABLE requisite_bodies (
    id    INTEGER PRIMARY KEY,
    hash  TEXT    NOT NULL UNIQUE,
    codec TEXT    NOT NULL,          -- zstd | identity (images and fonts are compressed already)
    size  INTEGER NOT NULL,          -- uncompressed bytes
    data  BLOB    NOT NULL
);

-- The page bodies whose requisites a crawl has gathered: a run fetches the requisites of
-- the pages it fetched that are not here with their current body, so a run stopped midway
-- (or a crawl asked for requisites later) catches up.
CREATE TABLE requisite_pages (
    page_id INTEGER PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
    hash    TEXT    NOT NULL,
    at      INTEGER NOT NULL
);
