-- Mundaneum workspace schema, version 35: pages that scripts build (issue 26).
--
-- pages.render says how the last fetch that brought a page's content read its HTML:
--   'rendered'  the DOM after the page's scripts ran in Chromium; render_why is 'always'
--               (the crawl renders every page) or 'shell' (the HTML as served looked like a
--               shell, and the crawl renders those: --render auto);
--   'static'    the HTML as served, which needs no browser; render_why is the crawl's mode
--               (auto, never; always renders instead);
--   'shell'     the HTML as served, though it looks like a shell: not rendered, and
--               render_why says why: never (the crawl's choice), no-browser, timeout,
--               crashed, memory, browser-died, navigation or error (rendering failed);
--   NULL        not HTML, or fetched before this version.
-- render_signal is the shell detector's strongest signal (empty-root, noscript,
-- script-links, little-text, hash-route), NULL when it found none; render_detail says it
-- all in words (the figures, what kept a page from settling, a failure's words).
ALTER TABLE pages ADD COLUMN render TEXT;
ALTER TABLE pages ADD COLUMN render_why TEXT;
ALTER TABLE pages ADD COLUMN render_signal TEXT;
ALTER TABLE pages ADD COLUMN render_detail TEXT;

-- versions.rendered: the version's body is the DOM after scripts, serialised, and its
-- hash is that of the rendered text (title, headings, body), so that a recrawl compares
-- what the page says rather than its markup: a new version comes when the text changes.
ALTER TABLE versions ADD COLUMN rendered INTEGER NOT NULL DEFAULT 0;

-- Screenshots of rendered versions, as the browser saw them when it read the DOM: the
-- viewport ('viewport'), and the whole page ('full', at most 16,384 CSS pixels tall) when
-- the crawl asked for it. They go with their version (retention, deleted pages).
CREATE TABLE screenshots (
    version_id INTEGER NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,
    format     TEXT    NOT NULL,
    width      INTEGER NOT NULL,
    height     INTEGER NOT NULL,
    data       BLOB    NOT NULL,
    PRIMARY KEY (version_id, kind)
) WITHOUT ROWID;
