package render

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/chromedp/cdproto/network"
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

// Render renders one page: it waits for a tab (not counted in the page's budget), then
// gives the page at most Options.Budget, everything included. A page that fails (its
// scripts never yield, its tab crashes, the browser goes over the memory cap or dies)
// returns an *Error with the cause; the tab is closed and the browser started again if
// it must be. A page whose browser died under it (often for a neighbour's sake) is tried
// once more in a new browser, within what is left of its budget.
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
	start := time.Now()
	res, err := r.render(ctx, req, r.opts.Budget)
	if left := r.opts.Budget - time.Since(start); CauseOf(err) == CauseBrowserDied && ctx.Err() == nil && left >= minRetry {
		res, err = r.render(ctx, req, left)
		if err == nil {
			res.Note = strings.TrimPrefix(res.Note+"; read in a new browser: the first died while rendering it", "; ")
			res.Elapsed = time.Since(start)
		} else if re := (*Error)(nil); errors.As(err, &re) && re.Cause == CauseBrowserDied {
			err = &Error{Cause: CauseBrowserDied, Detail: re.Detail + " (twice: in a new browser too)", Err: re.Err}
		}
	}
	if err != nil {
		r.failed.Add(1)
	} else {
		r.rendered.Add(1)
	}
	return res, err
}

// minRetry is the least budget left worth trying a page again in.
const minRetry = 2 * time.Second

func (r *Renderer) render(parent context.Context, req Request, budget time.Duration) (*Result, error) {
	b, err := r.browserFor(parent)
	if err != nil {
		return nil, err
	}
	defer r.release(b)
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
	bctx, cancel := context.WithDeadline(parent, start.Add(budget))
	defer cancel()
	pctx, pcancel := context.WithCancelCause(bctx)
	defer pcancel(nil)
	u, _ := url.Parse(req.URL)
	p := &pageRun{ctx: pctx, cancel: pcancel, req: req, tab: t, start: start, budget: budget, pending: map[string]func(int, bool){},
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
		return &Error{Cause: CauseTimeout, Detail: fmt.Sprintf("the page's scripts did not let it be read within its budget of %s", p.budget.Round(time.Millisecond))}
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
		if t.gen == b.gen && t.usable() {
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
	if r.closed || r.b == nil || r.b.gen != t.gen || !t.usable() {
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
