-- Mundaneum workspace schema: Harvest's Gatherer/Broker exchange (issue 14, section 2).
--
-- 1. The summaries in the order their changes committed. A page's row here is replaced
--    (and so takes the next seq) each time its content changes; AUTOINCREMENT never hands
--    a seq out twice. Every write goes through one writer in turn, so a reader that sees
--    seq N sees every change below N: a peer's cursor is "the last seq I applied", exact
--    where a time cursor is not (two changes in the same millisecond, or one committed a
--    batch after another with an earlier time).
CREATE TABLE summary_log (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    page_id INTEGER NOT NULL UNIQUE REFERENCES pages(id) ON DELETE CASCADE
);
CREATE TRIGGER summary_log_change AFTER UPDATE OF changed_at ON pages
WHEN new.changed_at IS NOT old.changed_at AND new.hash IS NOT NULL
BEGIN
    INSERT OR REPLACE INTO summary_log(page_id) VALUES (new.id);
END;
INSERT INTO summary_log(page_id)
    SELECT id FROM pages WHERE hash IS NOT NULL ORDER BY coalesce(changed_at, fetched_at), id;

-- 2. The read-only tokens this workspace issued to other instances: only their SHA-256 is
--    kept (a token is 32 random bytes: a fast hash is enough, there is nothing to guess).
CREATE TABLE exchange_tokens (
    id         INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    hash       TEXT    NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER,
    used_at    INTEGER,
    uses       INTEGER NOT NULL DEFAULT 0
);

-- 3. Where summaries came from: another instance (kind 'peer': its address and the token
--    it issued us, which must be sent, so it is kept as given) or a SOIF file (kind
--    'file'). cursor is the peer's last seq applied; its pages join crawl_id (an import
--    crawl: search crawl:N narrows to them).
CREATE TABLE sources (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL,
    url         TEXT    NOT NULL,
    token       TEXT,
    name        TEXT    NOT NULL DEFAULT '',
    crawl_id    INTEGER REFERENCES crawls(id) ON DELETE SET NULL,
    cursor      INTEGER NOT NULL DEFAULT 0,
    cursor_time INTEGER,
    created_at  INTEGER NOT NULL,
    pulled_at   INTEGER,
    summaries   INTEGER NOT NULL DEFAULT 0,
    error       TEXT
);
CREATE UNIQUE INDEX sources_peer ON sources(url) WHERE kind = 'peer';

-- The source of a page's summary, for the content (hash) it brought: once the page is
-- crawled here with other content, the mark no longer applies.
CREATE TABLE page_sources (
    page_id   INTEGER PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
    source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    hash      TEXT    NOT NULL
);
CREATE INDEX page_sources_source ON page_sources(source_id);
