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
	"strings"
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
	"mundaneum/backend/summary"
	"mundaneum/backend/urlnorm"
)

var (
	// ErrPaused is the cancel cause that pauses a crawl (it can be resumed).
	ErrPaused = errors.New("crawl paused")
	// ErrCancelled is the cancel cause that ends a crawl for good.
	ErrCancelled = errors.New("crawl cancelled")
	// ErrUnreachable means no seed could be fetched at all; the error that wraps it says
	// which seed and why (connection refused, DNS name not found, timed out, TLS...).
	ErrUnreachable = errors.New("no seed could be reached")
)

// Progress is a snapshot of a running crawl.
//
// A crawl's pages are counted one way everywhere (Pages, from store.CrawlCounts); the rest
// describes this run. A resumed run goes on from the counts of the process before it,
// while the rate and the ETA measure only what this process did.
type Progress struct {
	CrawlID int64
	State   string
	Fetched int64 // this run's visits that fetched a page (or had it confirmed unchanged)
	Failed  int64 // this run's visits that failed
	Skipped int64 // this run's visits that sent no request for the page (robots.txt, host cap...)
	NotDue  int64 // this run's visits from the store: not due for a re-check, no request sent
	Queued  int64 // still to visit in this run
	Bytes   int64
	// ByThisProcess is the visits this process made: a resumed run's earlier ones are not
	// in it, so an average rate is ByThisProcess / Elapsed.
	ByThisProcess int64
	// PagesPerSec and BytesPerSec are smoothed over the last seconds of this process.
	PagesPerSec float64
	BytesPerSec float64
	Elapsed     time.Duration // of this process's run
	// Done is the share of the run done when a limit (--max-pages, --max-time) says what
	// "all" is, else -1: a growing queue says nothing of the end. It never moves back.
	Done float64
	ETA  time.Duration // time left when Done is known and the rate allows; 0 otherwise
	// Current is a URL being fetched now ("" when none).
	Current string
	Note    string // what the run is doing or why it stopped (limit reached, paused, ...)
	// Pages is the crawl's pages by state as committed (store.CrawlCounts).
	Pages map[string]int64
	// Index is how far behind the crawl the full-text index is (zero without an index).
	Index index.Progress
	// Requisites is the page requisites (style sheets, images, fonts) this run stored.
	Requisites int64
}

// Index is the full-text index a crawl's pages go into (backend/index's Index): a run ends
// once it has caught up.
type Index interface {
	Wait(ctx context.Context, report func(index.Progress)) error
	Progress(ctx context.Context) index.Progress
}

// Visited is what this run has dealt with.
func (p Progress) Visited() int64 { return p.Fetched + p.Failed + p.Skipped + p.NotDue }

// Crawler runs one crawl.
type Crawler struct {
	types summary.Types // the document types downloaded
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
	probes  probes       // the sites' answers for URLs that cannot exist (judgeChange)
	freed   *freedSlots  // the hosts whose politeness slots agents gave back
	render  *renderStage // the pages read in a browser (render.go)

	mu          sync.Mutex
	hostFetched map[string]int             // pages fetched per origin this run: the per-host cap
	hostPending map[string]int             // visits in flight per origin, held against the cap
	hostSeen    map[string]bool            // origins a link was followed to: server-first priority
	variants    map[string]map[uint64]bool // query variants queued per origin and path
	sitemaps    int                        // sitemap files queued this run
	seedFailure string                     // why the first seed that failed did
	current     atomic.Pointer[string]     // a URL being fetched
	counts      [nCounters]atomic.Int64    // this run's visits by outcome, and bytes
	base        [nCounters]int64           // the counts when this process took the run over
	seedsTried  atomic.Int64
	seedsFailed atomic.Int64
	hosts       *hostWatch // the hosts that do not answer, given up after a few tries
	limited     bool       // a limit (pages, time, bytes) ended the run
}

// Indexes of Crawler.counts.
const (
	cFetched = iota
	cFailed
	cSkipped
	cNotDue
	cBytes
	nCounters
)

// Open finds the crawl that cfg describes (same scope and seeds) or creates it. An unfinished
// crawl is resumed; a finished one starts a refresh run that re-checks only pages that are
// due (all of them with cfg.Refresh). idx is the workspace's index (nil: none to wait for).
func Open(ctx context.Context, st *store.Store, idx Index, cfg Config) (*Crawler, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
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
		fresh = finished(rec.State)
	}
	return newCrawler(st, idx, cfg, rs, rec, fresh), nil
}

// finished reports whether a crawl in state s starts a new run when run again (a failed
// run, such as one whose seeds could not be reached, is tried again from its seeds).
func finished(s string) bool {
	return s == store.CrawlDone || s == store.CrawlCancelled || s == store.CrawlFailed
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
	return newCrawler(st, idx, cfg, set, rec, finished(rec.State)), nil
}

func newCrawler(st *store.Store, idx Index, cfg Config, set *rules.Set, rec store.Crawl, fresh bool) *Crawler {
	seeds := make([]*url.URL, 0, len(cfg.Seeds))
	for _, s := range cfg.Seeds {
		if u, err := urlnorm.Parse(s); err == nil {
			seeds = append(seeds, u)
		}
	}
	types, _ := summary.ParseTypes(strings.Join(cfg.Types, ",")) // normalize checked them
	fc := fetch.New(fetch.Config{UserAgent: cfg.UserAgent, From: cfg.From, MaxBody: cfg.MaxBody,
		MaxConnsPerHost: cfg.PerHost, Accept: types.Accepts, AcceptHeader: acceptHeader(types),
		Document: summary.Document, MaxDocumentBody: DocumentBodyFactor * cfg.MaxBody})
	return &Crawler{types: types,
		st: st, idx: idx, cfg: cfg, rec: rec, fresh: fresh, scope: newScope(cfg.Scope, seeds),
		rules: set, strategy: strategyFor(set, cfg.Toward),
		fetcher: fc,
		robots:  robots.New(fc, st, "mundaneum", 0),
		limiter: politeness.New(politeness.Config{Delay: cfg.Delay, PerHost: cfg.PerHost}),
		freed:   newFreedSlots(),
		render:  newRenderStage(cfg),
		hosts:   newHostWatch(DefaultHostPolicy),
	}
}

// ID is the crawl's id.
func (c *Crawler) ID() int64 { return c.rec.ID }

// Config is the crawl's normalised configuration.
func (c *Crawler) Config() Config { return c.cfg }

type visitOutcome struct {
	item     frontier.Item
	top      int  // the highest priority among the pages the visit queued
	retry    bool // put back in the queue (429/503 before the retry limit)
	deferred bool // put back in the queue: the host must wait after its robots.txt
	queued   int  // pages the visit added to the queue
	// What the visit learnt of its host: it answered (any HTTP status), or it gave no answer
	// (silent: the fetch failure code; silentDetail: the error). sent is when the scheduler
	// handed the page to an agent.
	answered     bool
	silent       string
	silentDetail string
	sent         time.Time
	state        string
	bytes        int64
	err          error // store failure: stops the crawl
}

// Run crawls until the queue is empty, a limit is reached, or ctx is cancelled (with cause
// ErrPaused or ErrCancelled; any other cancellation pauses). progress is called a few times
// a second, through every step after the fetching too, and once at the end.
func (c *Crawler) Run(ctx context.Context, progress func(Progress)) (Progress, error) {
	if progress == nil {
		progress = func(Progress) {}
	}
	js, _ := json.Marshal(c.cfg)
	if err := c.st.StartRun(ctx, c.rec.ID, js, c.fresh); err != nil {
		return Progress{}, err
	}
	if err := c.loadBudgets(ctx); err != nil {
		return Progress{}, err
	}
	queued := c.rec.Queued
	if c.fresh {
		queued = 0
		n, err := c.st.Enqueue(ctx, c.rec.ID, c.seedTargets(ctx))
		if err != nil {
			return Progress{}, err
		}
		queued += int64(n)
		c.fresh = false
	} else {
		for i, v := range []int64{c.rec.Fetched, c.rec.Failed, c.rec.Skipped, 0, c.rec.Bytes} {
			c.counts[i].Store(v)
			c.base[i] = v
		}
	}
	p, runErr := c.schedule(ctx, queued, progress)
	c.render.close() // the browser and its profile go as soon as no page needs them
	if c.cfg.Requisites && runErr == nil && ctx.Err() == nil {
		p, runErr = c.gatherRequisites(ctx, p, progress)
	}
	state, note := store.CrawlDone, p.Note
	switch {
	case runErr != nil:
		state, note = store.CrawlFailed, ""
	case errors.Is(context.Cause(ctx), ErrCancelled):
		state = store.CrawlCancelled
	case ctx.Err() != nil:
		state = store.CrawlPaused
	case c.limited:
		state = store.CrawlPaused // a limit was reached: running again continues
	case c.seedsTried.Load() > 0 && c.seedsFailed.Load() == c.seedsTried.Load() && p.Fetched == 0:
		runErr = fmt.Errorf("%w: %s", ErrUnreachable, c.firstSeedFailure())
		state = store.CrawlFailed
	}
	// Finish with a context that outlives the cancelled one: the end state must be recorded,
	// however long the writer takes to work through what the agents handed it.
	fctx := context.WithoutCancel(ctx)
	steps := c.newStepper(p, progress)
	if state == store.CrawlDone || state == store.CrawlPaused {
		steps.report("waiting for the last pages to be written")
		if err := c.st.Writer().Flush(fctx); err != nil && runErr == nil {
			runErr = err
		}
		// The links stored packed become link rows (the index reads anchor text there).
		steps.report("linking the pages")
		if err := c.st.ExpandLinks(fctx); err != nil && runErr == nil {
			runErr = err
		}
		note = joinNotes(note, c.capNote(fctx))
	}
	note = joinNotes(note, c.render.note())
	steps.report("recording the end of the run")
	if err := c.st.FinishRun(fctx, c.rec.ID, state, errText(runErr), note); err != nil && runErr == nil {
		runErr = err
	}
	// Everything fetched becomes searchable before the run ends, unless the user stops it
	// here: the index then catches up the next time the workspace is open for writing.
	// (The index refreshes incoming anchor text, builds its pair index and merges its
	// segments on its own, behind the crawl and when idle.) A run that failed fetched
	// nothing, so it has nothing to wait for: its end is said at once, with no "running"
	// report after the failure is on record.
	if c.idx != nil && ctx.Err() == nil && state != store.CrawlFailed {
		err := c.idx.Wait(ctx, func(ip index.Progress) {
			mp := steps.p
			mp.State, mp.Note, mp.Current, mp.Index = store.CrawlRunning, "indexing: "+ip.String(), "", ip
			mp.PagesPerSec, mp.BytesPerSec, mp.ETA, mp.Elapsed = 0, 0, 0, time.Since(steps.start)
			progress(mp)
		})
		if err != nil && ctx.Err() == nil && runErr == nil {
			runErr = fmt.Errorf("index: %w", err)
		}
	}
	if c.idx != nil {
		p.Index = c.idx.Progress(fctx)
	}
	p.State, p.Note, p.Current, p.Elapsed = state, note, "", time.Since(steps.start)
	if rec, err := c.st.Crawl(fctx, c.rec.ID); err == nil {
		p.Queued, p.Pages = rec.Queued, rec.Pages
	}
	if p.Done >= 0 && state == store.CrawlDone {
		p.Done, p.ETA = 1, 0
	}
	progress(p)
	return p, runErr
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// stepper reports the steps after fetching as progress, so that long work always says what
// it does (a writer catching up, the anchor text of many pages, index merges): no page is
// visited then, the crawl's counts come from the store, the time goes on.
type stepper struct {
	p        Progress
	progress func(Progress)
	start    time.Time
	counts   func() (map[string]int64, error)
}

func (c *Crawler) newStepper(p Progress, progress func(Progress)) *stepper {
	return &stepper{p: p, progress: progress, start: time.Now().Add(-p.Elapsed),
		counts: func() (map[string]int64, error) { return c.st.CrawlCounts(context.Background(), c.rec.ID) }}
}

func (s *stepper) report(note string) {
	p := s.p
	p.State, p.Note, p.Current, p.Elapsed = store.CrawlRunning, note, "", time.Since(s.start)
	p.PagesPerSec, p.BytesPerSec, p.ETA = 0, 0, 0
	if pages, err := s.counts(); err == nil {
		p.Pages = pages
	}
	s.progress(p)
}

// capNote says when a per-host cap or a query-variant budget cut the crawl short, and how
// to lift it: the summary and the crawl's card show it.
func (c *Crawler) capNote(ctx context.Context) string {
	reasons, err := c.st.CrawlReasons(ctx, c.rec.ID)
	if err != nil {
		return ""
	}
	note := ""
	if n := reasons[ReasonHostLimit]; n > 0 {
		note = fmt.Sprintf("the per-host cap of %d pages cut the crawl short: %d pages not fetched (raise it with --max-per-host)",
			c.cfg.MaxPerHost, n)
	}
	if n := reasons[ReasonVariants]; n > 0 {
		note = joinNotes(note, fmt.Sprintf("%d URLs left out by the budget of %d query variants per path (--max-variants)",
			n, c.cfg.MaxQueryVariants))
	}
	return note
}

// loadBudgets counts again, for a run taken over from an earlier process, the pages it
// fetched per host and the query variants it queued per path; a new run starts from none.
func (c *Crawler) loadBudgets(ctx context.Context) error {
	c.hostFetched = map[string]int{}
	c.hostPending = map[string]int{}
	c.hostSeen = map[string]bool{}
	c.variants = map[string]map[uint64]bool{}
	return c.st.FrontierURLs(ctx, c.rec.ID, func(raw string, fetched bool) {
		u, err := url.Parse(raw)
		if err != nil {
			return
		}
		origin := urlnorm.Origin(u)
		c.hostSeen[origin] = true
		if fetched {
			c.hostFetched[origin]++
		}
		if u.RawQuery != "" {
			c.variant(u)
		}
	})
}

// variant counts u among its path's query variants; it reports false when the path's
// budget is used up (a variant counted before is always let through again).
func (c *Crawler) variant(u *url.URL) bool {
	key := urlnorm.Origin(u) + u.EscapedPath()
	set := c.variants[key]
	if set == nil {
		set = map[uint64]bool{}
		c.variants[key] = set
	}
	h := hashString(u.RawQuery)
	if set[h] {
		return true
	}
	if len(set) >= c.cfg.MaxQueryVariants {
		return false
	}
	set[h] = true
	return true
}

// hashString is FNV-1a: the variants remembered per path are 8 bytes each.
func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

func (c *Crawler) seedTargets(ctx context.Context) []store.Target {
	var ts []store.Target
	origins := map[string]bool{}
	for i, s := range c.cfg.Seeds {
		family := rules.Family{uint32(i + 1)}.Encode()
		u, err := urlnorm.Parse(s)
		if err != nil {
			continue
		}
		origin := urlnorm.Origin(u)
		c.hostSeen[origin] = true
		// Seeds are the user's own imperative: followed first, whatever the rules say.
		ts = append(ts, store.Target{URL: s, Origin: origin, Kind: "seed", Follow: true,
			Priority: c.strategy.Priority(frontier.Link{URL: s, Seed: true, Value: rules.First}),
			Family:   family, Category: uint8(rules.First)})
		if c.cfg.Sitemaps && !origins[origin] {
			origins[origin] = true
			ts = append(ts, c.sitemapSeeds(ctx, origin)...)
		}
	}
	return ts
}

// needsGate says whether visiting a leased page sends a request (and so needs a politeness
// slot): pages fetched before and not yet due are visited from the store, and the pages of
// a host given up are recorded as failed.
func (c *Crawler) needsGate(l store.Lease) bool {
	return !c.fromStore(l) && c.hosts.downHost(l.Origin) == nil // a host given up is not asked
}

func (c *Crawler) fromStore(l store.Lease) bool {
	return l.State == store.StateFetched && !c.cfg.Refresh && l.RefreshAt > time.Now().UnixMilli() && !l.Sitemap
}

// noteSeedFailure keeps why the first seed that failed did, for ErrUnreachable.
func (c *Crawler) noteSeedFailure(u string, r *store.Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seedFailure == "" {
		// The words, and where: the page's record keeps the whole error.
		c.seedFailure = u + ": " + ReasonText(r.Reason)
		if strings.HasPrefix(r.Detail, "robots.txt: ") {
			c.seedFailure += " (when asking for its robots.txt)"
		}
	}
}

func (c *Crawler) firstSeedFailure() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seedFailure
}

// RunEnder is what Finish needs of the store to end an import's run (*store.Store is one):
// the importers (archive, exchange) hand it their own store, which need not be a
// *store.Store.
type RunEnder interface {
	// ExpandLinks writes out the links the writer keeps packed, so that they are readable.
	ExpandLinks(ctx context.Context) error
	// FinishRun records the end of crawl id's run in state, with its error and note.
	FinishRun(ctx context.Context, id int64, state, errText, note string) error
}

// Finish ends an import's run (crawl id) in the state given, whatever ctx says: it waits
// for the writer, records the end state, then (unless ctx is cancelled) waits until the
// index idx has caught up, so that what was imported is searchable, as a crawl's end does.
// It returns the first error.
func Finish(ctx context.Context, st RunEnder, idx Index, id int64, state, errText string, step func(string)) error {
	fctx := context.WithoutCancel(ctx)
	var firstErr error
	if err := st.ExpandLinks(fctx); err != nil {
		firstErr = err
	}
	if err := st.FinishRun(fctx, id, state, errText, ""); err != nil && firstErr == nil {
		firstErr = err
	}
	if idx != nil && ctx.Err() == nil {
		err := idx.Wait(ctx, func(ip index.Progress) { step("indexing: " + ip.String()) })
		if err != nil && ctx.Err() == nil && firstErr == nil {
			firstErr = fmt.Errorf("index: %w", err)
		}
	}
	return firstErr
}

// Prepare creates (or finds) the crawl cfg describes and queues its seeds without fetching
// anything, as a run paused before its first page: resuming it starts the run. An import
// of a WWWW archive seeds its rerun this way.
func Prepare(ctx context.Context, st *store.Store, cfg Config) (store.Crawl, error) {
	c, err := Open(ctx, st, nil, cfg)
	if err != nil {
		return store.Crawl{}, err
	}
	js, _ := json.Marshal(c.cfg)
	if err := st.StartRun(ctx, c.rec.ID, js, c.fresh); err != nil {
		return store.Crawl{}, err
	}
	if err := c.loadBudgets(ctx); err != nil {
		return store.Crawl{}, err
	}
	if c.fresh {
		if _, err := st.Enqueue(ctx, c.rec.ID, c.seedTargets(ctx)); err != nil {
			return store.Crawl{}, err
		}
	}
	if err := st.FinishRun(ctx, c.rec.ID, store.CrawlPaused, "", ""); err != nil {
		return store.Crawl{}, err
	}
	return st.Crawl(ctx, c.rec.ID)
}
