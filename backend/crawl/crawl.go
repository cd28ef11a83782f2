// Package crawl runs crawls: it wires the frontier, politeness, robots, fetch and extract
// stages to the store. Agents fetch and summarise in parallel; the store's single writer
// commits each visit atomically, so a crawl killed at any moment resumes where it stopped.
// The full-text index follows behind on its own (backend/index); a run ends once
// everything it fetched is searchable.
package crawl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"mundaneum/backend/fetch"
	"mundaneum/backend/frontier"
	"mundaneum/backend/index"
	"mundaneum/backend/politeness"
	"mundaneum/backend/robots"
	"mundaneum/backend/rules"
	"mundaneum/backend/store"
	"mundaneum/backend/urlnorm"
)

var (
	// ErrPaused is the cancel cause that pauses a crawl (it can be resumed).
	ErrPaused = errors.New("crawl paused")
	// ErrCancelled is the cancel cause that ends a crawl for good.
	ErrCancelled = errors.New("crawl cancelled")
	// ErrUnreachable means no seed could be fetched at all.
	ErrUnreachable = errors.New("no seed could be reached")
)

// Progress is a snapshot of a running crawl.
type Progress struct {
	CrawlID     int64
	State       string
	Fetched     int64
	Failed      int64
	Skipped     int64
	Queued      int64
	Bytes       int64
	PagesPerSec float64
	BytesPerSec float64
	Elapsed     time.Duration
	Note        string // why a run stopped (limit reached, paused, ...), or what it waits for
	// Index is how far behind the crawl the full-text index is (zero without an index).
	Index index.Progress
}

// Index is the full-text index a crawl's pages go into (backend/index's Index): a run ends
// once it has caught up.
type Index interface {
	Wait(ctx context.Context, report func(index.Progress)) error
	Progress(ctx context.Context) index.Progress
}

// Crawler runs one crawl.
type Crawler struct {
	st    *store.Store
	idx   Index // nil: nothing to wait for
	cfg   Config
	rec   store.Crawl
	fresh bool
	scope *scope
	rules *rules.Set
	// strategy orders the queue (strategyFor).
	strategy frontier.Strategy

	fetcher *fetch.Client
	robots  *robots.Cache
	limiter *politeness.Limiter
	freed   chan struct{} // an agent gave a politeness slot back

	mu        sync.Mutex
	hostPages map[string]int  // distinct pages queued per origin in this crawl: the per-host cap
	hostSeen  map[string]bool // origins a link was followed to: server-first priority

	fetched, failed, skipped, bytes atomic.Int64
	seedsTried, seedsFailed         atomic.Int64
}

// Open finds the crawl that cfg describes (same scope and seeds) or creates it. An unfinished
// crawl is resumed; a finished one starts a refresh run that re-checks only pages that are
// due (all of them with cfg.Refresh). idx is the workspace's index (nil: none to wait for).
func Open(ctx context.Context, st *store.Store, idx Index, cfg Config) (*Crawler, error) {
	set, err := st.Settings(ctx)
	if err != nil {
		return nil, err
	}
	cfg.Defaults(set)
	if err := cfg.normalize(); err != nil {
		return nil, err
	}
	rs, err := parseRules(cfg.Rules)
	if err != nil {
		return nil, err
	}
	rec, err := st.FindCrawl(ctx, cfg.key())
	var fresh bool
	switch {
	case errors.Is(err, store.ErrNotFound):
		js, _ := json.Marshal(cfg)
		if rec, err = st.CreateCrawl(ctx, cfg.key(), cfg.Seeds, cfg.Scope, js); err != nil {
			return nil, err
		}
		fresh = true
	case err != nil:
		return nil, err
	default:
		fresh = rec.State == store.CrawlDone || rec.State == store.CrawlCancelled
	}
	return newCrawler(st, idx, cfg, rs, rec, fresh), nil
}

// Resume reopens a crawl by id with its stored configuration.
func Resume(ctx context.Context, st *store.Store, idx Index, id int64) (*Crawler, error) {
	rec, err := st.Crawl(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("crawl %d: %w", id, err)
	}
	var cfg Config
	if err := json.Unmarshal(rec.Config, &cfg); err != nil {
		return nil, fmt.Errorf("crawl %d config: %w", id, err)
	}
	cfg.Seeds, cfg.Scope = rec.Seeds, rec.Scope
	if err := cfg.normalize(); err != nil {
		return nil, err
	}
	set, err := parseRules(cfg.Rules)
	if err != nil {
		return nil, err
	}
	fresh := rec.State == store.CrawlDone || rec.State == store.CrawlCancelled
	return newCrawler(st, idx, cfg, set, rec, fresh), nil
}

func newCrawler(st *store.Store, idx Index, cfg Config, set *rules.Set, rec store.Crawl, fresh bool) *Crawler {
	seeds := make([]*url.URL, 0, len(cfg.Seeds))
	for _, s := range cfg.Seeds {
		if u, err := urlnorm.Parse(s); err == nil {
			seeds = append(seeds, u)
		}
	}
	fc := fetch.New(fetch.Config{UserAgent: cfg.UserAgent, From: cfg.From, MaxBody: cfg.MaxBody,
		MaxConnsPerHost: cfg.PerHost})
	return &Crawler{
		st: st, idx: idx, cfg: cfg, rec: rec, fresh: fresh, scope: newScope(cfg.Scope, seeds),
		rules: set, strategy: strategyFor(set),
		fetcher: fc,
		robots:  robots.New(fc, st, "mundaneum", 0),
		limiter: politeness.New(politeness.Config{Delay: cfg.Delay, PerHost: cfg.PerHost}),
		freed:   make(chan struct{}, 1),
	}
}

// ID is the crawl's id.
func (c *Crawler) ID() int64 { return c.rec.ID }

// Config is the crawl's normalised configuration.
func (c *Crawler) Config() Config { return c.cfg }

type visitOutcome struct {
	item   frontier.Item
	top    int  // the highest priority among the pages the visit queued
	retry  bool // put back in the queue (429/503 before the retry limit)
	queued int  // pages the visit added to the queue
	state  string
	bytes  int64
	err    error // store failure: stops the crawl
}

// Run crawls until the queue is empty, a limit is reached, or ctx is cancelled (with cause
// ErrPaused or ErrCancelled; any other cancellation pauses). progress is called a few times
// a second and once at the end.
func (c *Crawler) Run(ctx context.Context, progress func(Progress)) (Progress, error) {
	if progress == nil {
		progress = func(Progress) {}
	}
	js, _ := json.Marshal(c.cfg)
	if err := c.st.StartRun(ctx, c.rec.ID, js, c.fresh); err != nil {
		return Progress{}, err
	}
	if err := c.loadHostCounts(ctx); err != nil {
		return Progress{}, err
	}
	queued := c.rec.Queued
	if c.fresh {
		queued = 0
		n, err := c.st.Enqueue(ctx, c.rec.ID, c.seedTargets())
		if err != nil {
			return Progress{}, err
		}
		queued += int64(n)
		c.fresh = false
	} else {
		c.fetched.Store(c.rec.Fetched)
		c.failed.Store(c.rec.Failed)
		c.skipped.Store(c.rec.Skipped)
		c.bytes.Store(c.rec.Bytes)
	}
	p, runErr := c.schedule(ctx, queued, progress)
	state, note := store.CrawlDone, p.Note
	switch {
	case runErr != nil:
		state, note = store.CrawlFailed, runErr.Error()
	case errors.Is(context.Cause(ctx), ErrCancelled):
		state, note = store.CrawlCancelled, "cancelled"
	case ctx.Err() != nil:
		state, note = store.CrawlPaused, "paused"
	case note != "":
		state = store.CrawlPaused // a limit was reached: running again continues
	}
	// Finish with a context that outlives the cancelled one: the end state must be recorded,
	// however long the writer takes to work through what the agents handed it.
	fctx := context.WithoutCancel(ctx)
	if err := c.st.FinishRun(fctx, c.rec.ID, state, errText(runErr)); err != nil && runErr == nil {
		runErr = err
	}
	// Everything fetched becomes searchable before the run ends, unless the user stops it
	// here: the index then catches up the next time the workspace is open for writing.
	if c.idx != nil && ctx.Err() == nil {
		err := c.idx.Wait(ctx, func(ip index.Progress) {
			mp := p
			mp.State, mp.Note, mp.Index = store.CrawlRunning, "indexing: "+ip.String(), ip
			progress(mp)
		})
		if err != nil && ctx.Err() == nil && runErr == nil {
			runErr = fmt.Errorf("index: %w", err)
		}
	}
	if c.idx != nil {
		p.Index = c.idx.Progress(fctx)
	}
	p.State, p.Note = state, note
	if rec, err := c.st.Crawl(fctx, c.rec.ID); err == nil {
		p.Queued = rec.Queued
	}
	progress(p)
	if runErr == nil && p.Fetched == 0 && c.seedsTried.Load() > 0 && c.seedsFailed.Load() == c.seedsTried.Load() {
		runErr = ErrUnreachable
	}
	return p, runErr
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func (c *Crawler) loadHostCounts(ctx context.Context) error {
	counts, err := c.st.FrontierHosts(ctx, c.rec.ID)
	if err != nil {
		return err
	}
	c.hostPages = counts
	c.hostSeen = make(map[string]bool, len(counts))
	for o := range counts {
		c.hostSeen[o] = true
	}
	return nil
}

func (c *Crawler) seedTargets() []store.Target {
	var ts []store.Target
	for i, s := range c.cfg.Seeds {
		u, err := urlnorm.Parse(s)
		if err != nil {
			continue
		}
		origin := urlnorm.Origin(u)
		c.hostPages[origin]++
		c.hostSeen[origin] = true
		// Seeds are the user's own imperative: followed first, whatever the rules say.
		ts = append(ts, store.Target{URL: s, Origin: origin, Kind: "seed", Follow: true,
			Priority: c.strategy.Priority(frontier.Link{URL: s, Seed: true, Value: rules.First}),
			Family:   rules.Family{uint32(i + 1)}.Encode(), Category: uint8(rules.First)})
	}
	return ts
}

// needsGate says whether visiting a leased page sends a request (and so needs a politeness
// slot): pages fetched before and not yet due are visited from the store.
func (c *Crawler) needsGate(l store.Lease) bool {
	return !c.fromStore(l)
}

func (c *Crawler) fromStore(l store.Lease) bool {
	return l.State == store.StateFetched && !c.cfg.Refresh && l.RefreshAt > time.Now().UnixMilli()
}
