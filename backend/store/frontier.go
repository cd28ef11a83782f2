// The crawl queue: pages leased to a crawl's frontier and given back, in the order its
// strategy asks (see package frontier).

package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
)

// ReasonType is the skip reason of non-HTML resources: recorded from links (and by their
// response headers), indexed by what cites them, never downloaded.
const ReasonType = "type"

// Page states.
const (
	StateQueued     = "queued"
	StateFetched    = "fetched"
	StateRedirected = "redirected"
	StateFailed     = "failed"
	StateSkipped    = "skipped"
)

// Target is a URL found by a crawl: a seed, a link, or a redirect target.
type Target struct {
	URL      string // canonical (urlnorm)
	Origin   string // urlnorm.Origin of URL
	Kind     string // link kind ("a", "img", ..., "redirect", "seed")
	Anchor   string
	Rel      string
	Follow   bool   // put it in the crawl's queue
	Skip     string // when not followed: the reason recorded on a page seen for the first time
	Resource bool   // a non-HTML resource: indexed by the anchor text and titles citing it
	Sitemap  bool   // a sitemap: queued to be read for the URLs it lists
	Depth    int
	Hops     int
	Priority int

	// The element the link makes (see migration 0013): Family is its encoded family index
	// (nil for links that are not documents: images, style sheets...), Category the
	// rules.Value decided before the fetch, Local the LOCAL rule blocks in force below it.
	Family   []byte
	Category uint8
	Local    uint64
	Pos      int // position among the page's links, from 1 (0 for seeds and redirects)
}

// Lease is a queued page handed to the running crawl.
type Lease struct {
	PageID       int64
	URL          string
	Origin       string
	Depth        int
	Hops         int
	State        string
	ETag         string
	LastModified string
	Hash         string
	RefreshAt    int64
	NoFollow     bool // the page said nofollow when last fetched
	Sitemap      bool // queued as a sitemap

	// How the page was reached (Target's fields of the same names); Anchor only when the
	// category waits for the page.
	Family   []byte
	Category uint8
	Local    uint64
	Anchor   string

	Priority int // the queue's order: higher first

	seq int64
}

// ids caches canonical URL -> page id and origin -> host id for the writer, and which pages
// one crawl's frontier holds (most links lead to pages queued already: a no-op insert
// each). Entries are added only after the rows that back them commit, and the maps are
// bounded by clearing.
type ids struct {
	pages map[string]int64
	hosts map[string]int64
	seq   int64

	sets crawlSets // each crawl's URLs and frontier (queued.go)
}

const idCacheMax = 100_000

// forgetFrontier forgets what the cache knows of a crawl's frontier (it was emptied).
func (s *Store) forgetFrontier(tx *Tx, crawl int64) { s.emptyFrontier(tx, crawl) }

func (s *Store) cacheAfterCommit(tx *Tx, pages map[string]int64, hosts map[string]int64, crawl int64, queued []int64) {
	if len(pages) == 0 && len(hosts) == 0 {
		return
	}
	tx.OnCommit(func() {
		if len(s.ids.pages) > idCacheMax {
			clear(s.ids.pages)
		}
		if len(s.ids.hosts) > idCacheMax/10 {
			clear(s.ids.hosts)
		}
		for k, v := range pages {
			s.ids.pages[k] = v
		}
		for k, v := range hosts {
			s.ids.hosts[k] = v
		}
	})
}

// opState carries the ids an operation created, cached once it commits.
type opState struct {
	s      *Store
	tx     *Tx
	pages  map[string]int64
	hosts  map[string]int64
	crawl  int64   // the crawl whose frontier queued holds pages of
	queued []int64 // pages now in the frontier
	// children are the elements the enqueued targets make: uvarint page id, category byte.
	children []byte
	packs    int // link packs stored (see linkpack.go)
}

func (s *Store) newOp(tx *Tx) *opState {
	return &opState{s: s, tx: tx, pages: map[string]int64{}, hosts: map[string]int64{}}
}

func (o *opState) done() {
	o.rememberURLs(o.crawl)
	o.s.cacheAfterCommit(o.tx, o.pages, o.hosts, o.crawl, o.queued)
	if n, e := o.packs, o.s.expand; n > 0 && e != nil {
		o.tx.OnCommit(func() { e.packed(n) })
	}
}

func (o *opState) hostID(ctx context.Context, origin string) (int64, error) {
	if id, ok := o.s.ids.hosts[origin]; ok {
		return id, nil
	}
	if id, ok := o.hosts[origin]; ok {
		return id, nil
	}
	st, err := o.tx.Stmt(ctx, `INSERT INTO hosts(origin) VALUES (?) ON CONFLICT(origin) DO UPDATE SET origin=excluded.origin RETURNING id`)
	if err != nil {
		return 0, err
	}
	var id int64
	if err := st.QueryRowContext(ctx, origin).Scan(&id); err != nil {
		return 0, fmt.Errorf("host %s: %w", origin, err)
	}
	o.hosts[origin] = id
	return id, nil
}

// page returns the id and state of t's page, creating it (state queued when followed, else
// skipped with t.Skip) when it is new. When the page is most likely new (the crawl's set
// held every page and not this one: see queued.go), the INSERT comes first and the
// look-up only when the URL had a row after all.
func (o *opState) page(ctx context.Context, crawlID, parentID int64, t *Target, likelyNew bool) (id int64, state string, created bool, err error) {
	if id, ok := o.pages[t.URL]; ok {
		return id, "", false, nil
	}
	if id, ok := o.s.ids.pages[t.URL]; ok {
		o.pages[t.URL] = id
		return id, "", false, nil
	}
	if likelyNew {
		if id, created, err = o.insertPage(ctx, crawlID, parentID, t, true); err != nil || created {
			return id, newState(t), created, err
		}
	}
	sel, err := o.tx.Stmt(ctx, `SELECT id, state FROM pages WHERE url = ?`)
	if err != nil {
		return 0, "", false, err
	}
	err = sel.QueryRowContext(ctx, t.URL).Scan(&id, &state)
	if err == nil {
		o.pages[t.URL] = id
		return id, state, false, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, "", false, err
	}
	id, _, err = o.insertPage(ctx, crawlID, parentID, t, false)
	return id, newState(t), err == nil, err
}

// insertPage creates t's page; with orNot, it returns created false when the URL has a row.
func (o *opState) insertPage(ctx context.Context, crawlID, parentID int64, t *Target, orNot bool) (id int64, created bool, err error) {
	hid, err := o.hostID(ctx, t.Origin)
	if err != nil {
		return 0, false, err
	}
	state, reason := StateQueued, any(nil)
	if !t.Follow {
		state, reason = StateSkipped, t.Skip
	}
	var parent any
	if parentID > 0 {
		parent = parentID
	}
	q := `INSERT INTO pages(url, host_id, crawl_id, state, reason, depth, parent_id, discovered_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`
	if orNot {
		q = `INSERT INTO pages(url, host_id, crawl_id, state, reason, depth, parent_id, discovered_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(url) DO NOTHING RETURNING id`
	}
	ins, err := o.tx.Stmt(ctx, q)
	if err != nil {
		return 0, false, err
	}
	err = ins.QueryRowContext(ctx, t.URL, hid, crawlID, state, reason, t.Depth, parent, nowMs()).Scan(&id)
	if orNot && errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("page %s: %w", t.URL, err)
	}
	o.pages[t.URL] = id
	return id, true, nil
}

func (s *Store) nextSeq(ctx context.Context, tx *Tx) (int64, error) {
	if s.ids.seq == 0 {
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM frontier`).Scan(&s.ids.seq); err != nil {
			return 0, err
		}
	}
	s.ids.seq++
	return s.ids.seq, nil
}

// enqueue records targets found on page from (0 for seeds): pages, links when withLinks, and
// frontier rows for the followed ones. It returns how many entered the queue.
func (o *opState) enqueue(ctx context.Context, crawlID, from int64, targets []Target, withLinks bool) (int, error) {
	added := 0
	var fr *sql.Stmt // prepared on first use (a database/sql Tx wrapper each)
	// The page's links go into one packed row, expanded into link rows behind the crawl
	// (linkpack.go); the expansion tells the index which targets' rows change.
	var pack linkPack
	// The crawl's URLs in memory answer most links without SQL (queued.go).
	set, sets := o.s.crawlSet(ctx, crawlID), &o.s.ids.sets
	if crawlID > 0 {
		o.crawl = crawlID
	}
	for i := range targets {
		t := &targets[i]
		id, queued, ok := sets.get(set, t.URL)
		var state string
		var created bool
		var err error
		if ok {
			o.pages[t.URL] = id
		} else if id, state, created, err = o.page(ctx, crawlID, from, t, set != nil && set.complete); err != nil {
			return added, err
		}
		if t.Family != nil {
			o.children = binary.AppendUvarint(o.children, uint64(id))
			o.children = append(o.children, t.Category)
		}
		if withLinks && from != 0 {
			pack.add(id, t)
		}
		if !t.Follow || queued {
			continue
		}
		seq, err := o.s.nextSeq(ctx, o.tx)
		if err != nil {
			return added, err
		}
		if fr == nil {
			if fr, err = o.tx.Stmt(ctx, `INSERT INTO frontier(crawl_id, page_id, depth, hops, priority, seq,
				family, category, local_rules, anchor, sitemap) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`); err != nil {
				return added, err
			}
		}
		var anchor any
		if t.Category == 0 && t.Family != nil && t.Anchor != "" {
			anchor = t.Anchor // the rules decide after the fetch and may read it
		}
		res, err := fr.ExecContext(ctx, crawlID, id, t.Depth, t.Hops, t.Priority, seq, t.Family, t.Category,
			int64(t.Local), anchor, t.Sitemap)
		if err != nil {
			return added, fmt.Errorf("queue %s: %w", t.URL, err)
		}
		o.crawl, o.queued = crawlID, append(o.queued, id)
		if n, _ := res.RowsAffected(); n > 0 {
			added++
			if !created && state != StateFetched {
				requeue, err := o.tx.Stmt(ctx, `UPDATE pages SET state=?, reason=NULL, crawl_id=? WHERE id=? AND state=?`)
				if err != nil {
					return added, err
				}
				if _, err := requeue.ExecContext(ctx, StateQueued, crawlID, id, StateSkipped); err != nil {
					return added, err
				}
			}
		}
	}
	if withLinks && from != 0 {
		if err := o.savePack(ctx, from, &pack); err != nil {
			return added, err
		}
	}
	return added, nil
}

// Enqueue adds seeds (or any targets not found on a page) to a crawl's queue.
func (s *Store) Enqueue(ctx context.Context, crawlID int64, targets []Target) (int, error) {
	return Get(ctx, s.writer, func(tx *Tx) (int, error) {
		o := s.newOp(tx)
		added, err := o.enqueue(ctx, crawlID, 0, targets, false)
		if err == nil {
			o.done()
		}
		return added, err
	})
}

// Release returns leased pages to a crawl's queue (the frontier makes room for better ones).
func (s *Store) Release(ctx context.Context, crawlID int64, pageIDs []int64) error {
	ids, err := json.Marshal(pageIDs)
	if err != nil {
		return err
	}
	_, err = Get(ctx, s.writer, func(tx *Tx) (int64, error) {
		res, err := tx.ExecContext(ctx, `UPDATE frontier SET state = 0
			WHERE crawl_id = ? AND state = 1 AND page_id IN (SELECT value FROM json_each(?))`, crawlID, string(ids))
		if err != nil {
			return 0, err
		}
		return res.RowsAffected()
	})
	if err != nil {
		return fmt.Errorf("release: %w", err)
	}
	return nil
}

// Lease takes up to n queued pages of a crawl, in priority, depth and discovery order, and
// marks them leased. Leases are returned to the queue by StartRun and FinishRun(paused).
func (s *Store) Lease(ctx context.Context, crawlID int64, n int) ([]Lease, error) {
	out, err := Get(ctx, s.writer, func(tx *Tx) ([]Lease, error) {
		var out []Lease
		st, err := tx.Stmt(ctx, `UPDATE frontier SET state = 1
			WHERE crawl_id = ?1 AND page_id IN (
				SELECT page_id FROM frontier WHERE crawl_id = ?1 AND state = 0
				ORDER BY priority DESC, depth, seq LIMIT ?2)
			RETURNING page_id, depth, hops, priority, seq, family, category, local_rules, coalesce(anchor, ''), sitemap`)
		if err != nil {
			return nil, err
		}
		rows, err := st.QueryContext(ctx, crawlID, n)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var l Lease
			var local int64
			if err := rows.Scan(&l.PageID, &l.Depth, &l.Hops, &l.Priority, &l.seq, &l.Family, &l.Category,
				&local, &l.Anchor, &l.Sitemap); err != nil {
				rows.Close()
				return nil, err
			}
			l.Local = uint64(local)
			out = append(out, l)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		pg, err := tx.Stmt(ctx, `SELECT p.url, h.origin, p.state, coalesce(p.etag,''), coalesce(p.last_modified,''),
			coalesce(p.hash,''), coalesce(p.refresh_at,0), p.nofollow FROM pages p JOIN hosts h ON h.id = p.host_id WHERE p.id = ?`)
		if err != nil {
			return nil, err
		}
		for i := range out {
			l := &out[i]
			if err := pg.QueryRowContext(ctx, l.PageID).Scan(&l.URL, &l.Origin, &l.State, &l.ETag,
				&l.LastModified, &l.Hash, &l.RefreshAt, &l.NoFollow); err != nil {
				return nil, fmt.Errorf("leased page %d: %w", l.PageID, err)
			}
		}
		return out, nil
	})
	if err != nil {
		return nil, fmt.Errorf("lease: %w", err)
	}
	// RETURNING yields rows in no particular order: restore the queue's.
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Priority != b.Priority {
			return a.Priority > b.Priority
		}
		if a.Depth != b.Depth {
			return a.Depth < b.Depth
		}
		return a.seq < b.seq
	})
	return out, nil
}
