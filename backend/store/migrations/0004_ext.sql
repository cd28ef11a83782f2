-- Mundaneum workspace schema, version 4: indexes for search's ext: and type: filters.
-- ext is the lower-case text after the last dot of the URL's path (query left out): a
-- virtual column, computed on read and stored only in its index.
ALTER TABLE pages ADD COLUMN ext TEXT GENERATED ALWAYS AS (lower(substr(
    substr(url, 1, instr(url || '?', '?') - 1),
    length(rtrim(substr(url, 1, instr(url || '?', '?') - 1),
                 replace(substr(url, 1, instr(url || '?', '?') - 1), '.', ''))) + 1))) VIRTUAL;
CREATE INDEX pages_ext ON pages(ext);
CREATE INDEX pages_type ON pages(content_type);
