package check

import (
	"fmt"
	"sync"
	"time"

	"mundaneum/backend/check/record"
	"mundaneum/backend/fetch"
	"mundaneum/backend/politeness"
	"mundaneum/backend/robots"
)

// run is one check run's state, owned by the scheduler goroutine.
type run struct {
	st      Store
	cfg     Config
	rec     record.Run
	w       *worker
	limiter *politeness.Limiter
	q       *hostQueues
	saver   *saver
	start   time.Time

	tab   *targetTable
	hosts hostBook
	tasks []*taskRun
	// libraries are the library tasks' folders, by task.
	taskErrs map[string]string

	tested, requests, documents int64
	byKind                      map[Kind]int64
	saveErr                     error
	rate                        rate
	net                         *netWatch               // whether this machine is offline (offline.go)
	shownCache                  map[int32][]ref         // documents' references as reports show them (shownRefs)
	pending                     map[int32][]pendingFrag // fragments waiting for their page's test, by page
	waiting                     map[int32][]waiter      // the tasks to tell when a target's result arrives, by target
}

func newRun(st Store, cfg Config, rec record.Run) *run {
	fc := fetch.New(fetch.Config{UserAgent: cfg.UserAgent, From: cfg.From, MaxBody: cfg.MaxBody, Timeout: cfg.Timeout,
		MaxConnsPerHost: cfg.PerHost, Accept: htmlType, AcceptHeader: "text/html,application/xhtml+xml,*/*;q=0.1"})
	rg := &robotsGetter{c: fc}
	return &run{
		st: st, cfg: cfg, rec: rec,
		w:        &worker{fetch: fc, robots: robots.New(rg, st, "mundaneum", cfg.RobotsTTL), rg: rg, canon: &sync.Map{}},
		limiter:  politeness.New(politeness.Config{Delay: cfg.Delay, PerHost: cfg.PerHost, MaxBackoff: cfg.MaxRetryAfter}),
		q:        newHostQueues(),
		saver:    newSaver(st, rec.ID, cfg.Dead),
		tab:      newTargetTable(),
		hosts:    hostBook{},
		byKind:   map[Kind]int64{},
		taskErrs: map[string]string{},
		waiting:  map[int32][]waiter{},
		net:      newNetWatch(cfg.Probe),
	}
}

// offlineNote says why the machine was offline during the run and what it left untested
// ("" when it was not).
func (r *run) offlineNote() string {
	n := r.byKind[Offline]
	if n == 0 || r.net.why == nil {
		return ""
	}
	return fmt.Sprintf("this machine was offline (%s): %d link%s to other hosts not tested, recorded as offline, not as broken",
		shortErr(r.net.why), n, plural(int(n)))
}

// pendingFrag is a fragment waiting for its page to be read: written by document doc with
// a reference of kind, or (doc -1) asked for on its own (a link checked now, a pointer).
type pendingFrag struct {
	doc  int32
	kind uint8
	frag string
}

// targets is the run's target table (board).
func (r *run) targets() *targetTable { return r.tab }

// saved takes a batch back from the store: ids and health go on the targets.
func (r *run) saved(b savedBatch) {
	if b.err != nil {
		if r.saveErr == nil {
			r.saveErr = b.err
		}
		return
	}
	for i, t := range b.ts {
		t.id = b.saved[i].ID
		t.prev, t.health = b.saved[i].Prev, b.saved[i].Next
	}
}

func (r *run) snapshot() Progress {
	now := time.Now()
	p := Progress{RunID: r.rec.ID, State: record.RunRunning, Tasks: r.rec.Tasks, Tested: r.tested,
		Queued: int64(r.q.Len()), Documents: r.documents, Requests: r.requests, Elapsed: now.Sub(r.start),
		Verdicts: make(map[Kind]int64, len(r.byKind)), Note: r.net.note}
	if off := r.offlineNote(); off != "" {
		p.Note = off
	}
	for k, n := range r.byKind {
		p.Verdicts[k] = n
	}
	p.PerSec = r.rate.update(now, r.tested)
	return p
}

// rate is a smoothed count per second.
type rate struct {
	at  time.Time
	n   int64
	per float64
}

func (r *rate) update(now time.Time, n int64) float64 {
	if r.at.IsZero() {
		r.at, r.n = now, n
		return 0
	}
	dt := now.Sub(r.at).Seconds()
	if dt < 0.2 {
		return r.per
	}
	cur := float64(n-r.n) / dt
	if r.per == 0 {
		r.per = cur
	} else {
		r.per = 0.3*cur + 0.7*r.per
	}
	r.at, r.n = now, n
	return r.per
}
