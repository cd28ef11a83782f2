package search

import (
	"context"
	"database/sql"
	"fmt"
	"mundaneum/backend/store"
	"sync"
	"time"
)

// citeCache holds every page's citation count in memory once the workspace is large. The
// boost reads the counts of a query's best BoostDepth hits: from the citations table that
// is 200 b-tree lookups, about a millisecond a query at a million pages; from memory it is
// nothing, for 4 bytes a page. The counts are loaded in the background (queries meanwhile
// read the table) and loaded again, at most once a minute, when the workspace's links
// have changed: a count a minute old only nudges a ranking.
type citeCache struct {
	minPages int64 // workspaces with fewer pages read the table

	mu      sync.Mutex
	n       []uint32 // citations by page id
	links   int64    // the workspace's link count when n was loaded
	at      time.Time
	loading bool
	asked   int // queries that wanted counts
}

const (
	citeCacheMin = 100_000
	citeCacheTTL = time.Minute
)

// counts returns the cached counts, or nil when they are not loaded. From the second query
// on (a process that runs one, like the command line's, never pays for a load), it starts a
// load when the workspace has at least minPages pages and the counts are missing or a
// minute old.
func (c *citeCache) counts(db store.Querier, maxPage int64) []uint32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked++
	if c.asked > 1 && maxPage >= c.minPages && !c.loading && (c.n == nil || time.Since(c.at) >= citeCacheTTL) {
		c.loading = true
		go c.load(context.Background(), db)
	}
	return c.n
}

// loadNow loads the counts now when the workspace has at least minPages pages (maxPage is
// its largest page id), and waits for them: a searcher that answers many queries has them
// from its first.
func (c *citeCache) loadNow(ctx context.Context, db store.Querier, maxPage int64) {
	c.mu.Lock()
	if maxPage < c.minPages || c.loading {
		c.mu.Unlock()
		return
	}
	c.loading = true
	c.mu.Unlock()
	c.load(ctx, db)
}

// load reads every count if the links changed since the last load.
func (c *citeCache) load(ctx context.Context, db store.Querier) {
	n, links, err := c.read(ctx, db)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loading = false
	if err != nil {
		return // the queries go on reading the table; the next one tries again
	}
	c.at = time.Now()
	if n != nil {
		c.n, c.links = n, links
	}
}

// read returns the counts by page id and the link count they go with; nil counts when the
// links are as they were at the last load.
func (c *citeCache) read(ctx context.Context, db store.Querier) ([]uint32, int64, error) {
	var links int64
	if err := db.QueryRowContext(ctx, `SELECT coalesce((SELECT n FROM counts WHERE name = 'links'), 0)`).Scan(&links); err != nil {
		return nil, 0, fmt.Errorf("citation counts: %w", err)
	}
	c.mu.Lock()
	same := c.n != nil && links == c.links
	c.mu.Unlock()
	if same {
		return nil, links, nil
	}
	var maxID sql.NullInt64
	if err := db.QueryRowContext(ctx, `SELECT max(page_id) FROM citations`).Scan(&maxID); err != nil {
		return nil, 0, fmt.Errorf("citation counts: %w", err)
	}
	n := make([]uint32, maxID.Int64+1)
	rows, err := db.QueryContext(ctx, `SELECT page_id, n FROM citations WHERE n > 0`)
	if err != nil {
		return nil, 0, fmt.Errorf("citation counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, k int64
		if err := rows.Scan(&id, &k); err != nil {
			return nil, 0, fmt.Errorf("citation counts: %w", err)
		}
		if id >= 0 && id < int64(len(n)) {
			n[id] = uint32(min(k, 1<<32-1))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("citation counts: %w", err)
	}
	return n, links, nil
}

// citing returns how many distinct other pages link to each hit: from the cache when it is
// loaded, else from the citations table the store keeps up to date (maxPage is the
// workspace's largest page id).
func (c *citeCache) citing(ctx context.Context, db store.Querier, maxPage int64, hits []hit) (map[int64]int, error) {
	out := make(map[int64]int, len(hits))
	if n := c.counts(db, maxPage); n != nil {
		for _, h := range hits {
			if h.id >= 0 && h.id < int64(len(n)) {
				out[h.id] = int(n[h.id])
			}
		}
	} else if err := addCounts(ctx, db, out, `SELECT page_id, n FROM citations WHERE page_id IN (SELECT value FROM json_each(?))`, hits); err != nil {
		return nil, err
	}
	// Links a crawl stored packed and the store has not expanded yet cite too (they are
	// few: the store expands them behind the crawl).
	err := addCounts(ctx, db, out, `SELECT to_id, count(DISTINCT from_id) FROM link_pending
		WHERE to_id IN (SELECT value FROM json_each(?)) AND from_id <> to_id GROUP BY to_id`, hits)
	return out, err
}

// addCounts adds the (page, count) rows query gives for the hits to out.
func addCounts(ctx context.Context, db store.Querier, out map[int64]int, query string, hits []hit) error {
	rows, err := db.QueryContext(ctx, query, idsJSON(hits))
	if err != nil {
		return fmt.Errorf("count citing pages: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return err
		}
		out[id] += n
	}
	return rows.Err()
}
