package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"mundaneum/backend/store"
)

// Progress is how far behind the workspace the index is.
type Progress struct {
	Indexed  int64 // rows of the index: pages (and resources known from links) searchable
	Waiting  int64 // fetched pages not searchable yet
	Updating int64 // searchable pages whose new text or anchor text is not indexed yet
	Unread   int64 // changes the workspace noted that the index has not read yet
	// Approx: Waiting and Updating count the first tailCap unread notes only (lower bounds).
	Approx bool
	// Missing: the workspace has no index (yet); a process that writes the workspace
	// builds it.
	Missing    bool
	Rebuilding bool
	Reason     string // why the index is being rebuilt
	Pairs      PairsProgress
	Err        string // the stage's last failure (it retries)
}

// Current reports whether every change the workspace noted is searchable.
func (p Progress) Current() bool {
	return !p.Missing && !p.Rebuilding && p.Waiting == 0 && p.Updating == 0 && p.Unread == 0 && p.Err == ""
}

// String is the progress in words, for the CLI: "12,400 of 20,000 pages searchable".
func (p Progress) String() string {
	switch {
	case p.Missing:
		return "no search index yet"
	case p.Rebuilding:
		return fmt.Sprintf("rebuilding the search index: %s pages indexed, %s to go (%s)", thousands(p.Indexed), thousands(p.Waiting), p.Reason)
	}
	s := fmt.Sprintf("%s of %s pages searchable", thousands(p.Indexed), thousands(p.Indexed+p.Waiting))
	if p.Approx {
		s = fmt.Sprintf("%s of at least %s pages searchable", thousands(p.Indexed), thousands(p.Indexed+p.Waiting))
	}
	if p.Updating > 0 {
		s += fmt.Sprintf(", %s being updated", thousands(p.Updating))
	}
	if p.Err != "" {
		s += "; indexing failed: " + p.Err
	}
	return s
}

func thousands(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// progressCache keeps what Progress measured: the crawl asks a few times a second, and
// counting the pages behind costs a scan of the log's unread part.
type progressCache struct {
	mu     sync.Mutex
	at     time.Time
	p      Progress
	tailAt time.Time     // when the unread part was last counted
	took   time.Duration // what counting it took
	tail   [2]int64      // what it found: waiting, updating
	// rebuildTotal is what the rebuild of generation rebuildGen walks.
	rebuildGen, rebuildTotal int64
}

const progressTTL = 250 * time.Millisecond

// rebuildTotalSQL counts the pages a rebuild walks: every stored text, and the resources a
// link cites (store.CitedSQL: through the links view, SQLite read every link of the
// workspace for each resource, minutes at 100,000 pages; TestRebuildTotalPlan).
const rebuildTotalSQL = `SELECT (SELECT count(*) FROM page_text) + (SELECT count(*) FROM pages p
	WHERE state = 'skipped' AND reason = 'type' AND ` + store.CitedSQL + `)`

// Progress says how far behind the workspace the index is. Whether it is current is always
// exact; how many pages wait is counted again every few seconds while it is not.
func (x *Index) Progress(ctx context.Context) Progress {
	c := &x.progress
	c.mu.Lock()
	defer c.mu.Unlock()
	if time.Since(c.at) < progressTTL {
		return c.p
	}
	p, err := x.measure(ctx, c)
	if err != nil {
		p.Err = err.Error()
	}
	c.p, c.at = p, time.Now()
	return p
}

func (x *Index) measure(ctx context.Context, c *progressCache) (Progress, error) {
	var p Progress
	var s state
	var deferred int64
	if x.st != nil {
		x.st.mu.Lock()
		pub := x.st.pub
		x.st.mu.Unlock()
		s, deferred, p.Pairs, p.Reason = pub.state, pub.deferred, pub.pairs, pub.why
		if pub.err != nil {
			p.Err = pub.err.Error()
		}
		if !s.present {
			p.Missing = true
			return p, nil
		}
	} else {
		var err error
		if s, err = readState(ctx, x.stat, ""); err != nil {
			if strings.Contains(err.Error(), "no such table") {
				p.Missing = true
				return p, nil
			}
			return p, err
		}
		if !s.present {
			p.Missing = true
			return p, nil
		}
		if why, err := x.checkState(ctx, s); err != nil || why != "" {
			p.Missing, p.Reason = true, why
			return p, err
		}
		if err := x.stat.QueryRowContext(ctx, `SELECT count(*) FROM deferred`).Scan(&deferred); err != nil {
			return p, fmt.Errorf("index progress: %w", err)
		}
		p.Pairs = readPairs(ctx, x.stat, s.Rows)
	}
	p.Indexed, p.Rebuilding = s.Rows, s.Rebuilding
	db := x.stat
	if err := db.QueryRowContext(ctx, `SELECT coalesce(max(seq), ?1) - ?1 FROM index_log`, s.Applied).Scan(&p.Unread); err != nil {
		return p, fmt.Errorf("index progress: %w", err)
	}
	p.Updating, p.Approx = deferred, p.Unread > tailCap && !s.Rebuilding
	if p.Unread == 0 && !s.Rebuilding {
		return p, nil // nothing waits: exact without counting
	}
	if s.Rebuilding {
		// The pages a rebuild walks are counted once; those not indexed yet wait.
		if c.rebuildGen != s.Generation {
			var total int64
			if err := db.QueryRowContext(ctx, rebuildTotalSQL).Scan(&total); err != nil {
				return p, fmt.Errorf("index progress: %w", err)
			}
			c.rebuildGen, c.rebuildTotal = s.Generation, total
		}
		p.Waiting = max(c.rebuildTotal-s.Rows, 0)
		return p, nil
	}
	if time.Since(c.tailAt) < max(3*time.Second, 20*c.took) {
		p.Waiting, p.Updating = c.tail[0], c.tail[1]+deferred
		return p, nil
	}
	start := time.Now()
	var waiting, updating int64
	var err error
	{
		// The pages named in the unread notes: fetched ones without a row wait; those with a
		// row and new text are being updated (new anchor text is, once deferred).
		err = db.QueryRowContext(ctx, `WITH tail AS (SELECT page_id, min(anchors) AS anchors
				FROM (SELECT page_id, anchors FROM index_log WHERE seq > ? ORDER BY seq LIMIT ?) GROUP BY page_id)
			SELECT
				(SELECT count(*) FROM tail JOIN pages p ON p.id = tail.page_id
					WHERE p.state = 'fetched' AND p.duplicate_of IS NULL AND p.noindex = 0
					AND NOT EXISTS (SELECT 1 FROM page_fts_docsize d WHERE d.id = tail.page_id)),
				(SELECT count(*) FROM tail WHERE anchors = 0 AND EXISTS (SELECT 1 FROM page_fts_docsize d WHERE d.id = tail.page_id))`,
			s.Applied, tailCap).Scan(&waiting, &updating)
	}
	if err != nil {
		return p, fmt.Errorf("index progress: %w", err)
	}
	c.tailAt, c.took, c.tail = time.Now(), time.Since(start), [2]int64{waiting, updating}
	p.Waiting, p.Updating = waiting, updating+deferred
	return p, nil
}

// tailCap is how many unread notes Progress reads to count the pages behind.
const tailCap = 100_000

func readPairs(ctx context.Context, db *sql.DB, rows int64) PairsProgress {
	p := PairsProgress{Total: rows}
	var builtTo, maxID int64
	err := db.QueryRowContext(ctx, `SELECT built_to, complete, (SELECT count(*) FROM pair_words),
		(SELECT coalesce(max(id), 0) FROM page_fts_docsize), (SELECT count(*) FROM pair_missing)
		FROM pair_state`).Scan(&builtTo, &p.Complete, &p.Words, &maxID, &p.Missing)
	switch {
	case err != nil:
	case p.Complete:
		p.Done = max(rows-p.Missing, 0)
	case maxID > 0:
		p.Done = int64(float64(rows) * float64(builtTo) / float64(maxID))
	}
	p.Complete = p.Complete && p.Missing == 0
	return p
}

// ErrReadOnly means the index was opened read-only: another process writes it.
var ErrReadOnly = errors.New("the index is open read-only")

// Wait returns once every change the workspace noted so far is searchable (anchor text
// included), reporting progress a few times a second, or when ctx ends.
func (x *Index) Wait(ctx context.Context, report func(Progress)) error {
	return x.await(ctx, false, report)
}

// Settle is Wait, and then the idle work done too: the pair index built (when the index is
// large enough for it) and the segments merged, which make searches faster.
func (x *Index) Settle(ctx context.Context, report func(Progress)) error {
	return x.await(ctx, true, report)
}

// Rebuild empties the index and indexes every stored page again (for a tokenizer or
// ranking change, and for recovery), then settles, reporting progress.
func (x *Index) Rebuild(ctx context.Context, report func(Progress)) error {
	if err := x.StartRebuild(); err != nil {
		return err
	}
	return x.Settle(ctx, report)
}

// StartRebuild asks for a rebuild and returns at once; from then on Progress says the index
// is being rebuilt (never "current" from before the request), and Settle waits for the end.
func (x *Index) StartRebuild() error {
	if x.st == nil {
		return ErrReadOnly
	}
	x.st.requestReset("rebuild asked for")
	x.progress.mu.Lock()
	x.progress.at = time.Time{}
	x.progress.mu.Unlock()
	return nil
}

func (x *Index) await(ctx context.Context, settle bool, report func(Progress)) error {
	if x.st == nil {
		return ErrReadOnly
	}
	// Everything stored so far, the links the crawl stored packed included: their
	// expansion notes the pages whose anchor text changed.
	if err := x.src.ExpandLinks(ctx); err != nil {
		return err
	}
	target, err := x.src.IndexLogEnd(ctx)
	if err != nil {
		return err
	}
	w := x.st.wait(target, settle)
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-w.done:
			x.progress.mu.Lock()
			x.progress.at, x.progress.tailAt = time.Time{}, time.Time{} // what it said before is stale now
			x.progress.mu.Unlock()
			if report != nil {
				report(x.Progress(ctx))
			}
			return err
		case <-ctx.Done():
			x.st.forget(w)
			return ctx.Err()
		case <-tick.C:
			if report != nil {
				report(x.Progress(ctx))
			}
		}
	}
}
