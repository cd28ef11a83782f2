-- Mundaneum workspace schema, version 3: the workspace's settings (identity, default
-- politeness, appearance), one JSON value per key.
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
