// Package app is Mundaneum's bound API: thin methods over the backend that the Wails window
// and the browser front door both call. Only desktop.go imports the Wails runtime.
package app

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"mundaneum/backend/crawl"
	"mundaneum/backend/libsearch"
	"mundaneum/backend/search"
	"mundaneum/backend/store"
	"mundaneum/backend/summary"
)

// Emitter delivers a named event with a payload to the front end (Wails events in the
// window, the event stream in the browser).
type Emitter func(name string, payload any)

// Event names, "domain:verb"; payloads carry the job id.
const (
	EventCrawlProgress    = "crawl:progress"
	EventCrawlDone        = "crawl:done"
	EventWorkspaceChanged = "workspace:changed" // payload: the new workspace's path
	EventIndexProgress    = "index:progress"    // payload: IndexStatus, while a rebuild runs
	EventIndexDone        = "index:done"        // payload: IndexStatus
)

// App is the API bound into the frontend. Every exported method is frontend API. Its
// state is shared by the copies ActingFor makes for the people of `serve --public`
// (access.go); each copy knows only who it acts for.
type App struct {
	*core
	person person // who the calls come from (access.go); the zero value: the window's one user
}

// core is the state of an App.
type core struct {
	cur      atomic.Pointer[workspace] // File > Open swaps it
	emit     Emitter
	dialogs  Dialogs     // nil outside the window
	notifier Notifier    // desktop notifications of maintenance news
	started  atomic.Bool // a front door is attached: scheduled tasks run
	tickets  docTickets  // serve's tickets to stored PDFs

	capture     *captureState // capture from the browser (capture.go)
	captureOnce sync.Once

	// The window's workspace opens in the background (opening.go): opened is closed once
	// the first attempt ended, stopWaiting stops waiting for a held one. nil from New.
	opened      chan struct{}
	stopWaiting context.CancelFunc
	mu          sync.Mutex     // guards state, emit and setTitle against the opening goroutine
	state       WorkspaceState // while none is open: why
	setTitle    func(string)   // the window's title, nil outside the window
}

// New returns the API over an open workspace and opens its index; it takes over closing
// the workspace (also when it fails).
func New(st *store.Store) (*App, error) {
	ws, err := newWorkspace(st)
	if err != nil {
		st.Close()
		return nil, err
	}
	a := &App{core: &core{emit: func(string, any) {}, notifier: DesktopNotifier{}}}
	a.cur.Store(ws)
	return a, nil
}

// ws is the open workspace, once the first attempt to open it ended; nil when none could
// be opened (the frontend then asks nothing else than WorkspaceState).
func (a *App) ws() *workspace {
	if a.opened != nil {
		<-a.opened
	}
	return a.cur.Load()
}

// startup is called by the front door once it can deliver events (emit, its transport:
// every event reaches it through eventsOut); scheduled maintenance tasks run from then on.
func (a *App) startup(_ context.Context, emit Emitter) {
	a.mu.Lock()
	a.emit = eventsOut(emit)
	a.started.Store(true)
	w := a.cur.Load() // or install starts the scheduler when the workspace opens
	a.mu.Unlock()
	if w != nil {
		a.startScheduler(w)
	}
}

// shutdown pauses running crawls so that they resume next time, stops a check run, and
// closes the workspace.
func (a *App) shutdown() {
	if a.stopWaiting != nil {
		a.stopWaiting()
	}
	if w := a.ws(); w != nil {
		w.close()
	}
}

// StartCrawl starts a crawl job (or resumes/refreshes the crawl with the same seeds and
// scope) and returns it; progress arrives as "crawl:progress" events carrying a Crawl, a
// few per second per job, and "crawl:done" at the end.
func (a *App) StartCrawl(req CrawlRequest) (result Crawl, _ error) {
	defer lists(&result)
	cfg := crawl.Config{Seeds: req.Seeds, Scope: req.Scope, MaxDepth: req.MaxDepth, MaxPages: req.MaxPages,
		MaxTime: time.Duration(req.MaxSeconds) * time.Second, MaxPerHost: req.MaxPerHost,
		MaxQueryVariants: req.MaxQueryVariants, Sitemaps: req.Sitemaps, Agents: req.Agents, PerHost: req.PerHost,
		Delay: time.Duration(req.DelayMs) * time.Millisecond, Refresh: req.Refresh, Rules: req.Rules,
		Toward: req.Toward, Types: req.Types, Requisites: req.Requisites, Render: req.Render,
		RenderExternal: req.RenderExternal, RenderFullPage: req.RenderFullPage}
	if req.DelayMs < 0 {
		cfg.Delay = -1
	}
	w := a.ws()
	keep, err := crawlRetention(w.st, req.Keep, req.KeepLast)
	if err != nil {
		return Crawl{}, err
	}
	id, err := w.jobs.StartWith(context.Background(), cfg, keep, a.progress(w))
	if err != nil {
		return Crawl{}, apiError(err)
	}
	return a.crawl(id)
}

// CrawlDefaults returns the values a new crawl starts from, with this workspace's
// settings: the same defaults as the CLI's crawl.
func (a *App) CrawlDefaults() (result CrawlRequest, _ error) {
	defer lists(&result)
	set, err := a.ws().st.Settings(context.Background())
	if err != nil {
		return CrawlRequest{}, apiError(err)
	}
	c := crawl.DefaultConfig(set)
	return CrawlRequest{Scope: c.Scope, MaxDepth: c.MaxDepth, MaxPages: c.MaxPages,
		MaxSeconds: int(c.MaxTime / time.Second), MaxPerHost: c.MaxPerHost, MaxQueryVariants: c.MaxQueryVariants,
		Sitemaps: c.Sitemaps, Agents: c.Agents, PerHost: c.PerHost, DelayMs: set.DelayMs, Refresh: c.Refresh,
		Types: slices.Clone(summary.DefaultTypes), Render: c.Render}, nil
}

// PauseCrawl stops a running crawl, keeping its queue for ResumeCrawl.
func (a *App) PauseCrawl(id int64) error { return apiError(a.ws().jobs.Pause(id)) }

// ResumeCrawl continues a paused or interrupted crawl.
func (a *App) ResumeCrawl(id int64) (result Crawl, _ error) {
	defer lists(&result)
	w := a.ws()
	if err := w.jobs.Resume(context.Background(), id, a.progress(w)); err != nil {
		return Crawl{}, apiError(err)
	}
	return a.crawl(id)
}

// CancelCrawl stops a crawl for good.
func (a *App) CancelCrawl(id int64) error {
	return apiError(a.ws().jobs.Cancel(context.Background(), id))
}

// Crawls lists every crawl, newest first.
func (a *App) Crawls() (result []Crawl, _ error) {
	defer lists(&result)
	cs, err := a.ws().st.Crawls(context.Background())
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]Crawl, 0, len(cs))
	for _, c := range cs {
		out = append(out, crawlDTO(c))
	}
	return out, nil
}

// SearchFacets counts a query's matches by host, type, crawl, status and render, without ranking
// them: the window asks for them once the query's results are shown.
func (a *App) SearchFacets(query string) (result FacetResults, _ error) {
	defer lists(&result)
	res, err := a.ws().search.Facets(context.Background(), query)
	if err != nil {
		return FacetResults{}, apiError(err)
	}
	return facetResultsDTO(res), nil
}

// Search runs a query and returns one page of ranked results, and with the first page the
// library's postings that match (libraryHits of them).
func (a *App) Search(req SearchRequest) (result SearchResults, _ error) {
	defer lists(&result)
	ctx := context.Background()
	w := a.ws()
	res, err := w.search.Search(ctx, search.Request{Query: req.Query, Limit: req.Limit,
		Offset: req.Offset, Facets: req.Facets})
	if err != nil {
		return SearchResults{}, apiError(err)
	}
	out := searchDTO(res)
	if req.Offset == 0 {
		lib, err := w.library.Search(ctx, libsearch.Request{Query: req.Query, Limit: libraryHits})
		if err != nil {
			return SearchResults{}, apiError(err)
		}
		out.Library = libHitsDTO(lib)
	}
	return out, nil
}

// libraryHits is how many library postings a search shows above the pages.
const libraryHits = 5

// Status returns the workspace's counts (store.Counts, as `status` prints them).
func (a *App) Status() (Status, error) {
	w, ctx := a.ws(), context.Background()
	c, err := w.st.Counts(ctx)
	if err != nil {
		return Status{}, apiError(err)
	}
	path := w.st.Path()
	if a.person.guest {
		path = "" // where the owner keeps it is the owner's
	}
	return Status{Path: path, Fetched: c.Pages[store.StateFetched], Queued: c.Pages[store.StateQueued],
		Failed: c.Pages[store.StateFailed], Skipped: c.Pages[store.StateSkipped], Recorded: c.Pages[store.Recorded],
		Redirected: c.Pages[store.StateRedirected], Hosts: c.Hosts, Links: c.Links,
		Index: w.indexStatus(ctx, w.idx.Progress(ctx))}, nil
}

func (a *App) crawl(id int64) (Crawl, error) {
	c, err := a.ws().st.Crawl(context.Background(), id)
	if err != nil {
		return Crawl{}, apiError(err)
	}
	dto := crawlDTO(c)
	if a.ws().jobs.Running(id) {
		dto.State = store.CrawlRunning
	}
	return dto, nil
}

// progress turns a crawl's progress on workspace w into events. The crawl's record (seeds,
// scope, start time) is read once; the live counters come with each snapshot.
func (a *App) progress(w *workspace) func(crawl.Progress) {
	var rec *store.Crawl
	return func(p crawl.Progress) {
		if rec == nil || p.State != store.CrawlRunning {
			c, err := w.st.Crawl(context.Background(), p.CrawlID)
			if err != nil {
				return
			}
			rec = &c
		}
		dto := crawlDTO(*rec)
		dto.State, dto.ToVisit, dto.Visited, dto.NotDue, dto.Bytes = p.State, p.Queued, p.Visited(), p.NotDue, p.Bytes
		if p.Pages != nil {
			setPages(&dto, p.Pages)
		}
		dto.Note, dto.Current, dto.Done, dto.Searchable = p.Note, p.Current, p.Done, p.Index.Indexed
		if p.State != store.CrawlRunning {
			a.emit(EventCrawlDone, dto) // with the record's error: why a failed run failed
			return
		}
		dto.PagesPerSec, dto.ElapsedSeconds, dto.EtaSeconds = p.PagesPerSec, p.Elapsed.Seconds(), p.ETA.Seconds()
		a.emit(EventCrawlProgress, dto)
	}
}

// Attach connects a front door other than the Wails window (the browser front door) to a:
// events go to emit from now on. A package function, not a method, so that it is not
// frontend API.
func Attach(ctx context.Context, a *App, emit Emitter) { a.startup(ctx, emit) }

// Detach pauses a's running crawls (they resume next time) when its front door closes.
func Detach(a *App) { a.shutdown() }
