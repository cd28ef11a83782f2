-- Mundaneum workspace schema, version 7: citation counts in a table of their own.
--
-- Search reads how many pages cite each of a query's best 200 hits. In pages (rows of a few
-- hundred bytes: gigabytes at a million pages) that is 200 reads of pages the OS cache has
-- mostly let go; in citations (a few bytes a row) it is a few megabytes that stay cached. A
-- new link also updates that short row instead of rewriting its target's whole page row.
--
-- citations.n is the number of distinct other pages with at least one link (of any kind) to
-- the page, as pages.inlinks was (see 0005); a page nobody cites may have no row. The
-- triggers stay exact in the cases 0005 lists.

CREATE TABLE citations (
    page_id INTEGER PRIMARY KEY,
    n       INTEGER NOT NULL
);
INSERT INTO citations(page_id, n) SELECT id, inlinks FROM pages WHERE inlinks > 0;

DROP TRIGGER links_count_insert;
DROP TRIGGER links_count_delete;
DROP TRIGGER links_count_update;
ALTER TABLE pages DROP COLUMN inlinks;

-- A pair (from_id, to_id) may have a row per kind: it counts once, from its first row until
-- its last is gone. The probes read links' primary key (from_id, to_id, kind).
CREATE TRIGGER links_count_insert AFTER INSERT ON links BEGIN
    UPDATE counts SET n = n + 1 WHERE name = 'links';
    INSERT INTO citations(page_id, n)
        SELECT new.to_id, 1
        WHERE new.from_id <> new.to_id
          AND NOT EXISTS (SELECT 1 FROM links
                          WHERE from_id = new.from_id AND to_id = new.to_id AND kind <> new.kind)
        ON CONFLICT(page_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER links_count_delete AFTER DELETE ON links BEGIN
    UPDATE counts SET n = n - 1 WHERE name = 'links';
    UPDATE citations SET n = n - 1
        WHERE page_id = old.to_id AND old.from_id <> old.to_id
          AND NOT EXISTS (SELECT 1 FROM links WHERE from_id = old.from_id AND to_id = old.to_id);
END;
-- The store never updates links' keys; this keeps the counts exact if anything does.
CREATE TRIGGER links_count_update AFTER UPDATE OF from_id, to_id ON links
WHEN old.from_id IS NOT new.from_id OR old.to_id IS NOT new.to_id BEGIN
    UPDATE citations SET n = n - 1
        WHERE page_id = old.to_id AND old.from_id <> old.to_id
          AND NOT EXISTS (SELECT 1 FROM links WHERE from_id = old.from_id AND to_id = old.to_id);
    INSERT INTO citations(page_id, n)
        SELECT new.to_id, 1
        WHERE new.from_id <> new.to_id
          AND NOT EXISTS (SELECT 1 FROM links
                          WHERE from_id = new.from_id AND to_id = new.to_id AND kind <> new.kind)
        ON CONFLICT(page_id) DO UPDATE SET n = n + 1;
END;
-- A deleted page's count goes with it (its id may be given to a new page).
CREATE TRIGGER pages_citations_delete AFTER DELETE ON pages BEGIN
    DELETE FROM citations WHERE page_id = old.id;
END;
