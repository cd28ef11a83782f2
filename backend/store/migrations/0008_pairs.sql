-- Mundaneum workspace schema, version 8: an index of the adjacent pairs of frequent words,
-- so that a phrase of common words is found from short doclists (see backend/pairs).
--
-- page_pairs has page_fts's columns and rowids; each column holds the pair tokens of that
-- column's text ("state0of of0the"), with a gap token between runs, so that the phrase of
-- a phrase's pairs matches exactly where the phrase does. It is contentless: the text is in
-- page_fts already.
CREATE VIRTUAL TABLE page_pairs USING fts5(
    title, headings, body, anchors, url,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO page_pairs(page_pairs, rank) VALUES ('automerge', 8);
INSERT INTO page_pairs(page_pairs, rank) VALUES ('crisismerge', 32);
INSERT INTO page_pairs(page_pairs, rank) VALUES ('usermerge', 2);

-- The frequent words, chosen once, when the index is large enough for phrases to be slow
-- (see Store.BuildPairsStep). Every page_pairs row is written with these words.
CREATE TABLE pair_words (
    word TEXT PRIMARY KEY
) WITHOUT ROWID;

-- How far page_pairs is built: rows of page_fts up to built_to have their pairs row (later
-- ones get theirs when indexed). Search uses page_pairs once complete. chosen_at_rows is
-- the index's size when the words were chosen.
CREATE TABLE pair_state (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    chosen_at_rows INTEGER NOT NULL,
    built_to       INTEGER NOT NULL,
    complete       INTEGER NOT NULL
);
