package store

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"
)

// The workspace's counts are defined here, once each, and every front door shows these
// (the window's status line and Settings, `status` and its --json, serve, a crawl's card,
// its page list and the CLI's progress line). They used to disagree, and each root of a
// disagreement is a difference between two things that were both called "pages":
//
//   - Pages fetched (state fetched): pages and documents downloaded and stored. A redirect
//     is not one (state redirected; its target is the page), nor is a page that failed.
//   - Links recorded, not pages (Recorded, a part of the rows in state skipped): URLs that
//     links name and that no crawl meant to fetch: off-site or out of the crawl's scope,
//     not HTML or text (style sheets, scripts, images, files), or refused by the crawl's
//     rules. They have a row so that what links to them is known, and a crawl of one site
//     records more of them than it fetches pages (1,680 beside the PostgreSQL manual's
//     1,169 pages): counted as "skipped", a good crawl read as a failing one.
//   - Skipped (the rest of state skipped): pages a crawl would have fetched and left out,
//     for robots.txt, a depth limit, a per-host cap, a spider trap or nofollow.
//   - Searchable (the rows of the search index, backend/index): not the pages fetched. A
//     file known from links (Resources: one a page cites by a link, an image, an embed)
//     is searchable by what cites it without being fetched; a duplicate, a noindex page, a
//     redirect and a 404 have no row; a page that failed with a server error keeps its last
//     good copy's row. The index's rebuild also used to index every file known from links
//     (style sheets and scripts included) where the crawl indexed only cited ones: after
//     Settings' "Rebuild", 1,175 searchable where `status` said 1,173 (IndexTexts now
//     decides both by CitedKinds).

// Recorded is the part of a count of pages by state (Counts.Pages, CrawlCounts) that holds
// the links recorded, not pages: rows in state skipped whose reason is in RecordedReasons.
// It is not a stored state; the skipped count excludes them, so the parts still add up.
const Recorded = "recorded"

// RecordedReasons are the skip reasons of links recorded, not pages: out of scope, not HTML
// or text (crawl.ReasonType), refused by the crawl's rules (crawl.ReasonRule).
var RecordedReasons = []string{"scope", ReasonType, "rule"}

// IsRecorded reports whether a skipped page with this reason is a link recorded, not a page.
func IsRecorded(reason string) bool {
	for _, r := range RecordedReasons {
		if reason == r {
			return true
		}
	}
	return false
}

// recordedFilter is the SQL condition on pages p that keeps the links recorded (which > 0),
// leaves them out (which < 0) or does nothing (0).
func recordedFilter(which int) string {
	if which == 0 {
		return ""
	}
	in := `coalesce(p.reason, '') IN ('` + strings.Join(RecordedReasons, `', '`) + `')`
	if which < 0 {
		return ` AND NOT ` + in
	}
	return ` AND ` + in
}

// censusSQL counts the skipped pages matching where by reason, and the cited resources
// among them (CitedSQL, not the links view: TestIndexTextsPlan).
func censusSQL(where string) string {
	return `SELECT coalesce(reason, ''), count(*), coalesce(sum(reason = 'type' AND ` + CitedSQL + `), 0)
		FROM pages p WHERE ` + where + ` GROUP BY 1`
}

// CitedKinds are, as an SQL list, the kinds of link by which a page cites a file to its
// reader (the crawl's citedKinds): a file known from links is searchable when one of these
// names it. Style sheets, scripts and form targets are plumbing, not citations.
const CitedKinds = `('a', 'area', 'img', 'embed', 'object', 'media', 'text')`

// Counts are the workspace's totals.
type Counts struct {
	// Pages by state, with the links recorded, not pages, apart (Recorded): Pages[StateSkipped]
	// is the pages skipped only.
	Pages map[string]int64
	// Resources are the files known from links that the search index holds (by what cites
	// them), never fetched: searchable, and not among the pages.
	Resources int64
	Hosts     int64
	Links     int64
	Blobs     int64
}

// Searchable splits the index's rows (indexed) into pages and files known from links.
func (c Counts) Searchable(indexed int64) (pages, files int64) {
	files = min(c.Resources, indexed)
	return indexed - files, files
}

// Counts returns the workspace's totals, which triggers keep in the counts table
// (migration 0005): a read of a few rows, whatever the workspace's size, and a count of the
// skipped rows when they changed (skipCensus).
func (s *Store) Counts(ctx context.Context) (Counts, error) {
	c := Counts{Pages: map[string]int64{}}
	for _, st := range pageStates {
		c.Pages[st] = 0
	}
	rows, err := s.read.QueryContext(ctx, `SELECT name, n FROM counts`)
	if err != nil {
		return c, fmt.Errorf("count: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var n int64
		if err := rows.Scan(&name, &n); err != nil {
			return c, fmt.Errorf("count: %w", err)
		}
		switch name {
		case "hosts":
			c.Hosts = n
		case "links":
			c.Links = n
		case "blobs":
			c.Blobs = n
		default:
			// A state no page has any more keeps its row at 0: leave it out, as a GROUP BY
			// would (the usual states are always there).
			if st, ok := strings.CutPrefix(name, "pages:"); ok && n != 0 {
				c.Pages[st] = n
			}
		}
	}
	if err := rows.Err(); err != nil {
		return c, fmt.Errorf("count: %w", err)
	}
	rows.Close()
	// Links not expanded yet count too (linkpack.go).
	var packed int64
	if err := s.read.QueryRowContext(ctx, `SELECT coalesce(sum(n), 0) FROM link_packs`).Scan(&packed); err != nil {
		return c, fmt.Errorf("count: %w", err)
	}
	c.Links += packed
	cen, err := s.skipCensus(ctx, 0, c.Pages[StateSkipped])
	if err != nil {
		return c, err
	}
	c.Pages[Recorded] = min(cen.recorded(), c.Pages[StateSkipped])
	c.Pages[StateSkipped] -= c.Pages[Recorded]
	c.Resources = cen.resources
	return c, nil
}

// SkipReasons counts the skipped rows of a crawl (0: of the whole workspace) by reason,
// links recorded and pages skipped alike.
func (s *Store) SkipReasons(ctx context.Context, crawlID int64) (map[string]int64, error) {
	var skipped int64
	var err error
	if crawlID == 0 {
		err = s.read.QueryRowContext(ctx, `SELECT coalesce((SELECT n FROM counts WHERE name = 'pages:skipped'), 0)`).Scan(&skipped)
	} else {
		err = s.read.QueryRowContext(ctx, `SELECT coalesce((SELECT n FROM crawl_counts WHERE crawl_id = ? AND state = 'skipped'), 0)`,
			crawlID).Scan(&skipped)
	}
	if err != nil {
		return nil, fmt.Errorf("skipped pages: %w", err)
	}
	c, err := s.skipCensus(ctx, crawlID, skipped)
	return maps.Clone(c.reasons), err
}

// splitRecorded moves a crawl's links recorded, not pages, out of its skipped count.
func (s *Store) splitRecorded(ctx context.Context, crawlID int64, pages map[string]int64) error {
	c, err := s.skipCensus(ctx, crawlID, pages[StateSkipped])
	if err != nil {
		return err
	}
	// The census may have been counted a moment after the states were: never more links
	// recorded than skipped rows.
	pages[Recorded] = min(c.recorded(), pages[StateSkipped])
	pages[StateSkipped] -= pages[Recorded]
	return nil
}

// census is what the skipped rows of a crawl (or of the workspace) hold.
type census struct {
	version   int64            // the database's data_version when counted
	skipped   int64            // the rows in state skipped
	reasons   map[string]int64 // by reason
	resources int64            // files known from links and cited: searchable
	at        time.Time
	took      time.Duration
}

func (c census) recorded() int64 {
	var n int64
	for _, r := range RecordedReasons {
		n += c.reasons[r]
	}
	return n
}

// censusCache keeps the last census of each crawl (0: the workspace). The triggers count
// rows by state only (migrations 0005 and 0015), so which skipped rows are links recorded
// is a count over them, kept until anything is written to the workspace: SQLite's
// data_version, read on a connection of the cache's own, changes with every commit of any
// other connection, this process's writer and other processes alike. While a crawl of more
// than bigCensus skipped rows writes every moment, it is counted again at most every 20
// times what counting took; meanwhile the new skipped rows count as links recorded, which
// nearly all of them are, and the end of a run counts afresh (forgetCensus).
type censusCache struct {
	mu   sync.Mutex
	conn *sql.Conn // nil until first used
	m    map[int64]census
}

// bigCensus is the number of skipped rows above which a census is not counted afresh at
// every commit: counting 300,000 of them took a second on a loaded machine.
const bigCensus = 50_000

func (s *Store) skipCensus(ctx context.Context, crawlID, skipped int64) (census, error) {
	cc := &s.census
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.conn == nil {
		conn, err := s.read.Conn(ctx)
		if err != nil {
			return census{}, fmt.Errorf("count skipped pages: %w", err)
		}
		cc.conn = conn
	}
	var version int64
	if err := cc.conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&version); err != nil {
		return census{}, fmt.Errorf("count skipped pages: %w", err)
	}
	old, ok := cc.m[crawlID]
	switch {
	case ok && old.version == version && old.skipped == skipped:
		return old, nil
	case ok && old.skipped > bigCensus && time.Since(old.at) < 20*old.took:
		c := old
		c.reasons = maps.Clone(old.reasons)
		c.reasons[RecordedReasons[0]] += skipped - old.skipped
		c.skipped = skipped
		return c, nil
	}
	start := time.Now()
	where := `state = 'skipped'`
	args := []any{}
	if crawlID != 0 {
		where = `crawl_id = ? AND state = 'skipped'`
		args = append(args, crawlID)
	}
	rows, err := cc.conn.QueryContext(ctx, censusSQL(where), args...)
	if err != nil {
		return census{}, fmt.Errorf("count skipped pages: %w", err)
	}
	defer rows.Close()
	c := census{version: version, reasons: map[string]int64{}}
	for rows.Next() {
		var reason string
		var n, res int64
		if err := rows.Scan(&reason, &n, &res); err != nil {
			return census{}, fmt.Errorf("count skipped pages: %w", err)
		}
		c.reasons[reason] += n
		c.skipped += n
		c.resources += res
	}
	if err := rows.Err(); err != nil {
		return census{}, fmt.Errorf("count skipped pages: %w", err)
	}
	c.at, c.took = time.Now(), time.Since(start)
	if cc.m == nil {
		cc.m = map[int64]census{}
	}
	cc.m[crawlID] = c
	return c, nil
}

// closeCensus gives the census's connection back (Close).
func (s *Store) closeCensus() error {
	s.census.mu.Lock()
	defer s.census.mu.Unlock()
	if s.census.conn == nil {
		return nil
	}
	err := s.census.conn.Close()
	s.census.conn = nil
	return err
}

// forgetCensus makes the next count of a crawl's (and the workspace's) skipped rows exact:
// a run ended.
func (s *Store) forgetCensus(crawlID int64) {
	s.census.mu.Lock()
	delete(s.census.m, crawlID)
	delete(s.census.m, 0)
	s.census.mu.Unlock()
}
