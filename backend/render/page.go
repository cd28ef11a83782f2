package render

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
)

// Gate decides the requests a rendered page makes besides its document (which the crawl
// fetched already): whether each may be made, waiting for its host's turn. The crawl gives
// its scope, robots.txt and per-host politeness.
type Gate interface {
	// Admit waits until a request for u may start, or refuses it (a *Refused says why).
	// done is called once with the response's status (0 and failed when there is none)
	// when the request is over as far as its host's turn goes.
	Admit(ctx context.Context, u *url.URL) (done func(status int, failed bool), err error)
}

// Refused is a request a Gate did not admit.
type Refused struct{ Reason string }

func (e *Refused) Error() string { return "refused: " + e.Reason }

// Request is a page to render.
type Request struct {
	// URL is the page; a route fragment (#!x, #/x) is kept: the page's scripts read it.
	URL string
	// Status, Header and Body are the document as the crawl fetched it: the browser gets
	// it from them and never fetches it again.
	Status int
	Header http.Header
	Body   []byte
	Gate   Gate
}

// Image is a screenshot.
type Image struct {
	Format        string // jpeg
	Data          []byte
	Width, Height int // CSS pixels
}

// Result is a rendered page.
type Result struct {
	HTML []byte // the DOM after scripts settled, serialised (UTF-8, scripts dropped)
	// URL is where the page's scripts left it (history.pushState, a route fragment).
	URL string
	// Routes are the links of the page that are route fragments of its document (#!x,
	// #/x): pages its scripts show, which HTML links without a fragment do not name.
	Routes []string
	// Navigations are the documents the page's scripts tried to navigate to: refused (the
	// page is read as it is), to be followed as links.
	Navigations []string
	Screenshot  *Image
	FullPage    *Image // with Options.FullPage
	// Settled is false when the network or the DOM were still busy at the end of the
	// time given to settling; Note then says which.
	Settled  bool
	Note     string
	Requests int   // requests the page made and the gate admitted
	Refused  int   // requests refused (out of scope, robots.txt, not http(s), downloads)
	Bytes    int64 // bytes the admitted requests brought
	Dialogs  int   // dialogs dismissed
	Nodes    int   // nodes serialised
	Elapsed  time.Duration
}

// tabTimeout bounds opening a tab.
const tabTimeout = 20 * time.Second

// worldName names the isolated world Mundaneum reads pages in.
const worldName = "mundaneum"

// pageRun is one page being rendered in a tab.
type pageRun struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	req    Request
	tab    *tab
	docURL string // the document's URL without fragment

	docServed atomic.Bool
	docNetID  atomicNetID
	bytes     atomic.Int64
	dialogs   atomic.Int64
	start     time.Time

	mu          sync.Mutex
	pending     map[string]func(int, bool)
	byNet       map[network.RequestID]string // the Fetch id of an admitted request, by its network id
	inflight    int
	netAt       time.Time // when a request last started or ended
	requests    int
	refused     map[string]int
	navigations []string
	over        bool
	failure     error
	suspect     bool // the tab ran out of time: closed, not kept for the next page
}

type atomicNetID struct{ v atomic.Value }

func (a *atomicNetID) Store(id network.RequestID) { a.v.Store(id) }
func (a *atomicNetID) Load() network.RequestID {
	id, _ := a.v.Load().(network.RequestID)
	return id
}

type atomicPage struct{ p atomic.Pointer[pageRun] }

func (a *atomicPage) Load() *pageRun           { return a.p.Load() }
func (a *atomicPage) Store(p *pageRun)         { a.p.Store(p) }
func (a *atomicPage) Swap(p *pageRun) *pageRun { return a.p.Swap(p) }

// fail ends the page's rendering with err (the first failure counts).
func (p *pageRun) fail(err error) {
	p.mu.Lock()
	if p.failure == nil {
		p.failure = err
	}
	p.mu.Unlock()
	p.cancel(err)
}

// started records an admitted request (false when the page is over: its turn is given
// back at once).
func (p *pageRun) started(id string, net network.RequestID, done func(int, bool)) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.over {
		done(0, false)
		return false
	}
	p.pending[id] = done
	if net != "" {
		p.byNet[net] = id
	}
	p.inflight++
	p.requests++
	p.netAt = time.Now()
	return true
}

// cancelled records that the browser gave up a request before its response (a script
// aborted it, a frame went away): no response stage comes for it.
func (p *pageRun) cancelled(net network.RequestID) {
	p.mu.Lock()
	id, ok := p.byNet[net]
	p.mu.Unlock()
	if ok {
		p.finished(id, 0, true)
	}
}

// finished records that a request's response came (or that it failed).
func (p *pageRun) finished(id string, status int, failed bool) {
	p.mu.Lock()
	done := p.pending[id]
	delete(p.pending, id)
	if done != nil {
		p.inflight--
		p.netAt = time.Now()
	}
	p.mu.Unlock()
	if done != nil {
		done(status, failed)
	}
}

func (p *pageRun) refuse(reason string) {
	p.mu.Lock()
	p.refused[reason]++
	p.netAt = time.Now()
	p.mu.Unlock()
}

func (p *pageRun) navigatedTo(u string) {
	p.mu.Lock()
	if len(p.navigations) < 20 {
		p.navigations = append(p.navigations, u)
	}
	p.netAt = time.Now()
	p.mu.Unlock()
}

// netQuiet says how long no request has started or ended, and how many are in flight.
func (p *pageRun) netQuiet(now time.Time) (time.Duration, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return now.Sub(p.netAt), p.inflight
}

// end gives back every turn the page still holds: nothing of it is admitted from now on.
func (p *pageRun) end() {
	p.mu.Lock()
	p.over = true
	pending := p.pending
	p.pending = map[string]func(int, bool){}
	p.inflight = 0
	p.mu.Unlock()
	for _, done := range pending {
		done(0, false)
	}
}

// document is the answer to the page's document request: the body as the crawl fetched
// it, with its headers (less those about the encoding on the wire: the body is decoded).
func (p *pageRun) document(id fetch.RequestID) fetch.FulfillRequestParams {
	status := p.req.Status
	if status < 200 || status > 299 {
		status = http.StatusOK
	}
	var hs []*fetch.HeaderEntry
	for k, vs := range p.req.Header {
		switch http.CanonicalHeaderKey(k) {
		case "Content-Encoding", "Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive":
			continue
		}
		for _, v := range vs {
			hs = append(hs, &fetch.HeaderEntry{Name: k, Value: v})
		}
	}
	if p.req.Header.Get("Content-Type") == "" {
		hs = append(hs, &fetch.HeaderEntry{Name: "Content-Type", Value: "text/html"})
	}
	return fetch.FulfillRequestParams{RequestID: id, ResponseCode: int64(status), ResponseHeaders: hs, Body: p.req.Body}
}

// Render renders one page: it waits for a tab (not counted in the page's budget), then
// gives the page at most Options.Budget, everything included. A page that fails (its
// scripts never yield, its tab crashes, the browser goes over the memory cap or dies)
// returns an *Error with the cause; the tab is closed and the browser started again if
// it must be.
func (r *Renderer) Render(ctx context.Context, req Request) (*Result, error) {
	if req.Gate == nil {
		return nil, errors.New("render: a request without a gate")
	}
	select {
	case r.slot <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-r.slot }()
	res, err := r.render(ctx, req)
	if err != nil {
		r.failed.Add(1)
	} else {
		r.rendered.Add(1)
	}
	return res, err
}

func (r *Renderer) render(parent context.Context, req Request) (*Result, error) {
	b, err := r.browserFor(parent)
	if err != nil {
		return nil, err
	}
	// Opening a tab is the browser's cost, not the page's: it has a bound of its own.
	tctx, tcancel := context.WithTimeout(parent, tabTimeout)
	t, err := r.takeTab(tctx, b)
	tcancel()
	if err != nil {
		if parent.Err() != nil {
			return nil, parent.Err()
		}
		r.mu.Lock()
		if r.b == b {
			r.b, r.idle = nil, nil // a browser that cannot open a tab is started again
			r.restarts.Add(1)
		}
		r.mu.Unlock()
		go b.stop()
		return nil, &Error{Cause: CauseBrowserDied, Detail: "the browser could not open a tab", Err: err}
	}
	start := time.Now()
	bctx, cancel := context.WithDeadline(parent, start.Add(r.opts.Budget))
	defer cancel()
	pctx, pcancel := context.WithCancelCause(bctx)
	defer pcancel(nil)
	u, _ := url.Parse(req.URL)
	p := &pageRun{ctx: pctx, cancel: pcancel, req: req, tab: t, start: start, pending: map[string]func(int, bool){},
		refused: map[string]int{}, netAt: start, byNet: map[network.RequestID]string{}}
	if u != nil {
		p.docURL = pageOf(u)
	}
	t.page.Store(p)
	r.track(p, true)
	res, err := r.run(p)
	r.track(p, false)
	p.end()
	t.page.Store(nil)
	if err == nil {
		err = p.failure
	}
	switch {
	case err == nil && p.suspect:
		r.dropTab(t, b)
		res.Elapsed = time.Since(start)
		return res, nil
	case err == nil:
		r.putTab(t)
		res.Elapsed = time.Since(start)
		return res, nil
	case parent.Err() != nil:
		// Stopped from outside (a paused crawl): not the page's fault, and no verdict.
		r.dropTab(t, b)
		return nil, parent.Err()
	}
	err = r.classify(p, b, err)
	r.dropTab(t, b)
	return nil, err
}

// classify turns what stopped a page into a cause.
func (r *Renderer) classify(p *pageRun, b *browserProc, err error) error {
	var re *Error
	if p.failure != nil && errors.As(p.failure, &re) {
		return re
	}
	if errors.As(err, &re) {
		return re
	}
	if b.ctx.Err() != nil {
		return &Error{Cause: CauseBrowserDied, Detail: "the browser died while rendering the page", Err: err}
	}
	if errors.Is(err, context.DeadlineExceeded) || p.ctx.Err() != nil {
		return &Error{Cause: CauseTimeout, Detail: fmt.Sprintf("the page's scripts did not let it be read within its budget of %s", r.opts.Budget)}
	}
	return &Error{Cause: CauseError, Detail: "the browser could not render the page", Err: err}
}

// track keeps the pages being rendered, for the memory monitor.
func (r *Renderer) track(p *pageRun, on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if on {
		r.active[p] = true
	} else {
		delete(r.active, p)
	}
}

// takeTab returns an idle tab of b or opens one.
func (r *Renderer) takeTab(ctx context.Context, b *browserProc) (*tab, error) {
	r.mu.Lock()
	for len(r.idle) > 0 {
		t := r.idle[len(r.idle)-1]
		r.idle = r.idle[:len(r.idle)-1]
		if t.gen == b.gen && t.ctx.Err() == nil {
			r.mu.Unlock()
			return t, nil
		}
		go t.close()
	}
	r.mu.Unlock()
	return r.newTab(ctx, b)
}

// putTab keeps a tab that behaved for the next page (whose navigation ends this one's).
func (r *Renderer) putTab(t *tab) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.b == nil || r.b.gen != t.gen {
		go t.close()
		return
	}
	r.idle = append(r.idle, t)
}

// dropTab closes a tab that misbehaved; a browser that cannot close it is stopped (the
// next page starts another).
func (r *Renderer) dropTab(t *tab, b *browserProc) {
	if t.close() {
		return
	}
	r.mu.Lock()
	if r.b == b {
		r.b, r.idle = nil, nil
		r.restarts.Add(1)
	}
	r.mu.Unlock()
	go b.stop()
}

// run renders p in its tab: navigate, settle, scroll to the end a few times, serialise,
// screenshot. A fifth of the budget (at least 2 s) is kept for serialising and the
// screenshot: a page that never settles is read as it is then.
func (r *Renderer) run(p *pageRun) (*Result, error) {
	ctx, t, o := p.ctx, p.tab, r.opts
	deadline, _ := ctx.Deadline()
	reserve := max(o.Budget/5, 2*time.Second)
	settleBy := deadline.Add(-reserve)
	trace(p, "navigate")
	t.world.Store(nil)
	nav, err := cdp.Call(ctx, t.target, page.Navigate, page.NavigateParams{URL: p.req.URL})
	if err != nil {
		return nil, err
	}
	if nav.ErrorText != "" {
		return nil, &Error{Cause: CauseNavigation, Detail: "the browser could not load the page: " + nav.ErrorText}
	}
	ev, err := r.world(ctx, p)
	if err != nil {
		return nil, err
	}
	trace(p, "world")
	res := &Result{}
	st, settled, why, err := r.settle(ctx, p, ev, p.start, settleBy)
	if err != nil {
		return nil, err
	}
	res.Settled, res.Note = settled, why
	trace(p, "settled")
	// Content that comes on scroll: to the end, while the page grows, a few times.
	if settled && st.Height > st.Viewport {
		for range o.Scrolls {
			if time.Now().After(settleBy) {
				break
			}
			var h int
			if err := ev.call(ctx, "__mundaneum.scroll()", &h); err != nil {
				return nil, err
			}
			next, ok, _, err := r.settle(ctx, p, ev, time.Now(), settleBy)
			if err != nil {
				return nil, err
			}
			grew := next.Height > st.Height
			st = next
			if !ok || !grew {
				break
			}
		}
		if err := ev.call(ctx, "__mundaneum.top()", nil); err != nil {
			return nil, err
		}
	}
	var ser struct {
		HTML   string   `json:"html"`
		Cut    string   `json:"cut"`
		Nodes  int      `json:"nodes"`
		Routes []string `json:"routes"`
		URL    string   `json:"url"`
	}
	trace(p, "scrolled")
	if err := ev.call(ctx, fmt.Sprintf("__mundaneum.serialize(%d, %d, 512)", o.MaxBody, o.MaxNodes), &ser); err != nil {
		return nil, err
	}
	res.HTML, res.URL, res.Routes, res.Nodes = []byte(ser.HTML), ser.URL, ser.Routes, ser.Nodes
	switch ser.Cut {
	case "bytes":
		res.Note = joinNote(res.Note, fmt.Sprintf("the DOM was cut at %d bytes", o.MaxBody))
	case "nodes":
		res.Note = joinNote(res.Note, fmt.Sprintf("the DOM was cut at %d nodes", o.MaxNodes))
	case "depth":
		res.Note = joinNote(res.Note, "the DOM was cut at a depth of 512")
	}
	trace(p, "serialized")
	// The DOM is read: a screenshot the budget has no room left for is done without.
	if res.Screenshot, err = r.screenshot(ctx, p, false); err == nil && o.FullPage {
		res.FullPage, err = r.screenshot(ctx, p, true)
	}
	if err != nil {
		if ctx.Err() == nil || p.failure != nil {
			return nil, err
		}
		res.Note = joinNote(res.Note, "no screenshot: the page's budget ran out")
		p.suspect = true
	}
	trace(p, "shot")
	p.mu.Lock()
	res.Requests, res.Navigations = p.requests, append([]string(nil), p.navigations...)
	for _, n := range p.refused {
		res.Refused += n
	}
	p.mu.Unlock()
	res.Bytes, res.Dialogs = p.bytes.Load(), int(p.dialogs.Load())
	return res, nil
}

// trace logs the time of a step of p when MUNDANEUM_RENDER_TRACE is set.
func trace(p *pageRun, step string) {
	if os.Getenv("MUNDANEUM_RENDER_TRACE") != "" {
		log.Printf("render %s: %s at %v", p.req.URL, step, time.Since(p.start).Round(time.Millisecond))
	}
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// world returns the isolated world of p's document: the one set up as it started (the
// browser says so a moment after the navigation), else one made now.
func (r *Renderer) world(ctx context.Context, p *pageRun) (evaluator, error) {
	t := p.tab
	origin := ""
	if u, err := url.Parse(p.req.URL); err == nil {
		origin = u.Scheme + "://" + u.Host
	}
	wait := time.NewTimer(worldWait)
	defer wait.Stop()
	for {
		if w := t.world.Load(); w != nil && w.origin == origin {
			return evaluator{t: t, id: w.id}, nil
		}
		select {
		case <-ctx.Done():
			return evaluator{}, context.Cause(ctx)
		case <-wait.C:
			w, err := cdp.Call(ctx, t.target, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: cdp.FrameID(t.id), WorldName: worldName})
			if err != nil {
				return evaluator{}, err
			}
			ev := evaluator{t: t, id: w.ExecutionContextID}
			_, err = ev.eval(ctx, worldJS)
			return ev, err
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// worldWait is how long the isolated world made as the document started is waited for.
const worldWait = time.Second

// pageState is what the isolated world says of the page.
type pageState struct {
	Quiet     int    `json:"quiet"` // ms since the DOM last changed
	Mutations int    `json:"mutations"`
	Ready     string `json:"ready"`
	Height    int    `json:"height"`
	Viewport  int    `json:"viewport"`
	URL       string `json:"url"`
	Open      int    `json:"open"`     // requests the page's scripts started and have not had an answer to
	NetQuiet  int    `json:"netQuiet"` // ms since one of them started or ended
}

// settle waits until the page has loaded and neither the network nor the DOM has moved
// for Options.Quiet (and not before Quiet after since: what a scroll sets off starts on
// the next frame), or until by (settled false, and why).
func (r *Renderer) settle(ctx context.Context, p *pageRun, ev evaluator, since, by time.Time) (pageState, bool, string, error) {
	quiet := r.opts.Quiet
	tick := time.NewTicker(quiet / 2)
	defer tick.Stop()
	var st pageState
	// The quiet is counted from the load's end too: a request a script starts as the
	// page loads reaches the gate a moment after the load event, not before.
	var loaded time.Time
	for {
		if err := ev.call(ctx, "__mundaneum.state()", &st); err != nil {
			return st, false, "", err
		}
		now := time.Now()
		netQuiet, inflight := p.netQuiet(now)
		netQuiet = min(netQuiet, time.Duration(st.NetQuiet)*time.Millisecond)
		inflight = max(inflight, st.Open)
		domQuiet := time.Duration(st.Quiet) * time.Millisecond
		if st.Ready == "complete" && loaded.IsZero() {
			loaded = now
		}
		if !loaded.IsZero() && inflight == 0 && netQuiet >= quiet && domQuiet >= quiet && now.Sub(since) >= quiet && now.Sub(loaded) >= quiet {
			return st, true, "", nil
		}
		if now.After(by) {
			var why []string
			switch {
			case st.Ready != "complete":
				why = append(why, "it had not finished loading")
			case inflight > 0 || netQuiet < quiet:
				why = append(why, fmt.Sprintf("%d requests were still open", inflight))
			}
			if domQuiet < quiet {
				why = append(why, "its DOM was still changing")
			}
			return st, false, fmt.Sprintf("did not settle within %s: %s", by.Sub(p.start).Round(100*time.Millisecond), strings.Join(why, ", ")), nil
		}
		select {
		case <-ctx.Done():
			return st, false, "", context.Cause(ctx)
		case <-tick.C:
		}
	}
}

// screenshot takes the viewport (or the whole page, up to MaxFullHeight) as JPEG.
func (r *Renderer) screenshot(ctx context.Context, p *pageRun, full bool) (*Image, error) {
	// JPEG at 80, encoded for speed: a screenshot costs about a third of a page's CPU in
	// WebP, a fifth in JPEG (measured on the benchmark's pages), for some more bytes.
	q, fast := int64(80), true
	params := page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatJpeg, Quality: &q, OptimizeForSpeed: &fast}
	w, h := r.opts.Width, r.opts.Height
	if full {
		m, err := cdp.Call(ctx, p.tab.target, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return nil, err
		}
		if m.CSSContentSize != nil {
			w = max(int(m.CSSContentSize.Width), 1)
			h = min(max(int(m.CSSContentSize.Height), 1), MaxFullHeight)
		}
		beyond := true
		params.CaptureBeyondViewport = &beyond
		params.Clip = &page.Viewport{X: 0, Y: 0, Width: float64(w), Height: float64(h), Scale: 1}
	}
	shot, err := cdp.Call(ctx, p.tab.target, page.CaptureScreenshot, params)
	if err != nil {
		return nil, err
	}
	return &Image{Format: "jpeg", Data: shot.Data, Width: w, Height: h}, nil
}

// evaluator runs expressions in the isolated world of a tab.
type evaluator struct {
	t  *tab
	id runtime.ExecutionContextID
}

func (e evaluator) eval(ctx context.Context, expr string) (*runtime.EvaluateResult, error) {
	yes := true
	res, err := cdp.Call(ctx, e.t.target, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ContextID: e.id,
		ReturnByValue: &yes, Silent: &yes})
	if err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, &Error{Cause: CauseError, Detail: "reading the page failed: " + res.ExceptionDetails.Text}
	}
	return &res, nil
}

// call evaluates expr and decodes its value into v (nil: ignored).
func (e evaluator) call(ctx context.Context, expr string, v any) error {
	res, err := e.eval(ctx, expr)
	if err != nil || v == nil || res.Result == nil {
		return err
	}
	if err := json.Unmarshal([]byte(res.Result.Value), v); err != nil {
		return fmt.Errorf("reading the page: %w", err)
	}
	return nil
}
