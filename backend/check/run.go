// Package check watches the web a researcher cares about for rot and change: MOMspider's
// maintenance tasks in a modern form. A run traverses each task's infostructure
// breadth-first from its top, tests every reference once (however many tasks share it)
// with HEAD, falling back to GET, behind robots.txt and per-host politeness, and turns
// what it saw into verdicts (one closed type, classified in one place: classify), a
// history per URL that makes a link dead only after repeated failures, and per task a
// report of its documents and MOMspider's four kinds of news.
package check

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"mundaneum/backend/check/record"
	"mundaneum/backend/fetch"
	"mundaneum/backend/politeness"
	"mundaneum/backend/robots"
)

// ErrRunning is returned when a check run is already under way in this process.
var ErrRunning = errors.New("a check run is already running")

// Config says how a run makes its requests.
type Config struct {
	UserAgent     string
	From          string
	Agents        int           // parallel requests (default 16)
	PerHost       int           // parallel requests per host (default 2)
	Delay         time.Duration // gap between requests to one host
	Timeout       time.Duration // one request, body included (default 20 s)
	MaxBody       int64         // bytes of a document read (default 10 MiB)
	Retries       int           // further tries after a timeout, 429, 503 or 5xx (default 2)
	MaxRetryAfter time.Duration // the longest Retry-After a run waits for (default 2 min)
	RobotsTTL     time.Duration // how long a robots.txt holds (default 1 day)
	Dead          DeadPolicy
	// Probe tells whether this machine reaches the internet, asked when no host outside it
	// could be reached (default InternetProbe; offline.go).
	Probe Probe
}

func (c *Config) defaults() {
	if c.Agents <= 0 {
		c.Agents = 16
	}
	if c.PerHost <= 0 {
		c.PerHost = politeness.DefaultPerHost
	}
	if c.Timeout <= 0 {
		c.Timeout = 20 * time.Second
	}
	if c.MaxBody <= 0 {
		c.MaxBody = fetch.DefaultMaxBody
	}
	if c.Retries < 0 {
		c.Retries = 0
	} else if c.Retries == 0 {
		c.Retries = 2
	}
	if c.MaxRetryAfter <= 0 {
		c.MaxRetryAfter = 2 * time.Minute
	}
	if c.RobotsTTL <= 0 {
		c.RobotsTTL = robots.DefaultTTL
	}
	if c.Dead.Checks <= 0 {
		c.Dead = DefaultDeadPolicy
	}
}

// Store is everything a run needs of the workspace; *store.Store satisfies it.
type Store interface {
	CheckStore
	robots.Store
}

// Request is what one run checks: tasks, and links given one by one.
type Request struct {
	Tasks []Task
	URLs  []string
	// Library lists the pointers of library tasks; nil makes library tasks fail.
	Library LibrarySource
}

// Result is what a run did.
type Result struct {
	Run     record.Run
	Links   []LinkResult   // the verdicts of Request.URLs, in their order
	Reports []ReportResult // one per task
	// Offline says why this machine was offline during the run and how many links it left
	// untested ("" when it was not).
	Offline string
}

// ReportResult is a task's report of the run.
type ReportResult struct {
	Task     Task
	ReportID int64
	News     NewsCounts // how many items of each kind, and how many are worth telling
	Err      string     // why the task has no report
}

// Progress is a snapshot of a running check.
type Progress struct {
	RunID     int64
	State     string // running, then the run's end state
	Tasks     []string
	Tested    int64 // URLs tested
	Queued    int64 // requests waiting
	Documents int64 // documents read
	Requests  int64
	Verdicts  map[Kind]int64
	PerSec    float64 // URLs tested per second, smoothed
	Elapsed   time.Duration
	Note      string
}

// Run runs one check: every task of req and every URL of req. Progress is called a few
// times a second and once at the end. A run stopped by ctx keeps what it tested (as
// history) but makes no reports.
func Run(ctx context.Context, st Store, cfg Config, req Request, progress func(Progress)) (Result, error) {
	cfg.defaults()
	if progress == nil {
		progress = func(Progress) {}
	}
	names := make([]string, 0, len(req.Tasks))
	for _, t := range req.Tasks {
		names = append(names, t.Name)
	}
	rec, err := st.StartCheckRun(ctx, names)
	if err != nil {
		return Result{}, err
	}
	r := newRun(st, cfg, rec)
	r.start = time.Now()
	progress(r.snapshot())
	for _, t := range req.Tasks {
		if err := r.addTask(ctx, t, req.Library); err != nil {
			r.taskErrs[t.Name] = err.Error()
		}
	}
	links := make([]*target, 0, len(req.URLs))
	for _, raw := range req.URLs {
		t := r.addURL(raw)
		links = append(links, t)
	}
	r.schedule(ctx, progress)
	if ctx.Err() == nil {
		r.settle(ctx)
	}
	for _, b := range r.saver.close() {
		r.saved(b)
	}
	fctx := context.WithoutCancel(ctx)
	res := Result{Run: rec, Offline: r.offlineNote()}
	res.Run.State, res.Run.Tested, res.Run.Requests = record.RunDone, r.tested, r.requests
	switch {
	case ctx.Err() != nil:
		res.Run.State = record.RunCancelled
	case r.saveErr != nil:
		res.Run.State, res.Run.Error = record.RunFailed, r.saveErr.Error()
	default:
		res.Reports = r.reports(fctx)
		// A task's schedule counts from runs that ended: one stopped by a quit is due again
		// at the next launch.
		for _, tr := range r.tasks {
			if err := st.MarkTaskRun(fctx, tr.task.ID, r.start.UnixMilli()); err != nil && r.saveErr == nil {
				r.saveErr = err
			}
		}
	}
	for _, t := range links {
		res.Links = append(res.Links, linkResult(t))
	}
	if err := st.FinishCheckRun(fctx, res.Run); err != nil && r.saveErr == nil {
		r.saveErr = err
	}
	p := r.snapshot()
	p.State = res.Run.State
	progress(p)
	if r.saveErr != nil {
		return res, r.saveErr
	}
	if ctx.Err() != nil {
		return res, context.Cause(ctx)
	}
	return res, nil
}

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

	targets []*target
	byURL   map[string]*target
	hosts   map[string]*hostHealth
	tasks   []*taskRun
	// libraries are the library tasks' folders, by task.
	taskErrs map[string]string

	tested, requests, documents int64
	byKind                      map[Kind]int64
	saveErr                     error
	rate                        rate
	net                         *netWatch               // whether this machine is offline (offline.go)
	shownCache                  map[int32][]ref         // documents' references as reports show them (shownRefs)
	pending                     map[int32][]pendingFrag // fragments waiting for their page's test, by page
	note                        string                  // what the run says of itself, for the progress
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
		byURL:    map[string]*target{},
		hosts:    map[string]*hostHealth{},
		byKind:   map[Kind]int64{},
		taskErrs: map[string]string{},
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

// addTask starts a task's traversal.
func (r *run) addTask(ctx context.Context, t Task, lib LibrarySource) error {
	system, err := Rules(ctx, r.st, 0)
	if err != nil {
		return err
	}
	own, err := Rules(ctx, r.st, t.ID)
	if err != nil {
		return err
	}
	tr := newTaskRun(t, newRuleSet(time.Now(), system, own))
	r.tasks = append(r.tasks, tr)
	if t.Type == Library {
		return tr.startLibrary(ctx, r, lib)
	}
	tr.start(r)
	return nil
}

// addURL queues a link given on its own: tested as a leaf.
func (r *run) addURL(raw string) *target {
	t := r.targetFor(raw)
	r.request(t, modeProbe, waiter{}, "")
	return t
}

// targetFor returns the target of a URL as a user wrote it (a fragment's target when it
// has one).
func (r *run) targetFor(raw string) *target {
	if page, frag := splitFragment(raw); frag != "" {
		if b := r.targetFor(page); b.bad == nil {
			return r.fragTarget(b, frag)
		}
	}
	u, err := canonical(raw)
	if err != nil {
		if t, ok := r.byURL[raw]; ok {
			return t
		}
		t := &target{idx: int32(len(r.targets)), url: raw, bad: err}
		r.targets = append(r.targets, t)
		r.byURL[raw] = t
		return t
	}
	return r.targetOf(u.String(), nil)
}

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
		Verdicts: make(map[Kind]int64, len(r.byKind)), Note: r.note}
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

// LinkResult is the verdict on one link, with its history.
type LinkResult struct {
	URL          string
	Verdict      Verdict
	Method       string
	Ms           int64
	Dead         bool
	Failures     int       // failing checks in a row, this one included
	FailingSince time.Time // first failing check of the streak
}

func linkResult(t *target) LinkResult {
	lr := LinkResult{URL: t.url}
	if t.res == nil {
		lr.Verdict = Verdict{Reason: "not tested: the run was stopped"}
		return lr
	}
	if t.base != nil && t.res == t.base.res {
		t = t.base // the part was found (or not looked for): the page's check and health
	}
	lr.Verdict, lr.Method, lr.Ms = t.res.v, t.res.method, t.res.ms
	lr.Dead, lr.Failures = t.health.DeadAt > 0, t.health.Failures
	if t.health.FailingSince > 0 {
		lr.FailingSince = time.UnixMilli(t.health.FailingSince)
	}
	return lr
}

func (lr LinkResult) String() string {
	return fmt.Sprintf("%s %s %d %s", lr.Verdict.Kind, lr.URL, lr.Verdict.Status, lr.Verdict.Reason)
}
