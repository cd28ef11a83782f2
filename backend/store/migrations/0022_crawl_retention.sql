-- Mundaneum workspace schema: a crawl's own retention setting (issue 15). retention is the
-- JSON of a Retention ({"keep":"last","last":3}); NULL means the workspace's setting. A page
-- keeps as many versions as the most generous setting among the crawls it belongs to.
ALTER TABLE crawls ADD COLUMN retention TEXT;
