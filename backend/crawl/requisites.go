package crawl

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mundaneum/backend/fetch"
	"mundaneum/backend/politeness"
	"mundaneum/backend/sanitize"
	"mundaneum/backend/store"
	"mundaneum/backend/urlnorm"
)

// Page requisites (Config.Requisites, wget's -p): the style sheets, images and fonts a
// fetched page needs to look like itself offline. Once a run has visited its pages, it
// gathers the requisites of every page of the crawl whose current body has not had them
// gathered (so a run stopped midway, or a crawl asked for them later, catches up): what
// the offline copy would ask for (sanitize.Requisites, the same reading), then what the
// style sheets among them import and name, to a depth of four. A requisite may be on any
// host (a page's style sheet on a CDN is still the page's); robots.txt, the per-host delay
// and the byte and time limits apply as to pages. Each is fetched once per run, not at all
// when it is stored already (every run with --refresh), and a failure is recorded and not
// tried again within a day. Only what reads as a style sheet, an image or a font by its
// bytes is kept (sanitize.AssetType).

// requisiteRetry is how long a requisite that could not be fetched is left alone.
const requisiteRetry = 24 * time.Hour

// maxRequisiteDepth bounds style sheets importing style sheets.
const maxRequisiteDepth = 4

// requisitePages is how many pages' requisites are gathered at a time.
const requisitePages = 100

// gatherer fetches one run's requisites.
type gatherer struct {
	c      *Crawler
	client *fetch.Client
	start  time.Time
	mu     sync.Mutex
	seen   map[string]bool
	stored atomic.Int64 // requisites stored this run
	failed atomic.Int64
	bytes  atomic.Int64
	err    error // the first store failure
	// deadline is the end of the run's time limit (zero: none).
	deadline time.Time
}

type requisiteJob struct {
	ref   sanitize.Ref
	depth int
}

// gatherRequisites gathers the requisites of the crawl's pages, reporting progress with
// its note; it returns the run's progress with the counts it adds.
func (c *Crawler) gatherRequisites(ctx context.Context, p Progress, progress func(Progress)) (Progress, error) {
	if err := c.st.Writer().Flush(ctx); err != nil {
		return p, err
	}
	g := &gatherer{c: c, start: time.Now(), seen: map[string]bool{},
		client: fetch.New(fetch.Config{UserAgent: c.cfg.UserAgent, From: c.cfg.From, MaxBody: c.cfg.MaxBody,
			MaxConnsPerHost: c.cfg.PerHost, Accept: requisiteType, AcceptHeader: "text/css,image/*,font/*;q=0.9,*/*;q=0.5"})}
	if c.cfg.MaxTime > 0 {
		g.deadline = g.start.Add(c.cfg.MaxTime - p.Elapsed)
	}
	report := func(pages int) {
		q := p
		q.State, q.Current = store.CrawlRunning, ""
		q.Note = fmt.Sprintf("page requisites: %d pages read, %d files stored", pages, g.stored.Load())
		q.Requisites = g.stored.Load()
		progress(q)
	}
	var after int64
	pages := 0
	last := time.Now()
	for ctx.Err() == nil && !g.overLimit() {
		var before int64
		if c.cfg.Refresh {
			before = g.start.UnixMilli() // a refresh run gathers every page's again
		}
		ps, err := c.st.PagesWithoutRequisites(ctx, c.rec.ID, after, before, requisitePages)
		if err != nil || len(ps) == 0 {
			if err != nil && ctx.Err() == nil {
				return p, err
			}
			break
		}
		var jobs []requisiteJob
		for _, pg := range ps {
			after = pg.ID
			body, _, charset, err := c.st.Body(ctx, pg.ID)
			if err != nil {
				continue // no body kept: nothing to gather
			}
			utf8, _ := fetch.DecodeText(body, "text/html; charset="+charset)
			base, err := url.Parse(pg.URL)
			if err != nil {
				continue
			}
			for _, r := range sanitize.Requisites(utf8, base) {
				jobs = append(jobs, requisiteJob{ref: r})
			}
		}
		g.run(ctx, jobs)
		if g.err != nil {
			return p, g.err
		}
		if ctx.Err() != nil || g.overLimit() {
			break // the pages of this batch are gathered next time
		}
		now := time.Now().UnixMilli()
		for _, pg := range ps {
			if err := c.st.RequisitesGathered(ctx, pg.ID, pg.Hash, now); err != nil {
				return p, err
			}
		}
		pages += len(ps)
		if time.Since(last) >= progressEvery {
			report(pages)
			last = time.Now()
		}
	}
	report(pages)
	p.Requisites = g.stored.Load()
	p.Bytes += g.bytes.Load()
	if g.overLimit() {
		p.Note = joinNotes(p.Note, "the limits cut the page requisites short: running the crawl again gathers the rest")
	}
	return p, nil
}

// requisiteType accepts the media types a requisite may come as (AssetType has the last
// word, by the bytes).
func requisiteType(mt string) bool {
	switch {
	case mt == "text/css", mt == "text/plain", mt == "", strings.HasPrefix(mt, "image/"), strings.HasPrefix(mt, "font/"),
		strings.HasPrefix(mt, "application/font"), strings.HasPrefix(mt, "application/x-font"),
		mt == "application/vnd.ms-fontobject", mt == "application/octet-stream", mt == "binary/octet-stream":
		return true
	}
	return false
}

// overLimit reports whether the run's byte or time limit is reached.
func (g *gatherer) overLimit() bool {
	c := g.c
	if c.cfg.MaxBytes > 0 && c.counts[cBytes].Load()-c.base[cBytes]+g.bytes.Load() >= c.cfg.MaxBytes {
		return true
	}
	return !g.deadline.IsZero() && time.Now().After(g.deadline)
}

// run fetches jobs (and what their style sheets name, level by level) with the crawl's
// agents.
func (g *gatherer) run(ctx context.Context, jobs []requisiteJob) {
	for len(jobs) > 0 && ctx.Err() == nil && !g.overLimit() {
		var next []requisiteJob
		var mu sync.Mutex
		work := make(chan requisiteJob)
		var wg sync.WaitGroup
		for range max(1, min(g.c.cfg.Agents, len(jobs))) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := range work {
					more := g.one(ctx, j)
					mu.Lock()
					next = append(next, more...)
					mu.Unlock()
				}
			}()
		}
		for _, j := range jobs {
			if ctx.Err() != nil || g.overLimit() {
				break
			}
			work <- j
		}
		close(work)
		wg.Wait()
		jobs = next
	}
}

// one gathers one requisite and returns what it names (a style sheet's imports, images
// and fonts).
func (g *gatherer) one(ctx context.Context, j requisiteJob) []requisiteJob {
	canon, err := urlnorm.Normalize(j.ref.URL.String())
	if err != nil {
		return nil
	}
	g.mu.Lock()
	seen := g.seen[canon]
	g.seen[canon] = true
	g.mu.Unlock()
	if seen {
		return nil
	}
	state, err := g.c.st.RequisiteState(ctx, canon)
	if err != nil {
		g.fail(err)
		return nil
	}
	var body []byte
	switch {
	case state.Stored && !(g.c.cfg.Refresh && state.LastFetched < g.start.UnixMilli()):
		if j.ref.Kind == sanitize.AssetStylesheet {
			if r, err := g.c.st.Requisite(ctx, canon, time.Now().UnixMilli()); err == nil {
				body = r.Body
			}
		}
	case state.LastFetched > 0 && !state.Stored && time.Since(time.UnixMilli(state.LastFetched)) < requisiteRetry && !g.c.cfg.Refresh:
		return nil
	default:
		body = g.fetch(ctx, canon, j.ref.Kind)
	}
	if j.ref.Kind != sanitize.AssetStylesheet || body == nil || j.depth >= maxRequisiteDepth {
		return nil
	}
	base, err := url.Parse(canon)
	if err != nil {
		return nil
	}
	var out []requisiteJob
	for _, r := range sanitize.CSSRefs(body, base) {
		out = append(out, requisiteJob{ref: r, depth: j.depth + 1})
	}
	return out
}

func (g *gatherer) fail(err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.err == nil && err != nil {
		g.err = err
	}
}

// fetch fetches a requisite (following redirects), records the fetch, and returns the body
// kept (nil: none).
func (g *gatherer) fetch(ctx context.Context, canon string, kind sanitize.AssetKind) []byte {
	rec := store.RequisiteFetch{URL: canon, Kind: kind.String()}
	body := g.get(ctx, canon, kind, &rec)
	if ctx.Err() != nil {
		return nil
	}
	rec.FetchedAt = time.Now().UnixMilli()
	if body != nil {
		mt, ok := sanitize.AssetType(body, rec.ContentType, kind)
		if ok {
			rec.ContentType, rec.Body = mt, body
		} else {
			rec.Error = fmt.Sprintf("not a %s (%s)", kind, rec.ContentType)
		}
	}
	if rec.Body == nil {
		g.failed.Add(1)
	} else {
		g.stored.Add(1)
	}
	if err := g.c.st.SaveRequisite(ctx, rec); err != nil && ctx.Err() == nil {
		g.fail(err)
	}
	return rec.Body
}

// get asks for a requisite as the crawl asks for pages: robots.txt first, then a slot of
// the host's politeness; redirects are followed (up to maxRedirects).
func (g *gatherer) get(ctx context.Context, raw string, kind sanitize.AssetKind, rec *store.RequisiteFetch) []byte {
	c := g.c
	for hop := 0; hop <= maxRedirects; hop++ {
		u, err := urlnorm.Parse(raw)
		if err != nil {
			rec.Error = err.Error()
			return nil
		}
		dec, err := c.robots.Check(ctx, u)
		switch {
		case err != nil:
			rec.Error = "robots.txt: " + err.Error()
			return nil
		case !dec.Allowed:
			rec.Error = "robots.txt: " + dec.Reason
			return nil
		}
		origin := urlnorm.Origin(u)
		c.limiter.SetCrawlDelay(origin, dec.CrawlDelay)
		if !g.acquire(ctx, origin) {
			return nil
		}
		resp, err := g.client.Do(ctx, fetch.Request{URL: u.String()})
		fb := politeness.Feedback{}
		if resp != nil {
			fb.Status = resp.Status
			g.bytes.Add(resp.WireBytes)
		}
		fb.Err = err != nil && resp == nil
		c.limiter.Release(origin, time.Now(), fb)
		c.freed.add(origin)
		if err != nil {
			rec.Error = err.Error()
			if resp == nil || resp.Truncated {
				return nil
			}
		}
		rec.Status, rec.ContentType = resp.Status, resp.MediaType
		switch {
		case resp.Status >= 300 && resp.Status < 400 && resp.Location != "":
			raw = resp.Location
			continue
		case resp.Status != 200 || !resp.Wanted:
			if rec.Error == "" {
				rec.Error = fmt.Sprintf("HTTP %d %s", resp.Status, resp.MediaType)
			}
			return nil
		}
		return resp.Body
	}
	rec.Error = "too many redirects"
	return nil
}

// acquire waits for a slot of the host's politeness; false when ctx ends first.
func (g *gatherer) acquire(ctx context.Context, origin string) bool {
	for {
		ok, at := g.c.limiter.TryAcquire(origin, time.Now())
		if ok {
			return true
		}
		t := time.NewTimer(max(time.Until(at), time.Millisecond))
		select {
		case <-ctx.Done():
			t.Stop()
			return false
		case <-t.C:
		}
	}
}
