-- Mundaneum workspace schema, version 1.
-- Times are unix milliseconds (UTC). Text columns hold extracted text, never raw HTML.

CREATE TABLE hosts (
    id                INTEGER PRIMARY KEY,
    origin            TEXT    NOT NULL UNIQUE,   -- scheme://host[:port], urlnorm.Origin
    robots_status     INTEGER,
    robots_body       BLOB,
    robots_fetched_at INTEGER,
    robots_expires_at INTEGER
);

CREATE TABLE crawls (
    id          INTEGER PRIMARY KEY,
    key         TEXT    NOT NULL,               -- scope + sorted seeds: "the same crawl" on re-run
    seeds       TEXT    NOT NULL,               -- JSON array of normalised seed URLs
    scope       TEXT    NOT NULL,               -- site | tree | domain | list
    config      TEXT    NOT NULL,               -- JSON: limits and politeness of the last run
    state       TEXT    NOT NULL,               -- running | paused | done | cancelled | failed
    runs        INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    started_at  INTEGER,
    finished_at INTEGER,
    fetched     INTEGER NOT NULL DEFAULT 0,     -- counters of the current run
    failed      INTEGER NOT NULL DEFAULT 0,
    skipped     INTEGER NOT NULL DEFAULT 0,
    bytes       INTEGER NOT NULL DEFAULT 0,
    error       TEXT
);
CREATE INDEX crawls_key ON crawls(key);

-- One row per canonical URL ever seen, fetched or only linked to.
CREATE TABLE pages (
    id            INTEGER PRIMARY KEY,
    url           TEXT    NOT NULL UNIQUE,
    host_id       INTEGER NOT NULL REFERENCES hosts(id),
    crawl_id      INTEGER REFERENCES crawls(id) ON DELETE SET NULL, -- the crawl that found it
    state         TEXT    NOT NULL,   -- queued | fetched | redirected | failed | skipped
    reason        TEXT,               -- closed code: why failed, skipped or redirected
    detail        TEXT,               -- human-readable detail (error text)
    status        INTEGER,            -- HTTP status of the last fetch
    final_url     TEXT,               -- redirect target
    content_type  TEXT,
    charset       TEXT,
    lang          TEXT,
    title         TEXT,
    description   TEXT,
    keywords      TEXT,
    author        TEXT,
    owner         TEXT,
    canonical     TEXT,
    size          INTEGER,            -- body bytes after content decoding
    hash          TEXT,               -- sha256 of the body: key into blobs
    duplicate_of  INTEGER REFERENCES pages(id) ON DELETE SET NULL,
    etag          TEXT,
    last_modified TEXT,
    expires       TEXT,
    depth         INTEGER,
    parent_id     INTEGER REFERENCES pages(id) ON DELETE SET NULL,
    problems      TEXT,               -- space-separated problem codes found in the HTML
    noindex       INTEGER NOT NULL DEFAULT 0,
    nofollow      INTEGER NOT NULL DEFAULT 0,
    discovered_at INTEGER NOT NULL,
    fetched_at    INTEGER,
    changed_at    INTEGER,
    refresh_at    INTEGER
);
CREATE INDEX pages_host  ON pages(host_id);
CREATE INDEX pages_state ON pages(state);
CREATE INDEX pages_crawl ON pages(crawl_id);
CREATE INDEX pages_hash  ON pages(hash) WHERE hash IS NOT NULL;

CREATE TABLE links (
    from_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    to_id   INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    kind    TEXT    NOT NULL,           -- a img area frame iframe link refresh redirect ...
    anchor  TEXT    NOT NULL DEFAULT '',
    rel     TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (from_id, to_id, kind)
) WITHOUT ROWID;
CREATE INDEX links_to ON links(to_id);

-- The object cache: page bodies as fetched (after content decoding), compressed, stored once
-- per distinct content.
CREATE TABLE blobs (
    id    INTEGER PRIMARY KEY,
    hash  TEXT    NOT NULL UNIQUE,      -- sha256 hex of the uncompressed body
    codec TEXT    NOT NULL,             -- zstd
    size  INTEGER NOT NULL,             -- uncompressed bytes
    data  BLOB    NOT NULL
);

-- A crawl's membership and queue: every page the crawl decided to visit, once per run.
-- state: 0 queued, 1 leased (in memory of the running process), 2 done.
CREATE TABLE frontier (
    crawl_id INTEGER NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
    page_id  INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    depth    INTEGER NOT NULL,
    hops     INTEGER NOT NULL DEFAULT 0,  -- redirects followed to reach it
    priority INTEGER NOT NULL DEFAULT 0,  -- higher first
    seq      INTEGER NOT NULL,            -- discovery order
    state    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (crawl_id, page_id)
) WITHOUT ROWID;
CREATE INDEX frontier_next ON frontier(crawl_id, priority DESC, depth, seq) WHERE state = 0;

-- Pages whose incoming anchor text changed after they were indexed: their page_fts row is
-- refreshed at the end of a crawl run (and on the next run after a crash).
CREATE TABLE fts_dirty (
    page_id INTEGER PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE
);

-- Full-text index over extracted text; rowid = pages.id.
CREATE VIRTUAL TABLE page_fts USING fts5(
    title, headings, body, anchors, url,
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3'
);
-- Fewer, larger merges while crawling (write amplification ~ log8 instead of log4 of the
-- index size); queries stay fast because a finished crawl runs an incremental merge.
INSERT INTO page_fts(page_fts, rank) VALUES ('automerge', 8);
INSERT INTO page_fts(page_fts, rank) VALUES ('crisismerge', 32);
