package render

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
)

// run renders p in its tab: navigate, settle, scroll to the end a few times, serialise,
// screenshot. A fifth of the budget (at least 2 s) is kept for serialising and the
// screenshot: a page that never settles is read as it is then.
func (r *Renderer) run(p *pageRun) (*Result, error) {
	ctx, t, o := p.ctx, p.tab, r.opts
	deadline, _ := ctx.Deadline()
	reserve := max(p.budget/5, 2*time.Second)
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
		// How long it has been quiet in every respect: settled at quiet.
		calm := min(netQuiet, domQuiet, now.Sub(since))
		if !loaded.IsZero() {
			calm = min(calm, now.Sub(loaded))
		}
		if loaded.IsZero() || inflight > 0 {
			calm = 0
		}
		if calm >= quiet {
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
		// Asked again when the quiet would be long enough if nothing moves meanwhile
		// (and at least every half of it while something does).
		wait := min(max(quiet-calm, quiet/10), quiet/2)
		if calm > 0 {
			wait = max(quiet-calm, quiet/10)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return st, false, "", context.Cause(ctx)
		case <-t.C:
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
