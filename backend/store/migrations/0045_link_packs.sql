-- Mundaneum workspace schema, version 45: a page's links are committed by the crawl as one
-- packed row, and expanded into one row per link behind the crawl, in bulk.
--
-- A link row costs the crawl's writer two random b-tree inserts (the table's key starts
-- with the citing page, links_to's with the target) and a trigger that counts it: about
-- half of the writer's time per page (docs/benchmarks.md, "The index behind the crawl").
-- Now the crawl's transaction writes the page's links as one row of link_packs, and the
-- store's expander (linkpack.go) turns the packs of many pages into link rows later, sorted
-- by target, with the counts and citations updated once per target.
--
-- Every reader keeps reading "links": it is now a view of the expanded rows (link_rows, the
-- table that was links) and of the packs not yet expanded (link_pending), so nothing goes
-- missing while the expansion lags. A page has expanded rows or a pack, never both: the
-- crawl deletes a page's rows when it stores its new links, and the expander deletes a pack
-- in the transaction that writes its rows.

ALTER TABLE links RENAME TO link_rows;

-- A page's outgoing links in document order, not yet expanded: a JSON array of
-- [to_id, kind, anchor, rel, pos], one per distinct (to_id, kind), as link_rows would hold;
-- n is how many (the workspace's link count adds them up without reading the arrays).
CREATE TABLE link_packs (
    page_id INTEGER PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
    n       INTEGER NOT NULL,
    data    TEXT    NOT NULL
);

-- The packed links as rows. A link to a page deleted since it was packed is left out.
CREATE VIEW link_pending(from_id, to_id, kind, anchor, rel, pos) AS
    SELECT k.page_id, j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4
    FROM link_packs k, json_each(k.data) j
    WHERE EXISTS (SELECT 1 FROM pages t WHERE t.id = j.value ->> 0);

CREATE VIEW links(from_id, to_id, kind, anchor, rel, pos) AS
    SELECT from_id, to_id, kind, anchor, rel, pos FROM link_rows
    UNION ALL
    SELECT from_id, to_id, kind, anchor, rel, pos FROM link_pending;

-- Writes to the view are writes of link rows (tools and tests that write links directly).
CREATE TRIGGER links_insert INSTEAD OF INSERT ON links BEGIN
    INSERT INTO link_rows(from_id, to_id, kind, anchor, rel, pos)
        VALUES (new.from_id, new.to_id, new.kind, coalesce(new.anchor, ''), coalesce(new.rel, ''), coalesce(new.pos, 0));
END;
CREATE TRIGGER links_delete INSTEAD OF DELETE ON links BEGIN
    DELETE FROM link_rows WHERE from_id = old.from_id AND to_id = old.to_id AND kind = old.kind;
END;

-- While the expander writes rows it counts them itself, once per target: the trigger that
-- counts a row as it is inserted stands aside when this table has a row, which it has only
-- inside the expander's transaction.
CREATE TABLE link_expanding (
    id INTEGER PRIMARY KEY
);
DROP TRIGGER links_count_insert;
CREATE TRIGGER links_count_insert AFTER INSERT ON link_rows
WHEN NOT EXISTS (SELECT 1 FROM link_expanding) BEGIN
    UPDATE counts SET n = n + 1 WHERE name = 'links';
    INSERT INTO citations(page_id, n)
        SELECT new.to_id, 1
        WHERE new.from_id <> new.to_id
          AND NOT EXISTS (SELECT 1 FROM link_rows
                          WHERE from_id = new.from_id AND to_id = new.to_id AND kind <> new.kind)
        ON CONFLICT(page_id) DO UPDATE SET n = n + 1;
END;
