-- Mundaneum workspace schema: the webbot's web elements (issue 13).
--
-- An element is a document reached by a crawl along one path: its family index (the seed's
-- position, then the position of each link followed: rules.Family, encoded so that byte
-- order is the tree's pre-order), its category value (rules.Value: 0 untested, 1 first,
-- 2 next, 3 last, 4 rejected) and whether it was followed. A crawl visits a page once, as
-- the element that reached it first: that element has a row here, with the elements its
-- links make (children: page id and category, in document order; position = index + 1).
-- Elements never visited (rejected, or reaching a page already reached) live only in their
-- parent's children, so the same URL reached by two paths keeps both.

CREATE TABLE elements (
    crawl_id INTEGER NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
    page_id  INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    family   BLOB    NOT NULL,
    category INTEGER NOT NULL,
    followed INTEGER NOT NULL,          -- its links were taken into the queue
    children BLOB,                      -- uvarint page id, one byte category; per document link
    PRIMARY KEY (crawl_id, page_id)
) WITHOUT ROWID;
CREATE INDEX elements_family ON elements(crawl_id, family);
CREATE INDEX elements_page ON elements(page_id);

-- The queue remembers how each queued page was reached, for its element row: family index,
-- the category decided before the fetch, the LOCAL rule blocks in force (a bit mask), and
-- the anchor text when the decision waits for the page (rules on head, body, ...).
ALTER TABLE frontier ADD COLUMN family BLOB;
ALTER TABLE frontier ADD COLUMN category INTEGER NOT NULL DEFAULT 0;
ALTER TABLE frontier ADD COLUMN local_rules INTEGER NOT NULL DEFAULT 0;
ALTER TABLE frontier ADD COLUMN anchor TEXT;

-- A page's links in document order (0 for links stored before this version).
ALTER TABLE links ADD COLUMN pos INTEGER NOT NULL DEFAULT 0;
