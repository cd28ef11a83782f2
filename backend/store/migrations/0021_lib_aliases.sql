-- Mundaneum workspace schema: a pointer's aliases, and whether a URL's latest check found a
-- permanent redirect (issue 16: "a permanent redirect can be accepted with one click").
--
-- Accepting a redirect rewrites a pointer's URL to where it moved and keeps the old URL as
-- an alias: the pointer is still found by it (the duplicate checks of adding, importing,
-- copying and moving; a search for the old address). The aliases live in the node's row, as
-- a JSON array of {"url": as given, "key": canonical (urlnorm)}, so that the library's undo
-- (which restores a node's row) takes them back with the URL; lib_aliases indexes them by
-- canonical URL and is kept by the triggers below, as lib_tags is from lib_nodes.tags.

ALTER TABLE lib_nodes ADD COLUMN aliases TEXT NOT NULL DEFAULT '[]';

CREATE TABLE lib_aliases (
    url_key TEXT    NOT NULL,
    node_id INTEGER NOT NULL REFERENCES lib_nodes(id) ON DELETE CASCADE,
    url     TEXT    NOT NULL,
    PRIMARY KEY (url_key, node_id)
) WITHOUT ROWID;
CREATE INDEX lib_aliases_node ON lib_aliases(node_id);

CREATE TRIGGER lib_aliases_insert AFTER INSERT ON lib_nodes WHEN new.aliases <> '[]' BEGIN
    INSERT OR IGNORE INTO lib_aliases(url_key, node_id, url)
        SELECT json_extract(value, '$.key'), new.id, json_extract(value, '$.url') FROM json_each(new.aliases)
        WHERE json_extract(value, '$.key') IS NOT NULL AND json_extract(value, '$.url') IS NOT NULL;
END;
CREATE TRIGGER lib_aliases_update AFTER UPDATE OF aliases ON lib_nodes WHEN new.aliases IS NOT old.aliases BEGIN
    DELETE FROM lib_aliases WHERE node_id = new.id;
    INSERT OR IGNORE INTO lib_aliases(url_key, node_id, url)
        SELECT json_extract(value, '$.key'), new.id, json_extract(value, '$.url') FROM json_each(new.aliases)
        WHERE json_extract(value, '$.key') IS NOT NULL AND json_extract(value, '$.url') IS NOT NULL;
END;

-- Whether the chain of the latest check was of permanent redirects only (301, 308): only
-- those may be accepted into a pointer. Filled from each URL's latest check.
ALTER TABLE check_urls ADD COLUMN permanent INTEGER NOT NULL DEFAULT 0;
UPDATE check_urls SET permanent = coalesce((SELECT c.permanent FROM checks c WHERE c.url_id = check_urls.id
    ORDER BY c.at DESC LIMIT 1), 0) WHERE verdict = 'redirected';

-- is:broken and is:redirect over the library's pointers read check_urls by verdict and death.
CREATE INDEX check_urls_dead ON check_urls(dead_at) WHERE dead_at IS NOT NULL;
