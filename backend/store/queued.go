// The URLs each crawl holds, in memory: "already queued" without a write per link.

package store

import (
	"context"
	"fmt"
	"hash/maphash"
	"slices"
)

// "Already queued" from memory. Most links a crawl finds lead to pages it has met already:
// each one cost the writer a look-up of the page's row by URL and an INSERT ... ON CONFLICT
// into the crawl's frontier that did nothing. A crawlSet holds, for one crawl, every URL the
// crawl has resolved to a page (the pages it created or linked to, and its frontier) with
// the page's id and whether the page is in the crawl's frontier, so that such a link costs
// two hashes and a map look-up.
//
// The set is a cache in front of the tables, never their replacement:
//   - an entry is added only after the rows that back it commit (Tx.OnCommit), and a set
//     loaded at start reads committed rows only, so an entry never names a page or a
//     frontier row that a rolled-back batch took away;
//   - a URL the set does not hold is looked up in the tables as before (and added), so an
//     incomplete set (over its bound, or a page made by another crawl) costs time, not
//     correctness;
//   - pages are never deleted (only the owner's writer creates them: see shared.go), and
//     a crawl's frontier is emptied only by StartRun, which drops the crawl's set.
//
// A set is loaded from the workspace at a crawl's first write in a process (a resumed
// crawl, after a kill, gets back the pages and frontier its committed batches left), from
// the crawl's frontier and the pages whose crawl_id it is.
//
// Memory: an entry is one map slot of a uint64 key and a uint64 value (16 bytes, about
// 20-37 bytes a URL with Go's map load and growth: ~25 measured, see
// BenchmarkCrawlSetLoad); setMax bounds the entries of all sets together.
//
// The key is a 64-bit hash of the URL; the value keeps 23 more bits of a second hash,
// which a hit must match too: two URLs are taken for one only if 87 bits of two
// independent hashes agree (about 3e-13 for a crawl of 10 million URLs). A key that
// matches with other check bits is a collision: the URL is looked up in the tables.

// setMax bounds the URLs held by all crawl sets of a store: about 50 MB.
const setMax = 2_000_000

const (
	setIDBits    = 40 // page ids up to 2^40 are held; larger ones are looked up
	setCheckBits = 64 - setIDBits - 1
)

// crawlSet is one crawl's URLs (see above).
type crawlSet struct {
	m        map[uint64]uint64 // hash of the URL -> check bits | page id | in the frontier
	complete bool              // held every page of the workspace when loaded
}

// crawlSets are the sets of the crawls that wrote in this process (writer goroutine only).
type crawlSets struct {
	seed1, seed2 maphash.Seed
	crawls       map[int64]*crawlSet
	n            int // entries over all sets
	// emptied are crawls whose frontier the current batch emptied: until it commits the
	// read pool still sees the old rows, so such a crawl goes without a set.
	emptied map[int64]bool
}

func (c *crawlSets) init() {
	if c.crawls == nil {
		c.seed1, c.seed2, c.crawls = maphash.MakeSeed(), maphash.MakeSeed(), map[int64]*crawlSet{}
	}
}

func (c *crawlSets) hash(url string) (key, check uint64) {
	return maphash.String(c.seed1, url), maphash.String(c.seed2, url) >> (64 - setCheckBits)
}

// get returns the page id of url and whether the page is in the crawl's frontier, or
// ok false when the set does not hold url (or there is no set).
func (c *crawlSets) get(set *crawlSet, url string) (id int64, queued, ok bool) {
	if set == nil {
		return 0, false, false
	}
	key, check := c.hash(url)
	v, hit := set.m[key]
	if !hit || v>>(setIDBits+1) != check {
		return 0, false, false
	}
	return int64(v>>1) & (1<<setIDBits - 1), v&1 == 1, true
}

// put records url's page id, and that it is in the frontier when queued (an entry once
// queued stays so). A colliding key keeps its first URL.
func (c *crawlSets) put(set *crawlSet, url string, id int64, queued bool) {
	if id <= 0 || id >= 1<<setIDBits {
		return
	}
	key, check := c.hash(url)
	v, hit := set.m[key]
	if hit && v>>(setIDBits+1) != check {
		return
	}
	if !hit {
		if c.n >= setMax {
			return
		}
		c.n++
	}
	nv := check<<(setIDBits+1) | uint64(id)<<1 | v&1
	if queued {
		nv |= 1
	}
	set.m[key] = nv
}

// emptyFrontier forgets a crawl's set when the current batch empties its frontier, and
// keeps it from loading again until the batch commits (or is rolled back: replayed, the
// batch empties it again).
func (s *Store) emptyFrontier(tx *Tx, crawl int64) {
	c := &s.ids.sets
	c.drop(crawl)
	if c.emptied == nil {
		c.emptied = map[int64]bool{}
	}
	c.emptied[crawl] = true
	tx.OnCommit(func() {
		c.drop(crawl)
		delete(c.emptied, crawl)
	})
}

// drop forgets a crawl's set.
func (c *crawlSets) drop(crawl int64) {
	if set, ok := c.crawls[crawl]; ok {
		c.n -= len(set.m)
		delete(c.crawls, crawl)
	}
}

// crawlSet returns the set of a crawl, loading it from the workspace's committed rows at
// its first use. On an error the crawl goes without a set (every link is looked up).
func (s *Store) crawlSet(ctx context.Context, crawl int64) *crawlSet {
	c := &s.ids.sets
	c.init()
	if set, ok := c.crawls[crawl]; ok || crawl <= 0 || c.emptied[crawl] {
		return set
	}
	set, err := s.loadCrawlSet(ctx, crawl)
	if err != nil {
		set = &crawlSet{m: map[uint64]uint64{}}
	}
	c.crawls[crawl] = set
	return set
}

// loadCrawlSet reads a crawl's URLs: the pages it made or last visited and its frontier.
// It reads through the read pool, so it sees committed rows only; what the writer's
// current batch adds reaches the set when that batch commits.
func (s *Store) loadCrawlSet(ctx context.Context, crawl int64) (*crawlSet, error) {
	c := &s.ids.sets
	var total, mine int64
	if err := s.read.QueryRowContext(ctx, `SELECT (SELECT coalesce(sum(n), 0) FROM counts WHERE name LIKE 'pages:%'),
		(SELECT count(*) FROM pages WHERE crawl_id = ?)`,
		crawl).Scan(&total, &mine); err != nil {
		return nil, fmt.Errorf("crawl %d's urls: %w", crawl, err)
	}
	set := &crawlSet{m: make(map[uint64]uint64, min(mine, int64(setMax-c.n)))}
	c.crawls[crawl] = set // put counts against setMax from here
	if err := s.loadCrawlRows(ctx, c, set, crawl, mine*4 >= total); err != nil {
		c.drop(crawl)
		return nil, fmt.Errorf("crawl %d's urls: %w", crawl, err)
	}
	// Every page was the crawl's: a URL the set lacks is most likely new, so the writer
	// tries the INSERT first (see opState.page).
	set.complete = total == mine && int64(len(set.m)) == total
	return set, nil
}

// loadCrawlRows puts a crawl's frontier and pages in its set. The frontier's page ids come
// first, in order (its key); then the pages the crawl made, read in the table's order when
// they are most of it (a scan reads each b-tree page once, where the pages_crawl index
// reads one per row); then the frontier's pages the crawl did not make.
func (s *Store) loadCrawlRows(ctx context.Context, c *crawlSets, set *crawlSet, crawl int64, scan bool) error {
	var queued []int64
	rows, err := s.read.QueryContext(ctx, `SELECT page_id FROM frontier WHERE crawl_id = ? ORDER BY page_id`, crawl)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		queued = append(queued, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	q := `SELECT id, url FROM pages WHERE crawl_id = ?`
	if scan {
		q = `SELECT id, url FROM pages NOT INDEXED WHERE crawl_id = ?`
	}
	read := func(q string, all bool) error {
		rows, err := s.read.QueryContext(ctx, q, crawl)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var url string
			if err := rows.Scan(&id, &url); err != nil {
				return err
			}
			in := all
			if !in {
				_, in = slices.BinarySearch(queued, id)
			}
			c.put(set, url, id, in)
		}
		return rows.Err()
	}
	if err := read(q, false); err != nil {
		return err
	}
	return read(`SELECT p.id, p.url FROM frontier f JOIN pages p ON p.id = f.page_id
		WHERE f.crawl_id = ?1 AND p.crawl_id IS NOT ?1`, true)
}

// rememberURLs adds what an operation resolved to its crawl's set once its batch commits:
// the pages of the URLs it met, and which of them are now in the crawl's frontier.
func (o *opState) rememberURLs(crawl int64) {
	if crawl <= 0 || len(o.pages) == 0 {
		return
	}
	pages, queued, s := o.pages, o.queued, o.s
	o.tx.OnCommit(func() {
		c := &s.ids.sets
		set, ok := c.crawls[crawl]
		if !ok {
			return // loaded at its next use, with these rows
		}
		in := make(map[int64]bool, len(queued))
		for _, id := range queued {
			in[id] = true
		}
		for url, id := range pages {
			c.put(set, url, id, in[id])
		}
	})
}

// newState is the state of a page created for t.
func newState(t *Target) string {
	if t.Follow {
		return StateQueued
	}
	return StateSkipped
}
