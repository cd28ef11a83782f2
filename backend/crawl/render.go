package crawl

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"mundaneum/backend/extract"
	"mundaneum/backend/fetch"
	"mundaneum/backend/frontier"
	"mundaneum/backend/politeness"
	"mundaneum/backend/render"
	"mundaneum/backend/store"
	"mundaneum/backend/summary"
	"mundaneum/backend/urlnorm"
)

// renderStage is the crawl's stage between fetch and extract that only shells go through:
// the mode, and the browser (started on the first page that needs it, stopped at the end
// of the run).
type renderStage struct {
	mode render.Mode
	r    *render.Renderer // nil for never
	// missing is set once no browser could be found: the crawl goes on without rendering.
	missing atomic.Bool
	// rendered and failed count this run's pages that went through the browser.
	rendered, failed atomic.Int64
}

func newRenderStage(cfg Config) *renderStage {
	mode, _ := render.ParseMode(cfg.Render) // normalize checked it
	rs := &renderStage{mode: mode}
	if mode != render.Never {
		rs.r = render.New(render.Options{Tabs: cfg.RenderTabs, Budget: cfg.RenderBudget, FullPage: cfg.RenderFullPage,
			MaxBody: int(cfg.MaxBody), UserAgent: cfg.UserAgent, From: cfg.From})
	}
	return rs
}

// close stops the browser, if one started, and removes its profile.
func (rs *renderStage) close() {
	if rs.r != nil {
		rs.r.Close()
	}
}

// note says what the run's rendering did, for the summary ("" when it rendered nothing
// and missed nothing).
func (rs *renderStage) note() string {
	if rs.missing.Load() {
		return "pages were not rendered: " + render.ErrNoBrowser.Error()
	}
	if n, f := rs.rendered.Load(), rs.failed.Load(); f > 0 {
		return fmt.Sprintf("%d pages rendered in Chromium, %d could not be (their HTML as served was kept)", n, f)
	}
	return ""
}

// RenderStats are the browser's (nil: the crawl renders nothing).
func (c *Crawler) RenderStats() *render.Stats {
	if c.render.r == nil {
		return nil
	}
	s := c.render.r.Stats()
	return &s
}

// validateRender checks the render settings of a crawl.
func (c *Config) validateRender() error {
	if _, err := render.ParseMode(c.Render); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	switch {
	case c.RenderTabs < 0 || c.RenderTabs > maxRenderTabs:
		return fmt.Errorf("%w: render-tabs must be between 1 and %d (0: the default, %d)", ErrConfig, maxRenderTabs, render.DefaultTabs)
	case c.RenderBudget < 0 || c.RenderBudget > maxRenderBudget:
		return fmt.Errorf("%w: the render budget must be at most %s (0: the default, %s)", ErrConfig, maxRenderBudget, render.DefaultBudget)
	case c.RenderBudget > 0 && c.RenderBudget < minRenderBudget:
		return fmt.Errorf("%w: the render budget must be at least %s", ErrConfig, minRenderBudget)
	}
	return nil
}

// Bounds of the render settings.
const (
	maxRenderTabs   = 8
	minRenderBudget = 2 * time.Second
	maxRenderBudget = 2 * time.Minute
)

// wantsRender reports whether a page whose body is unchanged since it was stored must go
// through the browser all the same: it was stored as served, and would be rendered now.
func (c *Crawler) wantsRender(it frontier.Item, body []byte) bool {
	rs := c.render
	if rs.r == nil || rs.missing.Load() {
		return false
	}
	return rs.mode == render.Always || render.Detect(body, it.URL).Shell
}

// renderPage is the render stage of an HTML page fetched with new content: s and found
// are its summary and links as served, in r. A page the crawl renders (always, or a shell
// under auto) is summarised again from the DOM after its scripts, by the same
// summariser, with its route fragments and script navigations as links more, its
// screenshots, and as its hash that of its rendered text. It returns the summary and
// links to go on with, and a stored result instead when the rendered text is what the
// page already has. Every page says how it was read (r.Render).
func (c *Crawler) renderPage(ctx context.Context, it frontier.Item, u *url.URL, resp *fetch.Response, r *store.Result,
	s *extract.Summary, found []Found) (*extract.Summary, []Found, *store.Result) {
	if r.Doc == nil || r.Doc.Summariser != "html" {
		return s, found, nil
	}
	rs := c.render
	v := render.Detect(resp.Body, it.URL)
	rec := &store.Render{State: store.RenderStatic, Why: string(rs.mode), Signal: string(v.Signal), Detail: v.Detail}
	if v.Shell {
		rec.State = store.RenderShell
		rec.Detail = "looks like a shell: " + v.Detail
	}
	r.Render = rec
	if rs.mode == render.Never || (rs.mode == render.Auto && !v.Shell) {
		return s, found, nil
	}
	if rs.missing.Load() {
		rec.Why, rec.Detail = render.CauseNoBrowser, joinNotes(rec.Detail, "not rendered: no browser")
		return s, found, nil
	}
	res, err := rs.r.Render(ctx, render.Request{URL: it.URL, Status: resp.Status, Header: resp.Header, Body: resp.Body,
		Gate: renderGate{c: c, page: u}})
	if ctx.Err() != nil {
		return s, found, nil // paused: the visit is not saved
	}
	if err != nil {
		cause := render.CauseOf(err)
		if cause == render.CauseNoBrowser {
			rs.missing.Store(true)
		} else {
			rs.failed.Add(1)
		}
		rec.Why = cause
		rec.Detail = joinNotes(rec.Detail, "not rendered: "+err.Error())
		return s, found, nil
	}
	rs.rendered.Add(1)
	header := resp.Header.Clone()
	for _, h := range []string{"Etag", "Last-Modified", "Content-Length", "Content-Encoding"} {
		header.Del(h)
	}
	header.Set("Content-Type", "text/html; charset=utf-8")
	rendered := &store.Result{Status: r.Status, WireBytes: r.WireBytes + res.Bytes, ContentType: r.ContentType, RefreshAt: r.RefreshAt}
	rs2, found2, err := Summarize(ctx, rendered, u, resp.Status, header, "text/html", res.HTML,
		summary.Budget{MaxText: int(c.cfg.MaxBody)}, c.types)
	if err != nil {
		rec.Why, rec.Detail = render.CauseError, joinNotes(rec.Detail, "the rendered DOM could not be read: "+err.Error())
		return s, found, nil
	}
	// A recrawl compares what the page says: its hash is that of its rendered text. The
	// shell's validators say nothing of the data its scripts fetch: none are kept, so the
	// next visit asks for the shell without conditions.
	rendered.Hash = renderedHash(rs2)
	rendered.ContentType = r.ContentType
	why := "shell"
	if rs.mode == render.Always {
		why = "always"
	}
	detail := fmt.Sprintf("rendered in %s (%d requests, %d refused)", res.Elapsed.Round(100*time.Millisecond), res.Requests, res.Refused)
	if v.Shell {
		detail = "looks like a shell: " + v.Detail + "; " + detail
	}
	if res.Note != "" {
		detail += "; " + res.Note
	}
	rendered.Render = &store.Render{State: store.RenderRendered, Why: why, Signal: string(v.Signal), Detail: detail}
	for _, sh := range []struct {
		img  *render.Image
		kind string
	}{{res.Screenshot, store.ShotViewport}, {res.FullPage, store.ShotFull}} {
		if sh.img != nil {
			rendered.Screenshots = append(rendered.Screenshots, store.Screenshot{Kind: sh.kind, Format: sh.img.Format,
				Width: sh.img.Width, Height: sh.img.Height, Data: sh.img.Data})
		}
	}
	found2 = append(found2, scriptLinks(it.URL, res)...)
	found2 = append(found2, droppedScripts(found, found2)...)
	if it.State == store.StateFetched && it.Hash == rendered.Hash {
		sr := c.storedResult(ctx, it, true)
		sr.Status, sr.WireBytes, sr.RefreshAt, sr.Render = resp.Status, rendered.WireBytes, r.RefreshAt, rendered.Render
		return rs2, found2, sr
	}
	*r = *rendered
	return rs2, found2, nil
}

// renderedHash is the hash a rendered version is kept under: that of its text (title,
// headings, body), marked so that it is never a body's.
func renderedHash(s *extract.Summary) string {
	h := sha256.New()
	h.Write([]byte("mundaneum rendered text\x00"))
	h.Write([]byte(s.Title))
	h.Write([]byte{0})
	h.Write([]byte(s.Headings))
	h.Write([]byte{0})
	h.Write([]byte(s.Text))
	return hex.EncodeToString(h.Sum(nil))
}

// droppedScripts are the scripts the page's HTML names (<script src>) that the rendered DOM
// does not: the DOM is read without its scripts, and a page that cites a script still
// cites it once rendered (as the crawl records it, and the counts and link checks see).
func droppedScripts(static, rendered []Found) []Found {
	seen := make(map[string]bool, len(rendered))
	for _, f := range rendered {
		if f.Link.Kind == extract.KindScript {
			seen[f.Link.URL] = true
		}
	}
	var out []Found
	for _, f := range static {
		if f.Link.Kind == extract.KindScript && !seen[f.Link.URL] {
			seen[f.Link.URL] = true
			out = append(out, f)
		}
	}
	return out
}

// scriptLinks are the links a rendered page has that its HTML cannot: route fragments of
// its document (pages of their own, their fragment kept), and where its scripts tried to
// navigate it (followed as a meta refresh is).
func scriptLinks(pageURL string, res *render.Result) []Found {
	var out []Found
	add := func(raw, kind string) {
		if raw == pageURL {
			return
		}
		lu, err := urlnorm.Parse(raw)
		if err != nil {
			return
		}
		if kind == extract.KindA {
			f := render.RouteFragment(raw)
			if f == "" {
				return
			}
			lu.Fragment = f
		}
		out = append(out, Found{URL: lu, Link: extract.Link{URL: lu.String(), Kind: kind}})
	}
	for _, r := range res.Routes {
		add(r, extract.KindA)
	}
	for _, n := range res.Navigations {
		add(n, extract.KindRefresh)
	}
	return out
}

// renderGate admits the requests of a page being rendered as the crawl's own: within the
// crawl's hosts (or the page's own) unless the crawl allows others, as robots.txt allows,
// and one at a time as the host's politeness allows.
type renderGate struct {
	c    *Crawler
	page *url.URL
}

func (g renderGate) Admit(ctx context.Context, u *url.URL) (func(int, bool), error) {
	c := g.c
	if !c.cfg.RenderExternal && !c.scope.hostIn(u) && siteKey(u) != siteKey(g.page) {
		return nil, &render.Refused{Reason: "outside the crawl's hosts"}
	}
	plain := *u
	plain.Fragment, plain.RawFragment = "", ""
	dec, err := c.robots.Check(ctx, &plain)
	if err != nil {
		return nil, &render.Refused{Reason: "robots.txt: " + err.Error()}
	}
	if !dec.Allowed {
		return nil, &render.Refused{Reason: "robots.txt"}
	}
	origin := urlnorm.Origin(u)
	c.limiter.SetCrawlDelay(origin, dec.CrawlDelay)
	if !dec.FetchedAt.IsZero() {
		c.limiter.Requested(origin, dec.FetchedAt, time.Now())
	}
	for {
		ok, at := c.limiter.TryAcquire(origin, time.Now())
		if ok {
			break
		}
		t := time.NewTimer(time.Until(at))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	return func(status int, failed bool) {
		c.limiter.Release(origin, time.Now(), politeness.Feedback{Status: status, Err: failed})
		c.freed.add(origin)
	}, nil
}

// hostIn reports whether u is on one of the crawl's hosts: the seeds' sites, or their
// registrable domains for a domain crawl.
func (s *scope) hostIn(u *url.URL) bool {
	if s.kind == ScopeDomain {
		return s.doms[domain(u.Hostname())]
	}
	return s.sites[siteKey(u)]
}

// renderReasonWords say why a shell was not rendered, for the page view.
var renderReasonWords = map[string]string{
	"never":                 "the crawl does not render pages (--render never)",
	render.CauseNoBrowser:   "no browser: install chromium",
	render.CauseTimeout:     "its scripts held it past the time budget",
	render.CauseCrashed:     "its tab crashed",
	render.CauseMemory:      "it took more memory than the cap",
	render.CauseBrowserDied: "the browser died",
	render.CauseNavigation:  "the browser could not load it",
	render.CauseError:       "the browser failed",
}

// RenderText says in words how a page's HTML was read: "rendered because …", "not
// rendered: …", or "static HTML".
func RenderText(rd store.Render) string {
	switch rd.State {
	case store.RenderRendered:
		if rd.Why == "always" {
			return "rendered because the crawl renders every page (--render always)"
		}
		return "rendered because its HTML as served is a shell: " + signalWords(rd.Signal)
	case store.RenderShell:
		w := renderReasonWords[rd.Why]
		if w == "" {
			w = rd.Why
		}
		return "not rendered (" + w + "), though its HTML looks like a shell: " + signalWords(rd.Signal)
	case store.RenderStatic:
		if rd.Why == "never" {
			return "static HTML, read as served (the crawl does not render pages)"
		}
		return "static HTML, read as served: it needs no browser"
	}
	return ""
}

func signalWords(s string) string {
	switch render.Signal(s) {
	case render.SignalEmptyRoot:
		return "an empty application root"
	case render.SignalNoscript:
		return "its text is only in <noscript>"
	case render.SignalScriptLinks:
		return "its links are only in its scripts"
	case render.SignalLittleText:
		return "little text for its markup"
	case render.SignalHashRoute:
		return "its URL is a route (#!/… or #/…) only its scripts show"
	}
	return strings.TrimSpace(s)
}
