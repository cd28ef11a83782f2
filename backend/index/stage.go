package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"mundaneum/backend/pairs"
)

// How the stage paces itself.
const (
	// batchPages is the most pages one transaction (re)indexes (about 5 MB of text). FTS5
	// writes a segment per megabyte of terms it collects; a larger hash (its 'hashsize')
	// measured slower here: more memory handed back to the OS and faulted in again.
	batchPages = 256
	// logRead is the most log notes read at a time.
	logRead = 8192
	// anchorDelay is how long the log must have been quiet before the rows of pages whose
	// incoming anchor text changed are rewritten: a crawl adds anchors to the same pages
	// again and again, and a row is rewritten whole (its body too).
	anchorDelay = 2 * time.Second
	// maxDefer is the longest a row waits for its anchor text while the log is busy.
	maxDefer = 5 * time.Minute
	// maintainDelay is how long the stage must have been idle before it works on the pair
	// index and merges segments (both only make searches faster).
	maintainDelay = 5 * time.Second
	// pollEvery is how often an idle stage looks at the log: other processes may write
	// the workspace too.
	pollEvery = 2 * time.Second
	// trimEvery is how many applied notes the stage lets pile up before it trims the log.
	trimEvery = 50_000
)

// stage is the goroutine that keeps the index up to date.
type stage struct {
	x      *Index
	ctx    context.Context
	cancel context.CancelFunc
	notify chan struct{}
	done   chan struct{}

	// The stage goroutine's own state.
	state     state
	deferred  int64 // rows of the deferred table
	words     *pairs.Words
	lastNote  time.Time // when the stage last applied log notes
	lastFlush time.Time // when deferred anchors were last rewritten
	trimmed   int64     // the log was last trimmed up to here
	merged    bool      // nothing left to merge since the last write
	settled   bool      // nothing left to do at all since the last write
	covered   covers    // rows written from a state newer than some notes still to read
	ahead     *ahead    // the next batch, read beside the current one's writing

	mu       sync.Mutex
	waiters  []*waiter
	urgent   int    // waiters want deferred rows rewritten now
	resetWhy string // a rebuild was asked for
	pub      published
}

// published is what the stage tells other goroutines.
type published struct {
	state    state
	deferred int64
	pairs    PairsProgress
	err      error
	why      string // why the index is being rebuilt
	busy     bool   // the stage is working, not waiting
}

type waiter struct {
	target int64 // log seq to reach
	settle bool  // and the idle work done (pair index, merges)
	done   chan error
}

func newStage(x *Index) *stage {
	ctx, cancel := context.WithCancel(context.Background())
	return &stage{x: x, ctx: ctx, cancel: cancel, notify: make(chan struct{}, 1), done: make(chan struct{})}
}

// kick wakes the stage: the workspace noted changes.
func (s *stage) kick() {
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

func (s *stage) close() error {
	s.cancel()
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, w := range s.waiters {
		w.done <- errClosed
	}
	s.waiters = nil
	return nil
}

var errClosed = errors.New("index closed")

// run is the stage's loop. Its steps run on a thread of the lowest CPU priority (see
// lowerPriority), so that indexing takes what the crawl leaves of the machine, unless
// someone waits for the index (the end of a crawl, a search catching up, a rebuild asked
// for): then at the usual priority.
func (s *stage) run() {
	defer close(s.done)
	low := newRunner()
	defer low.stop()
	var err error
	low.do(func() { err = s.load() })
	if err != nil {
		s.fail(err)
		return
	}
	backoff := time.Duration(0)
	for s.ctx.Err() == nil {
		var did bool
		if s.waited() {
			did, err = s.step()
		} else {
			low.do(func() { did, err = s.step() })
		}
		switch {
		case err != nil && s.ctx.Err() == nil:
			s.fail(err)
			backoff = min(max(2*backoff, time.Second), time.Minute)
		case err == nil:
			backoff = 0
			s.clearErr()
		}
		s.answerWaiters()
		if did && err == nil {
			continue
		}
		s.setBusy(false)
		wait := pollEvery
		if backoff > 0 {
			wait = backoff
		} else if s.deferred > 0 || !s.merged {
			wait = anchorDelay / 2 // come back for the deferred rows or the merges
		}
		t := time.NewTimer(wait)
		select {
		case <-s.ctx.Done():
		case <-s.notify:
		case <-t.C:
		}
		t.Stop()
		s.setBusy(true)
	}
}

// waited reports whether someone waits for the index.
func (s *stage) waited() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.waiters) > 0 || s.resetWhy != ""
}

// runner runs functions on a goroutine locked to a thread of its own, at the lowest CPU
// priority: the thread dies with the goroutine, its priority with it.
type runner struct{ fns chan func() }

func newRunner() *runner {
	r := &runner{fns: make(chan func())}
	go func() {
		runtime.LockOSThread()
		lowerPriority()
		for fn := range r.fns {
			fn()
		}
	}()
	return r
}

func (r *runner) do(fn func()) {
	done := make(chan struct{})
	r.fns <- func() { fn(); close(done) }
	<-done
}

func (r *runner) stop() { close(r.fns) }

// load reads the state the stage starts from.
func (s *stage) load() error {
	st, err := readState(s.ctx, s.x.db, "")
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	s.state = st
	if err := s.x.applyFix(s.ctx); err != nil { // left by a kill after a batch
		return err
	}
	if err := s.x.db.QueryRowContext(s.ctx, `SELECT count(*) FROM deferred`).Scan(&s.deferred); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if s.words, err = PairWords(s.ctx, s.x.db); err != nil {
		return err
	}
	s.trimmed = st.Applied
	s.covered = covers{}
	s.takeAhead(nil)
	s.lastFlush = time.Now()
	s.merged, s.settled = false, false
	s.mu.Lock()
	s.pub.why = ""
	if st.Rebuilding {
		s.pub.why = s.x.why
	}
	s.pub.pairs = readPairs(s.ctx, s.x.db, st.Rows)
	s.mu.Unlock()
	s.publish()
	return nil
}

// requestReset asks the stage to empty the index and rebuild it.
func (s *stage) requestReset(why string) {
	s.mu.Lock()
	s.resetWhy = why
	s.mu.Unlock()
	s.kick()
}

func (s *stage) takeReset() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	why := s.resetWhy
	s.resetWhy = ""
	return why
}

// step does one piece of work and reports whether there was any.
func (s *stage) step() (bool, error) {
	if why := s.takeReset(); why != "" {
		if err := s.x.reset(s.ctx, why); err != nil {
			return false, err
		}
		return true, s.load()
	}
	if s.state.Rebuilding {
		return true, s.rebuildStep()
	}
	now := time.Now()
	// Rows waiting too long for their anchor text are rewritten even while the log is busy.
	if s.deferred > 0 && now.Sub(s.lastFlush) > maxDefer {
		return true, s.anchorStep()
	}
	n, err := s.logStep()
	if err != nil || n > 0 {
		return true, err
	}
	if s.state.Applied-s.trimmed >= trimEvery || (s.state.Applied > s.trimmed && now.Sub(s.lastNote) > anchorDelay) {
		if err := s.x.src.TrimIndexLog(s.ctx, s.state.Applied); err != nil {
			return false, err
		}
		s.trimmed = s.state.Applied
	}
	if s.deferred > 0 && (s.wantUrgent() || now.Sub(s.lastNote) >= anchorDelay) {
		return true, s.anchorStep()
	}
	settle := s.wantSettle()
	if !settle && (s.wantUrgent() || now.Sub(s.lastNote) < maintainDelay) {
		return false, nil
	}
	did, err := s.maintainStep()
	if err == nil && !did {
		s.settled = true
	}
	return did, err
}

func (s *stage) wantUrgent() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.urgent > 0
}

func (s *stage) wantSettle() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, w := range s.waiters {
		if w.settle {
			return true
		}
	}
	return false
}

// logStep applies the next log notes: up to batchPages pages (re)indexed, anchor-only
// notes of indexed pages deferred. It returns how many notes it applied.
func (s *stage) logStep() (int, error) {
	es, err := s.x.src.IndexLog(s.ctx, s.state.Applied, logRead)
	if err != nil || len(es) == 0 {
		return 0, err
	}
	b := s.nextBatch(es, nil)
	in := s.takeAhead(b.docs)
	if in == nil {
		if in, err = s.read(b.docs); err != nil {
			return 0, err
		}
	}
	// While someone waits, the next batch's pages are read beside this one's writing (on
	// the machine's other core): the notes are at hand, and the rows written now cover
	// every note read so far (see read).
	if rest := es[b.n:]; len(rest) > 0 && s.waited() {
		cur := make(map[int64]bool, len(b.docs))
		for _, id := range b.docs {
			cur[id] = true
		}
		if next := s.nextBatch(rest, cur); len(next.docs) > 0 {
			s.readAhead(next.docs)
		}
	}
	err = s.write(in, func(ctx context.Context, tx *sql.Tx, w *rowWriter) error {
		// A page with new anchor text keeps its row until the log is quiet (see anchorDelay);
		// one without a row gets its anchors when it is indexed.
		for _, id := range b.anchors {
			had, err := w.indexed(ctx, id)
			if err != nil {
				return err
			}
			if had {
				res, err := tx.ExecContext(ctx, `INSERT INTO deferred(page_id, since) VALUES (?, ?) ON CONFLICT DO NOTHING`, id, time.Now().UnixMilli())
				if err != nil {
					return fmt.Errorf("index: %w", err)
				}
				if k, _ := res.RowsAffected(); k > 0 {
					s.deferred++
				}
			}
		}
		if err := s.undefer(ctx, tx, b.docs); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE index_state SET applied = ?, applied_page = ?`, b.last.Seq, b.last.PageID)
		return err
	})
	if err != nil {
		return 0, err
	}
	s.state.Applied, s.state.AppliedPage = b.last.Seq, b.last.PageID
	s.covered.forget(b.last.Seq)
	s.lastNote = time.Now()
	s.publish()
	return b.n, nil
}

// undefer drops pages from the deferred rows: their rows are being rewritten anyway.
func (s *stage) undefer(ctx context.Context, tx *sql.Tx, ids []int64) error {
	if s.deferred == 0 || len(ids) == 0 {
		return nil
	}
	st, err := tx.PrepareContext(ctx, `DELETE FROM deferred WHERE page_id = ?`)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	defer st.Close()
	for _, id := range ids {
		res, err := st.ExecContext(ctx, id)
		if err != nil {
			return fmt.Errorf("index: %w", err)
		}
		if k, _ := res.RowsAffected(); k > 0 {
			s.deferred--
		}
	}
	return nil
}

// anchorStep rewrites the rows of up to batchPages pages whose anchor text changed.
func (s *stage) anchorStep() error {
	rows, err := s.x.db.QueryContext(s.ctx, `SELECT page_id FROM deferred ORDER BY page_id LIMIT ?`, batchPages)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	in, err := s.read(ids)
	if err != nil {
		return err
	}
	err = s.write(in, func(ctx context.Context, tx *sql.Tx, _ *rowWriter) error {
		return s.undefer(ctx, tx, ids)
	})
	if err == nil && s.deferred == 0 {
		s.lastFlush = time.Now()
	}
	s.publish()
	return err
}

// rebuildStep indexes the next stored pages of a rebuild, or ends it.
func (s *stage) rebuildStep() error {
	ids, err := s.x.src.IndexablePages(s.ctx, s.state.RebuiltThrough, batchPages)
	if err != nil {
		return err
	}
	through := s.state.RebuiltThrough
	if len(ids) > 0 {
		through = ids[len(ids)-1]
	}
	done := len(ids) < batchPages
	in := s.takeAhead(ids)
	if in == nil {
		if in, err = s.read(ids); err != nil {
			return err
		}
	}
	if !done && s.waited() {
		// The next pages of the rebuild are read beside this batch's writing.
		if next, err := s.x.src.IndexablePages(s.ctx, through, batchPages); err == nil && len(next) > 0 {
			s.readAhead(next)
		}
	}
	err = s.write(in, func(ctx context.Context, tx *sql.Tx, _ *rowWriter) error {
		_, err := tx.ExecContext(ctx, `UPDATE index_state SET rebuilt_through = ?, rebuilding = ?`, through, !done)
		return err
	})
	if err != nil {
		return err
	}
	s.state.RebuiltThrough, s.state.Rebuilding = through, !done
	if done {
		s.mu.Lock()
		s.pub.why = ""
		s.mu.Unlock()
	}
	s.publish()
	return nil
}

// write (re)indexes the pages read, with before's plain writes first, in one transaction
// of the index.
func (s *stage) write(in *inputs, before func(context.Context, *sql.Tx, *rowWriter) error) error {
	ctx := s.ctx
	ids, ins, end := in.ids, in.ins, in.end
	tx, err := s.x.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	defer tx.Rollback()
	w, err := newRowWriter(ctx, tx, s.words)
	if err != nil {
		return err
	}
	defer w.close()
	p, err := w.plan(ctx, ins)
	if err != nil {
		return err
	}
	if err := before(ctx, tx, w); err != nil {
		return err
	}
	if err := saveFix(ctx, tx, p.fix); err != nil {
		return err
	}
	if p.rows != 0 {
		if _, err := tx.ExecContext(ctx, `UPDATE index_state SET rows = rows + ?`, p.rows); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	if err := w.apply(ctx, p); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if !p.fix.zero() {
		if err := s.x.applyFix(ctx); err != nil {
			return err
		}
	}
	if end > s.state.Applied {
		s.covered.add(ids, end)
	}
	s.state.Rows += p.rows
	if len(p.docs)+len(p.gone) > 0 {
		s.merged, s.settled = false, false
	}
	return nil
}

func (s *stage) fail(err error) {
	s.mu.Lock()
	s.pub.err = err
	s.mu.Unlock()
}

func (s *stage) clearErr() {
	s.mu.Lock()
	s.pub.err = nil
	s.mu.Unlock()
}

func (s *stage) setBusy(b bool) {
	s.mu.Lock()
	s.pub.busy = b
	s.mu.Unlock()
}

func (s *stage) publish() {
	s.mu.Lock()
	s.pub.state, s.pub.deferred = s.state, s.deferred
	s.mu.Unlock()
}

// answerWaiters tells the waiters whose changes are all searchable (or that the stage
// failed).
func (s *stage) answerWaiters() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.waiters) == 0 {
		return
	}
	kept := s.waiters[:0]
	for _, w := range s.waiters {
		switch {
		case s.pub.err != nil:
			w.done <- s.pub.err
		case !s.state.Rebuilding && s.state.Applied >= w.target && s.deferred == 0 && (!w.settle || s.settled):
			w.done <- nil
		default:
			kept = append(kept, w)
			continue
		}
		s.urgent--
	}
	s.waiters = kept
}

// wait registers a waiter for everything noted up to target (and the idle work when settle).
func (s *stage) wait(target int64, settle bool) *waiter {
	w := &waiter{target: target, settle: settle, done: make(chan error, 1)}
	s.mu.Lock()
	s.waiters = append(s.waiters, w)
	s.urgent++
	s.mu.Unlock()
	s.kick()
	return w
}

// forget drops a waiter that stopped waiting.
func (s *stage) forget(w *waiter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.waiters {
		if x == w {
			s.waiters = append(s.waiters[:i], s.waiters[i+1:]...)
			s.urgent--
			return
		}
	}
}

// covers remembers, for pages whose rows were written while the log had notes about them
// still unread, the last note their row already includes (the stage reads a page's state
// as it is, not as a note left it). A crawl notes a page many times (its fetch, every new
// link to it); while the stage lags, most of those notes are older than the row.
type covers struct {
	upTo  map[int64]int64 // page -> last note included
	queue []cover         // in the order written; seqs never decrease
}

type cover struct{ page, seq int64 }

func (c *covers) add(ids []int64, seq int64) {
	if c.upTo == nil {
		c.upTo = map[int64]int64{}
	}
	for _, id := range ids {
		c.upTo[id] = seq
		c.queue = append(c.queue, cover{id, seq})
	}
}

// has reports whether the note seq about page is included in the page's row.
func (c *covers) has(page, seq int64) bool {
	up, ok := c.upTo[page]
	return ok && seq <= up
}

// forget drops what only matters for notes up to applied (read already).
func (c *covers) forget(applied int64) {
	i := 0
	for i < len(c.queue) && c.queue[i].seq <= applied {
		if q := c.queue[i]; c.upTo[q.page] == q.seq {
			delete(c.upTo, q.page)
		}
		i++
	}
	if i > 0 {
		c.queue = append(c.queue[:0], c.queue[i:]...)
	}
}
