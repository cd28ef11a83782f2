-- Mundaneum workspace schema, version 19: every version of a page's content (issue 15).
--
-- A version is a content a page had, from when it was first fetched (fetched_at) to when the
-- server last answered with it again (confirmed_at: a 304, or a 200 with the same body;
-- confirmed_status says which). Its body is the blob of the same hash: bodies are stored
-- once per distinct content, so a page that does not change costs one row, and a version
-- whose body another page or version has costs no body at all. A retention setting (the
-- settings row 'history') bounds how many versions a page keeps; a body no page and no
-- version names any more is deleted with the last version that named it.
--
-- header is the response's status line and header lines as received (NULL when unknown:
-- versions older than this table, and imports without them); flag says that a 200 answer
-- was in fact an error page (soft-404) or a parked domain (parked). crawl_id is the crawl,
-- or the import, that brought the version.
CREATE TABLE versions (
    id               INTEGER PRIMARY KEY,
    page_id          INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    hash             TEXT    NOT NULL,
    fetched_at       INTEGER NOT NULL,
    confirmed_at     INTEGER,
    confirmed_status INTEGER,
    status           INTEGER NOT NULL,
    size             INTEGER NOT NULL,
    content_type     TEXT,
    charset          TEXT,
    title            TEXT,
    header           TEXT,
    flag             TEXT,
    crawl_id         INTEGER REFERENCES crawls(id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX versions_page ON versions(page_id, fetched_at, hash);
CREATE INDEX versions_hash ON versions(hash);

-- The content each fetched page has now is its first version.
INSERT INTO versions(page_id, hash, fetched_at, confirmed_at, confirmed_status, status, size, content_type,
        charset, title, crawl_id)
    SELECT id, hash, coalesce(changed_at, fetched_at, discovered_at),
        CASE WHEN fetched_at > coalesce(changed_at, fetched_at) THEN fetched_at END,
        CASE WHEN fetched_at > coalesce(changed_at, fetched_at) THEN status END,
        CASE WHEN status BETWEEN 200 AND 299 THEN status ELSE 200 END, coalesce(size, 0), content_type,
        charset, title, crawl_id
    FROM pages WHERE hash IS NOT NULL;
