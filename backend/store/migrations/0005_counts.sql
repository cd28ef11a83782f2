-- Mundaneum workspace schema, version 5: counts kept up to date by triggers, so that status
-- and search read a number instead of counting millions of rows.
--
-- pages.inlinks is the number of distinct other pages with at least one link (of any kind)
-- to the page. counts holds the workspace's totals: 'pages:<state>' per page state, and
-- 'hosts', 'links', 'blobs'.
--
-- The triggers are exact for INSERT (also OR IGNORE, and upserts: a DO UPDATE fires only
-- update triggers, a DO NOTHING none), UPDATE and DELETE (also by foreign-key cascade).
-- REPLACE conflict resolution fires delete triggers only with PRAGMA recursive_triggers on,
-- which the store sets on its connections (dsn in store.go).

ALTER TABLE pages ADD COLUMN inlinks INTEGER NOT NULL DEFAULT 0;

CREATE TABLE counts (
    name TEXT    PRIMARY KEY,
    n    INTEGER NOT NULL
) WITHOUT ROWID;

-- Backfill, before the triggers exist.
INSERT INTO counts(name, n) SELECT 'pages:' || state, count(*) FROM pages GROUP BY state;
INSERT INTO counts(name, n) VALUES
    ('hosts', (SELECT count(*) FROM hosts)),
    ('links', (SELECT count(*) FROM links)),
    ('blobs', (SELECT count(*) FROM blobs));
-- links_to is (to_id, from_id, kind): the count reads that index in order, without sorting.
UPDATE pages SET inlinks = x.c
    FROM (SELECT to_id, count(DISTINCT from_id) AS c FROM links WHERE from_id <> to_id GROUP BY to_id) AS x
    WHERE pages.id = x.to_id;

-- pages by state.
CREATE TRIGGER pages_count_insert AFTER INSERT ON pages BEGIN
    INSERT INTO counts(name, n) VALUES ('pages:' || new.state, 1)
        ON CONFLICT(name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER pages_count_update AFTER UPDATE OF state ON pages
WHEN old.state IS NOT new.state BEGIN
    UPDATE counts SET n = n - 1 WHERE name = 'pages:' || old.state;
    INSERT INTO counts(name, n) VALUES ('pages:' || new.state, 1)
        ON CONFLICT(name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER pages_count_delete AFTER DELETE ON pages BEGIN
    UPDATE counts SET n = n - 1 WHERE name = 'pages:' || old.state;
END;

CREATE TRIGGER hosts_count_insert AFTER INSERT ON hosts BEGIN
    UPDATE counts SET n = n + 1 WHERE name = 'hosts';
END;
CREATE TRIGGER hosts_count_delete AFTER DELETE ON hosts BEGIN
    UPDATE counts SET n = n - 1 WHERE name = 'hosts';
END;

CREATE TRIGGER blobs_count_insert AFTER INSERT ON blobs BEGIN
    UPDATE counts SET n = n + 1 WHERE name = 'blobs';
END;
CREATE TRIGGER blobs_count_delete AFTER DELETE ON blobs BEGIN
    UPDATE counts SET n = n - 1 WHERE name = 'blobs';
END;

-- links, and the inlinks of their targets. A pair (from_id, to_id) may have a row per kind:
-- it counts once, from its first row until its last is gone. The probes read links'
-- primary key (from_id, to_id, kind).
CREATE TRIGGER links_count_insert AFTER INSERT ON links BEGIN
    UPDATE counts SET n = n + 1 WHERE name = 'links';
    UPDATE pages SET inlinks = inlinks + 1
        WHERE id = new.to_id AND new.from_id <> new.to_id
          AND NOT EXISTS (SELECT 1 FROM links
                          WHERE from_id = new.from_id AND to_id = new.to_id AND kind <> new.kind);
END;
CREATE TRIGGER links_count_delete AFTER DELETE ON links BEGIN
    UPDATE counts SET n = n - 1 WHERE name = 'links';
    UPDATE pages SET inlinks = inlinks - 1
        WHERE id = old.to_id AND old.from_id <> old.to_id
          AND NOT EXISTS (SELECT 1 FROM links WHERE from_id = old.from_id AND to_id = old.to_id);
END;
-- The store never updates links' keys; this keeps inlinks exact if anything does.
CREATE TRIGGER links_count_update AFTER UPDATE OF from_id, to_id ON links
WHEN old.from_id IS NOT new.from_id OR old.to_id IS NOT new.to_id BEGIN
    UPDATE pages SET inlinks = inlinks - 1
        WHERE id = old.to_id AND old.from_id <> old.to_id
          AND NOT EXISTS (SELECT 1 FROM links WHERE from_id = old.from_id AND to_id = old.to_id);
    UPDATE pages SET inlinks = inlinks + 1
        WHERE id = new.to_id AND new.from_id <> new.to_id
          AND NOT EXISTS (SELECT 1 FROM links
                          WHERE from_id = new.from_id AND to_id = new.to_id AND kind <> new.kind);
END;
