-- Mundaneum workspace schema, version 17: maintenance (MOMspider). Tasks name an
-- infostructure to check; rules avoid or leaf URL prefixes; a run tests each URL once for
-- all its tasks; every test is kept; a report per task and run lists its documents and news.

CREATE TABLE check_tasks (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL UNIQUE,
    type        TEXT    NOT NULL,          -- site | tree | owner | library
    top         TEXT    NOT NULL,          -- the top URL; for a library task, the subtree's path
    options     TEXT    NOT NULL,          -- JSON: whom it is for, what to report, schedule, limits
    created_at  INTEGER NOT NULL,
    last_run_at INTEGER                    -- when its last run started (the schedule counts from it)
);

-- Avoid and Leaf prefixes (MOMspider appendix C), system-wide (task_id NULL) or per task.
CREATE TABLE check_rules (
    id         INTEGER PRIMARY KEY,
    task_id    INTEGER REFERENCES check_tasks(id) ON DELETE CASCADE,
    action     TEXT    NOT NULL,           -- avoid | leaf
    prefix     TEXT    NOT NULL,           -- an http(s) URL prefix in canonical form
    expires_at INTEGER,                    -- NULL: never
    created_at INTEGER NOT NULL,
    note       TEXT    NOT NULL DEFAULT '' -- where it came from
);
CREATE UNIQUE INDEX check_rules_key ON check_rules(coalesce(task_id, 0), prefix);

CREATE TABLE check_runs (
    id          INTEGER PRIMARY KEY,
    started_at  INTEGER NOT NULL,
    finished_at INTEGER,
    state       TEXT    NOT NULL,          -- running | done | cancelled | failed | interrupted
    tasks       TEXT    NOT NULL,          -- JSON array of task names; [] for a check of given URLs
    tested      INTEGER NOT NULL DEFAULT 0,-- URLs tested
    requests    INTEGER NOT NULL DEFAULT 0,
    error       TEXT
);

-- One row per URL ever tested or referenced by a report, with what the checks so far say.
CREATE TABLE check_urls (
    id            INTEGER PRIMARY KEY,
    url           TEXT    NOT NULL UNIQUE,
    verdict       TEXT,                    -- of the latest check (NULL: never tested)
    status        INTEGER,
    final_url     TEXT,
    reason        TEXT,
    checked_at    INTEGER,
    failing_since INTEGER,                 -- first failing check of the current streak
    failures      INTEGER NOT NULL DEFAULT 0, -- failing checks in the current streak
    dead_at       INTEGER,                 -- when the streak made the link dead (NULL: alive)
    hash          TEXT,                    -- sha256 of the body at the last GET
    etag          TEXT,
    last_modified TEXT,
    changed_at    INTEGER                  -- when a check last saw the content change
);
CREATE INDEX check_urls_verdict ON check_urls(verdict);

-- Every check of every URL: the history that makes a link dead only after repeated failures.
CREATE TABLE checks (
    run_id        INTEGER NOT NULL REFERENCES check_runs(id) ON DELETE CASCADE,
    url_id        INTEGER NOT NULL REFERENCES check_urls(id) ON DELETE CASCADE,
    at            INTEGER NOT NULL,
    verdict       TEXT    NOT NULL,        -- ok redirected broken server_error blocked rate_limited timeout robots_excluded invalid
    status        INTEGER,
    final_url     TEXT,
    permanent     INTEGER NOT NULL DEFAULT 0, -- a redirect chain of permanent hops only
    chain         TEXT,                    -- JSON [[status, url], ...] of the redirect hops
    reason        TEXT,
    code          TEXT,                    -- machine form of the reason (not-found, dns, ...)
    method        TEXT,                    -- HEAD or GET
    content_type  TEXT,
    size          INTEGER,
    ms            INTEGER,                 -- time to the answer
    title         TEXT,
    last_modified TEXT,
    expires       TEXT,
    owner         TEXT,
    document      INTEGER NOT NULL DEFAULT 0, -- fetched with GET and read for its links
    PRIMARY KEY (run_id, url_id)
) WITHOUT ROWID;
CREATE INDEX checks_url ON checks(url_id, at);

-- A task's report of one run: MOMspider's index document.
CREATE TABLE check_reports (
    id         INTEGER PRIMARY KEY,
    run_id     INTEGER NOT NULL REFERENCES check_runs(id) ON DELETE CASCADE,
    task_id    INTEGER NOT NULL REFERENCES check_tasks(id) ON DELETE CASCADE,
    prior_id   INTEGER REFERENCES check_reports(id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,
    summary    TEXT    NOT NULL,           -- JSON: the task as run, counts, timings
    news       TEXT    NOT NULL            -- JSON: moved, broken, changed, expiring
);
CREATE INDEX check_reports_task ON check_reports(task_id, id);

-- The documents a report traversed, breadth-first, with their references.
CREATE TABLE check_report_docs (
    report_id INTEGER NOT NULL REFERENCES check_reports(id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    url_id    INTEGER NOT NULL REFERENCES check_urls(id),
    depth     INTEGER NOT NULL,
    refs      BLOB    NOT NULL,            -- (check_urls id, kind) pairs, varint-packed
    PRIMARY KEY (report_id, seq)
) WITHOUT ROWID;
