-- Mundaneum workspace schema: browsers paired to add pages to the library (issue 27).
--
-- A browser extension pairs once, with a one-time code shown in Settings, and receives a
-- token (32 random bytes) of which only the SHA-256 is kept: there is nothing to guess, so a
-- fast hash is enough. The pairing binds the token to the Origin the extension called from
-- (chrome-extension://ID, moz-extension://UUID): a call must carry the token and come from
-- that Origin, so a token copied into another extension or a web page is refused.
-- Unpairing deletes the row.
CREATE TABLE capture_clients (
    id         INTEGER PRIMARY KEY,
    origin     TEXT    NOT NULL,
    browser    TEXT    NOT NULL DEFAULT '',
    hash       TEXT    NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    used_at    INTEGER,
    captures   INTEGER NOT NULL DEFAULT 0
);
