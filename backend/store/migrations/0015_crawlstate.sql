-- Mundaneum workspace schema, version 15: what a crawl learns about its pages, counted one way.
--
-- pages.crawl_id was the crawl that found a page; it is now the crawl that last visited it
-- (or found it, if none has visited it since). Every page then belongs to one crawl, so a
-- crawl's pages by state (its card, `status`, its page list, crawl: in search) are one
-- count, kept here by triggers as counts is (0005), and they add up to the workspace's.

CREATE TABLE crawl_counts (
    crawl_id INTEGER NOT NULL,
    state    TEXT    NOT NULL,
    n        INTEGER NOT NULL,
    PRIMARY KEY (crawl_id, state)
) WITHOUT ROWID;

INSERT INTO crawl_counts(crawl_id, state, n)
    SELECT crawl_id, state, count(*) FROM pages WHERE crawl_id IS NOT NULL GROUP BY crawl_id, state;

CREATE TRIGGER pages_crawl_count_insert AFTER INSERT ON pages WHEN new.crawl_id IS NOT NULL BEGIN
    INSERT INTO crawl_counts(crawl_id, state, n) VALUES (new.crawl_id, new.state, 1)
        ON CONFLICT(crawl_id, state) DO UPDATE SET n = n + 1;
END;
-- Also fired by the foreign key's ON DELETE SET NULL when a crawl is deleted.
CREATE TRIGGER pages_crawl_count_update AFTER UPDATE OF state, crawl_id ON pages
WHEN old.state IS NOT new.state OR old.crawl_id IS NOT new.crawl_id BEGIN
    UPDATE crawl_counts SET n = n - 1 WHERE crawl_id = old.crawl_id AND state = old.state;
    INSERT INTO crawl_counts(crawl_id, state, n) SELECT new.crawl_id, new.state, 1 WHERE new.crawl_id IS NOT NULL
        ON CONFLICT(crawl_id, state) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER pages_crawl_count_delete AFTER DELETE ON pages WHEN old.crawl_id IS NOT NULL BEGIN
    UPDATE crawl_counts SET n = n - 1 WHERE crawl_id = old.crawl_id AND state = old.state;
END;

-- When the server last confirmed the stored response (a 304, or the same content again):
-- fetched_at stays the time of the response that is stored, status its status.
ALTER TABLE pages ADD COLUMN confirmed_at INTEGER;

-- Pages that name another page as their canonical URL (rel=canonical, in the HTML or in a
-- Link header): a print version, a copy with tracking parameters. Search collapses them onto
-- that page. pages.canonical keeps the URL as the page gave it.
CREATE TABLE canonicals (
    page_id INTEGER PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
    of_id   INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE
);
CREATE INDEX canonicals_of ON canonicals(of_id);

-- Sitemaps in a crawl's queue: read for the URLs they list, not indexed as pages.
ALTER TABLE frontier ADD COLUMN sitemap INTEGER NOT NULL DEFAULT 0;

-- What cut a crawl's last run short or what it should say about it (a cap reached, no seed
-- answering), beside error (what made it fail).
ALTER TABLE crawls ADD COLUMN note TEXT;
