// Package app is Mundaneum's bound API: thin methods over the backend that the Wails window
// and the browser front door both call. Only desktop.go imports the Wails runtime.
package app

import (
	"context"
	"time"

	"mundaneum/backend/crawl"
	"mundaneum/backend/search"
	"mundaneum/backend/store"
)

// Emitter delivers a named event with a payload to the front end (Wails events in the
// window, the event stream in the browser).
type Emitter func(name string, payload any)

// Event names, "domain:verb"; payloads carry the job id.
const (
	EventCrawlProgress = "crawl:progress"
	EventCrawlDone     = "crawl:done"
)

// App is the API bound into the frontend. Every exported method is frontend API.
type App struct {
	st     *store.Store
	jobs   *crawl.Jobs
	search *search.Searcher
	emit   Emitter
}

// New returns the API over an open workspace.
func New(st *store.Store) *App {
	return &App{st: st, jobs: crawl.NewJobs(st), search: search.New(st.ReadDB()), emit: func(string, any) {}}
}

// startup is called by the front door once it can deliver events.
func (a *App) startup(_ context.Context, emit Emitter) { a.emit = emit }

// shutdown pauses running crawls so that they resume next time.
func (a *App) shutdown() { a.jobs.Close() }

// StartCrawl starts a crawl job (or resumes/refreshes the crawl with the same seeds and
// scope) and returns it; progress arrives as "crawl:progress" events carrying a Crawl, a
// few per second per job, and "crawl:done" at the end.
func (a *App) StartCrawl(req CrawlRequest) (Crawl, error) {
	cfg := crawl.Config{Seeds: req.Seeds, Scope: req.Scope, MaxDepth: req.MaxDepth, MaxPages: req.MaxPages,
		MaxTime: time.Duration(req.MaxSeconds) * time.Second, Agents: req.Agents, PerHost: req.PerHost,
		Delay: time.Duration(req.DelayMs) * time.Millisecond, Refresh: req.Refresh}
	if req.DelayMs < 0 {
		cfg.Delay = -1
	}
	id, err := a.jobs.Start(context.Background(), cfg, a.progress)
	if err != nil {
		return Crawl{}, apiError(err)
	}
	return a.crawl(id)
}

// PauseCrawl stops a running crawl, keeping its queue for ResumeCrawl.
func (a *App) PauseCrawl(id int64) error { return apiError(a.jobs.Pause(id)) }

// ResumeCrawl continues a paused or interrupted crawl.
func (a *App) ResumeCrawl(id int64) (Crawl, error) {
	if err := a.jobs.Resume(context.Background(), id, a.progress); err != nil {
		return Crawl{}, apiError(err)
	}
	return a.crawl(id)
}

// CancelCrawl stops a crawl for good.
func (a *App) CancelCrawl(id int64) error {
	return apiError(a.jobs.Cancel(context.Background(), id))
}

// Crawls lists every crawl, newest first.
func (a *App) Crawls() ([]Crawl, error) {
	cs, err := a.st.Crawls(context.Background())
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]Crawl, 0, len(cs))
	for _, c := range cs {
		out = append(out, crawlDTO(c))
	}
	return out, nil
}

// Search runs a query and returns ranked results.
func (a *App) Search(query string, limit int) (SearchResults, error) {
	res, err := a.search.Search(context.Background(), query, limit, 0)
	if err != nil {
		return SearchResults{}, apiError(err)
	}
	return searchDTO(res), nil
}

// Status returns the workspace's counts.
func (a *App) Status() (Status, error) {
	c, err := a.st.Counts(context.Background())
	if err != nil {
		return Status{}, apiError(err)
	}
	return Status{Path: a.st.Path(), Fetched: c.Pages[store.StateFetched], Queued: c.Pages[store.StateQueued],
		Failed: c.Pages[store.StateFailed], Skipped: c.Pages[store.StateSkipped], Hosts: c.Hosts, Links: c.Links}, nil
}

func (a *App) crawl(id int64) (Crawl, error) {
	c, err := a.st.Crawl(context.Background(), id)
	if err != nil {
		return Crawl{}, apiError(err)
	}
	dto := crawlDTO(c)
	if a.jobs.Running(id) {
		dto.State = store.CrawlRunning
	}
	return dto, nil
}

func (a *App) progress(p crawl.Progress) {
	c, err := a.st.Crawl(context.Background(), p.CrawlID)
	if err != nil {
		return
	}
	dto := crawlDTO(c)
	dto.State, dto.Fetched, dto.Failed, dto.Skipped, dto.Queued, dto.Bytes = p.State, p.Fetched, p.Failed, p.Skipped, p.Queued, p.Bytes
	dto.PagesPerSec = p.PagesPerSec
	if p.State != "running" {
		a.emit(EventCrawlDone, dto)
		return
	}
	a.emit(EventCrawlProgress, dto)
}
