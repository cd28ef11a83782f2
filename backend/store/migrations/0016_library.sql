-- Mundaneum workspace schema, version 10: the virtual library (GENVL, see backend/library).
--
-- The library is a tree of nodes: libraries (GENVL's virtual libraries) and their postings:
-- pointers (a title and a URL), reports (a title and Markdown text) and saved views placed in
-- the tree. Node 1 is the root library.
--
-- path holds the ids from the root down to the node, "/1/5/17/", so that a subtree is one
-- range of the lib_path index: path >= '/1/5/' AND path < '/1/50' (every descendant's path
-- continues '/1/5/' with digits, and '/' sorts just before '0'). A move rewrites the
-- subtree's paths in one statement.
--
-- Ids are never reused (AUTOINCREMENT): an undone delete puts nodes back under their ids,
-- and other features (link checks, redirects accepted into a pointer) key on them.

-- Images of libraries and reports, stored once per distinct content (PNG, GIF, JPEG, WebP).
CREATE TABLE lib_images (
    id   INTEGER PRIMARY KEY,
    hash TEXT    NOT NULL UNIQUE,    -- sha256 hex
    mime TEXT    NOT NULL,
    data BLOB    NOT NULL
);

CREATE TABLE lib_nodes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    parent_id   INTEGER REFERENCES lib_nodes(id),   -- NULL for the root only
    path        TEXT    NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('library', 'pointer', 'report', 'view')),
    position    INTEGER NOT NULL DEFAULT 0,         -- the order among siblings by hand
    title       TEXT    NOT NULL DEFAULT '',
    url         TEXT,                               -- as the user gave it (pointers; reports may have one)
    url_key     TEXT,                               -- canonical (urlnorm): pages.url, duplicates
    notes       TEXT    NOT NULL DEFAULT '',        -- a pointer's notes
    body        TEXT    NOT NULL DEFAULT '',        -- a report's Markdown
    tags        TEXT    NOT NULL DEFAULT '[]',      -- JSON array of strings (lib_tags follows it)
    purpose     TEXT    NOT NULL DEFAULT '',        -- a library's statement of purpose
    image_id    INTEGER REFERENCES lib_images(id),  -- NULL: the parent library's image
    create_only INTEGER NOT NULL DEFAULT 0,         -- only sub-libraries may be added
    sort        TEXT    NOT NULL DEFAULT 'title',   -- a library's order: title | date | manual
    author      TEXT    NOT NULL DEFAULT '',
    email       TEXT    NOT NULL DEFAULT '',
    password    TEXT,                               -- argon2id hash (PHC string); NULL: none
    view_id     INTEGER REFERENCES views(id) ON DELETE CASCADE,
    created_at  INTEGER NOT NULL,                   -- added to the library (or ADD_DATE of an import)
    updated_at  INTEGER NOT NULL
);
CREATE UNIQUE INDEX lib_path ON lib_nodes(path);
CREATE INDEX lib_url ON lib_nodes(url_key) WHERE url_key IS NOT NULL;
CREATE INDEX lib_created ON lib_nodes(created_at);
-- A library's children, and its page's postings by title without sorting them (by date
-- or by hand, it sorts one library's postings: one index fewer to write for each node).
CREATE INDEX lib_by_title ON lib_nodes(parent_id, title COLLATE NOCASE);
CREATE INDEX lib_view ON lib_nodes(view_id) WHERE view_id IS NOT NULL;

INSERT INTO lib_nodes(id, parent_id, path, kind, title, created_at, updated_at)
    VALUES (1, NULL, '/1/', 'library', 'Library', CAST(unixepoch('subsec') * 1000 AS INTEGER), CAST(unixepoch('subsec') * 1000 AS INTEGER));

-- Tags by name, for tag: and the tag lists; kept by the triggers below from lib_nodes.tags.
CREATE TABLE lib_tags (
    tag     TEXT    NOT NULL COLLATE NOCASE,
    node_id INTEGER NOT NULL REFERENCES lib_nodes(id) ON DELETE CASCADE,
    PRIMARY KEY (tag, node_id)
) WITHOUT ROWID;
CREATE INDEX lib_tags_node ON lib_tags(node_id);

-- The library's own full-text index (rowid = lib_nodes.id), apart from the pages'. It
-- reads its text from lib_nodes (external content: the text is stored once); tags are
-- indexed from their JSON, whose brackets and quotes the tokenizer skips.
CREATE VIRTUAL TABLE lib_fts USING fts5(
    title, url, notes, tags, body,
    content = 'lib_nodes', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2',
    prefix = '3'
);
INSERT INTO lib_fts(lib_fts, rank) VALUES ('automerge', 8);

-- The triggers keep lib_tags exact for every write to lib_nodes, and lib_fts for every
-- change and delete. New nodes enter lib_fts from the store's code (store/library.go),
-- after the nodes and in one statement: FTS5 writes out its pending terms as a segment at
-- every statement savepoint, and a trigger makes every INSERT open one, so that an import
-- indexing row by row would write, and merge, a segment for each bookmark.
CREATE TRIGGER lib_nodes_insert AFTER INSERT ON lib_nodes BEGIN
    INSERT OR IGNORE INTO lib_tags(tag, node_id) SELECT value, new.id FROM json_each(new.tags) WHERE new.tags <> '[]';
END;
-- The root (id 1) is never in lib_fts (no search should answer "the whole library"): an
-- edit of its title must not 'delete' from the index a row it never held.
CREATE TRIGGER lib_nodes_update AFTER UPDATE OF title, url, notes, tags, body ON lib_nodes BEGIN
    INSERT INTO lib_fts(lib_fts, rowid, title, url, notes, tags, body)
        SELECT 'delete', old.id, old.title, old.url, old.notes, old.tags, old.body WHERE old.id <> 1;
    INSERT INTO lib_fts(rowid, title, url, notes, tags, body)
        SELECT new.id, new.title, new.url, new.notes, new.tags, new.body WHERE new.id <> 1;
    DELETE FROM lib_tags WHERE node_id = new.id AND new.tags IS NOT old.tags;
    INSERT OR IGNORE INTO lib_tags(tag, node_id) SELECT value, new.id FROM json_each(new.tags)
        WHERE new.tags IS NOT old.tags AND new.tags <> '[]';
END;
CREATE TRIGGER lib_nodes_delete AFTER DELETE ON lib_nodes BEGIN
    INSERT INTO lib_fts(lib_fts, rowid, title, url, notes, tags, body)
        SELECT 'delete', old.id, old.title, old.url, old.notes, old.tags, old.body WHERE old.id <> 1;
END;

-- The undo journal: the last operations that changed the library, newest last, each with
-- what it takes to undo it (JSON) and the password hash that authorised it, if any.
CREATE TABLE lib_undo (
    id       INTEGER PRIMARY KEY,
    at       INTEGER NOT NULL,
    op       TEXT    NOT NULL,     -- added | deleted | moved | edited | reordered
    summary  TEXT    NOT NULL,     -- what the operation did, for the user
    data     TEXT    NOT NULL,
    password TEXT                  -- undoing needs the password this hash is of
);
