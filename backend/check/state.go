package check

import (
	"fmt"
	"sync"
	"time"

	"mundaneum/backend/check/record"
	"mundaneum/backend/fetch"
	"mundaneum/backend/hostq"
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
	q       *hostq.Queue[*job] // the jobs waiting for a request, per host
	start   time.Time

	tab      *targetTable
	hosts    hostBook
	tasks    []*taskRun
	taskErrs map[string]string // why a task could not start, by name

	verdicts   *recorder
	net        *netWatch               // whether this machine is offline (offline.go)
	shownCache map[int32][]ref         // documents' references as reports show them (shownRefs)
	pending    map[int32][]pendingFrag // fragments waiting for their page's test, by page
	waiting    map[int32][]waiter      // the tasks to tell when a target's result arrives, by target
}

func newRun(st Store, cfg Config, rec record.Run) *run {
	fc := fetch.New(fetch.Config{UserAgent: cfg.UserAgent, From: cfg.From, MaxBody: cfg.MaxBody, Timeout: cfg.Timeout,
		MaxConnsPerHost: cfg.PerHost, Accept: htmlType, AcceptHeader: "text/html,application/xhtml+xml,*/*;q=0.1"})
	rg := &robotsGetter{c: fc}
	return &run{
		st: st, cfg: cfg, rec: rec,
		w:        &worker{fetch: fc, robots: robots.New(rg, st, "mundaneum", cfg.RobotsTTL), rg: rg, canon: &sync.Map{}},
		limiter:  politeness.New(politeness.Config{Delay: cfg.Delay, PerHost: cfg.PerHost, MaxBackoff: cfg.MaxRetryAfter}),
		q:        hostq.New[*job](),
		verdicts: newRecorder(newSaver(st, rec.ID, cfg.Dead)),
		tab:      newTargetTable(),
		hosts:    hostBook{},
		taskErrs: map[string]string{},
		waiting:  map[int32][]waiter{},
		net:      newNetWatch(cfg.Probe),
	}
}

// offlineNote says why the machine was offline during the run and what it left untested
// ("" when it was not).
func (r *run) offlineNote() string {
	n := r.verdicts.byKind[Offline]
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

func (r *run) document() { r.verdicts.documents++ }

func (r *run) snapshot() Progress {
	now := time.Now()
	c := r.verdicts
	p := Progress{RunID: r.rec.ID, State: record.RunRunning, Tasks: r.rec.Tasks, Tested: c.tested,
		Queued: int64(r.q.Len()), Documents: c.documents, Requests: c.requests, Elapsed: now.Sub(r.start),
		Verdicts: make(map[Kind]int64, len(c.byKind)), Note: r.net.note}
	if off := r.offlineNote(); off != "" {
		p.Note = off
	}
	for k, n := range c.byKind {
		p.Verdicts[k] = n
	}
	p.PerSec = c.rate.update(now, c.tested)
	return p
}
