package index

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"mundaneum/backend/pairs"
	"mundaneum/backend/store"
	"mundaneum/backend/walcap"
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
	// pollEvery is how often an idle stage looks at the log: other processes may write
	// the workspace too.
	pollEvery = 2 * time.Second
	// trimEvery is how many applied notes the stage lets pile up before it trims the log.
	trimEvery = 50_000
	// walWait is the longest the stage waits for readers of older snapshots when it
	// empties the index's log (see walCap).
	walWait = 200 * time.Millisecond
)

// MaintainDelay is how long the stage must have been idle before it works on the pair index
// and merges segments (both only make searches faster); while it is shorter, the stage is
// following a crawl and leaves the pairs rows of what it writes to then (see pairsStep). A
// variable for tests, in this package and others.
var MaintainDelay = 5 * time.Second

// stage is the goroutine that keeps the index up to date.
type stage struct {
	x      *Index
	ctx    context.Context
	cancel context.CancelFunc
	notify chan struct{}
	done   chan struct{}

	// The stage goroutine's own state.
	state      state
	deferred   int64 // rows of the deferred table
	words      *pairs.Words
	pairsBuilt bool  // the pair index's first build is done (pair_state.complete)
	missing    int64 // rows of pair_missing
	unmissed   int64 // rows of pair_missing the pairs step's transaction deletes
	// missingSince: when rows were found missing with none before (or filled while busy).
	missingSince time.Time
	lastNote     time.Time        // when the stage last applied log notes
	lastFlush    time.Time        // when deferred anchors were last rewritten
	trimmed      int64            // the log was last trimmed up to here
	merged       bool             // nothing left to merge since the last write
	vocabDue     bool             // rows written since the file of the terms was last brought up to date
	vocabAt      int64            // the log seq that file was last brought up to date at
	vocabNow     bool             // a rebuild just ended: write that file before the idle work
	settled      bool             // nothing left to do at all since the last write
	covered      covers           // rows written from a state newer than some notes still to read
	notes        []store.LogEntry // log notes read and not applied yet (see pendingNotes)
	ahead        *ahead           // the next batch, read beside the current one's writing

	mu       sync.Mutex
	waiters  []*waiter
	urgent   int    // waiters want deferred rows rewritten now
	resetWhy string // a rebuild was asked for
	pub      published

	vocabWriter VocabularyWriter // writes the file of the terms (vocabfile.go); nil: none
	vocabFor    []byte           // the structure record the file was last written for (the stage's own)

	// walCap empties the index's log after a step that left it past its limit, which
	// readers of older snapshots (searches, Progress, other processes' status) can keep
	// SQLite's own checkpoints from doing (backend/walcap).
	walCap *walcap.Cap
	// batch is how many pages a batch takes now (0: batchPages; see txsize.go).
	batch atomic.Int64 // read by tests
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
	return &stage{x: x, ctx: ctx, cancel: cancel, notify: make(chan struct{}, 1), done: make(chan struct{}),
		walCap: walcap.New(x.path, store.WALLimit, walWait)}
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

// run is the stage's loop. Its steps run on a thread of a lower CPU priority (see
// runner), so that indexing takes what the crawl leaves of the machine, unless
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
		switch {
		case s.held(): // a measurement build's crawl alone (bench.go)
		case s.waited():
			did, err = s.step()
		default:
			low.do(func() { did, err = s.step() })
		}
		if did && err == nil {
			_, _ = s.walCap.After(s.ctx, s.x.db) // a failure leaves it for the next step
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

// load reads the state the stage starts from.
func (s *stage) load() error {
	st, err := readState(s.ctx, s.x.db, "")
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	s.state = st
	if err := s.x.applyFix(s.ctx); err != nil { // left by an older version killed after a batch
		return err
	}
	if err := s.x.db.QueryRowContext(s.ctx, `SELECT count(*) FROM deferred`).Scan(&s.deferred); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if s.words, err = PairWords(s.ctx, s.x.db); err != nil {
		return err
	}
	s.pairsBuilt = false
	if err := s.x.db.QueryRowContext(s.ctx, `SELECT (SELECT count(*) FROM pair_missing),
		coalesce((SELECT complete FROM pair_state), 0)`).Scan(&s.missing, &s.pairsBuilt); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	s.missingSince = time.Now()
	s.trimmed = st.Applied
	s.covered = covers{}
	s.notes = nil
	s.takeAhead(nil)
	s.lastFlush = time.Now()
	s.merged, s.settled = false, false
	// An index opened may lack the file of its terms (a process ended before writing it).
	s.vocabDue, s.vocabAt, s.vocabNow = true, 0, false
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
	// Readers see the rebuild from now on, not only once the stage has begun it.
	s.pub.state.Rebuilding, s.pub.why = true, why
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
	// Caught up with what someone waits for (the end of a crawl, of a rebuild), or a rebuild
	// just ended: the file of the terms is brought up to date before the waiter is told and
	// before the idle work, so that a search opened once the index is complete finds it
	// (vocabfile.go).
	if s.deferred == 0 && s.vocabDue && (s.vocabNow || s.holdsWaiters() && s.waitedUpTo(s.state.Applied)) {
		s.vocabNow = false
		if did, err := s.vocabStep(); err != nil || did {
			return true, err
		}
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
	// Rows left without their pairs rows too long (a crawl that never lets the stage idle)
	// get them even while the log is busy, as deferred anchor text does.
	if s.missing > 0 && !s.wantUrgent() && now.Sub(s.missingSince) > maxDefer {
		did, err := s.fillStep()
		if err == nil && did {
			s.missingSince = now
		}
		return did, err
	}
	if !settle && (s.wantUrgent() || now.Sub(s.lastNote) < MaintainDelay) {
		return false, nil
	}
	did, err := s.maintainStep()
	if err == nil && !did {
		s.settled = true
	}
	return did, err
}

// waitedUpTo reports whether someone waits for changes up to a log seq at most seq.
func (s *stage) waitedUpTo(seq int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, w := range s.waiters {
		if w.target <= seq {
			return true
		}
	}
	return false
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
