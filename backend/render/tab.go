package render

import (
	"context"
	"encoding/json"
	"errors"
	"log"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/inspector"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// tab is one of the browser's tabs, kept from page to page while it behaves. Its event
// loops serve whatever page it is rendering (page: nil between pages).
type tab struct {
	ctx    context.Context // the tab's chromedp context
	cancel context.CancelFunc
	gen    int          // the browser it belongs to
	b      *browserProc // that browser
	id     target.ID
	target *chromedp.Target
	page   atomicPage
	world  atomic.Pointer[worldInfo] // the isolated world of the tab's document, as it was made
	// crashed: its renderer died (killed for memory, say); the tab is not used again.
	crashed atomic.Bool
}

// usable says whether the tab may take another page.
func (t *tab) usable() bool { return t.ctx.Err() == nil && !t.crashed.Load() }

// worldInfo is an isolated world the browser made for a document of the tab.
type worldInfo struct {
	id     runtime.ExecutionContextID
	origin string
}

// setupBrowser sets what holds for every tab: no downloads.
func setupBrowser(ctx context.Context) error {
	_, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorDeny})
	return err
}

// newTab opens a tab in b and sets it up: its requests paused (to be gated) at both
// ends, service workers bypassed, the crawl's User-Agent and From, the guard script in
// every frame, and the loops that answer its requests, dialogs and crashes.
func (r *Renderer) newTab(ctx context.Context, b *browserProc) (*tab, error) {
	tctx, cancel := chromedp.NewContext(b.ctx)
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(tctx) }()
	var err error
	select {
	case err = <-started:
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		go cancel()
		return nil, err
	}
	c := chromedp.FromContext(tctx)
	t := &tab{ctx: tctx, cancel: cancel, gen: b.gen, b: b, target: c.Target, id: c.Target.TargetID}
	// Subscribed before the domains that send them are enabled: nothing is missed.
	paused := chromedp.Events(tctx, fetch.RequestPaused)
	dialogs := chromedp.Events(tctx, page.JavascriptDialogOpening)
	crashes := chromedp.Events(tctx, inspector.TargetCrashed)
	loaded := chromedp.Events(tctx, network.LoadingFinished)
	lost := chromedp.Events(tctx, network.LoadingFailed)
	worlds := chromedp.Events(tctx, runtime.ExecutionContextCreated)
	go t.pausedLoop(paused)
	go t.dialogLoop(dialogs)
	go t.crashLoop(crashes)
	go t.bytesLoop(loaded)
	go t.lostLoop(lost)
	go t.worldLoop(worlds)
	scfg := func() error {
		// chromedp enables what its own actions need; the DOM and CSS domains would
		// mirror every document in Go, and the Log domain a console storm.
		for _, off := range []func() error{
			func() error { _, err := cdp.Call(ctx, t.target, dom.Disable, cdp.Empty{}); return err },
			func() error { _, err := cdp.Call(ctx, t.target, css.Disable, cdp.Empty{}); return err },
			func() error { _, err := cdp.Call(ctx, t.target, cdplog.Disable, cdp.Empty{}); return err },
		} {
			if err := off(); err != nil {
				return err
			}
		}
		// Network events say which requests ended without a response (and the bytes they
		// brought): the browser keeps no copy of the bodies for DevTools. Lifecycle events
		// (chromedp's own use) are not needed.
		one, none := int64(1), int64(0)
		if _, err := cdp.Call(ctx, t.target, network.Enable, network.EnableParams{MaxTotalBufferSize: &one,
			MaxResourceBufferSize: &one, MaxPostDataSize: &none}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, t.target, page.SetLifecycleEventsEnabled, page.SetLifecycleEventsEnabledParams{Enabled: false}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, t.target, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{
			{URLPattern: "*", RequestStage: fetch.RequestStageRequest},
			{URLPattern: "*", RequestStage: fetch.RequestStageResponse},
		}}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, t.target, network.SetBypassServiceWorker, network.SetBypassServiceWorkerParams{Bypass: true}); err != nil {
			return err
		}
		// The viewport itself (a headless window's size is the window's, less its frame).
		if _, err := cdp.Call(ctx, t.target, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: int64(r.opts.Width), Height: int64(r.opts.Height), DeviceScaleFactor: 1}); err != nil {
			return err
		}
		if r.opts.UserAgent != "" {
			if _, err := cdp.Call(ctx, t.target, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: r.opts.UserAgent}); err != nil {
				return err
			}
		}
		if r.opts.From != "" {
			if _, err := cdp.Call(ctx, t.target, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{
				Headers: network.Headers{"From": r.opts.From}}); err != nil {
				return err
			}
		}
		if _, err := cdp.Call(ctx, t.target, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: worldJS, WorldName: worldName}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, t.target, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: guardJS})
		return err
	}
	if err := scfg(); err != nil {
		t.close()
		return nil, err
	}
	return t, nil
}

// closeTimeout bounds closing a tab: a page costs at most its budget and this (the
// browser is stopped in the background when the tab does not close).
const closeTimeout = 1500 * time.Millisecond

// close closes the tab (its renderer goes with it), waiting at most a few seconds: a
// browser that does not close a tab then is stopped by the caller.
func (t *tab) close() bool {
	done := make(chan struct{})
	go func() {
		t.cancel()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(closeTimeout):
		return false
	}
}

// pausedLoop answers each paused request of the tab, each in a goroutine of its own: a
// request may wait for its host's turn.
func (t *tab) pausedLoop(events func(func(fetch.EventRequestPaused, error) bool)) {
	for ev, err := range events {
		if err != nil {
			return
		}
		go t.onPaused(ev)
	}
}

func (t *tab) dialogLoop(events func(func(page.EventJavascriptDialogOpening, error) bool)) {
	for _, err := range events {
		if err != nil {
			return
		}
		if p := t.page.Load(); p != nil {
			p.dialogs.Add(1)
		}
		go func() {
			ctx, cancel := context.WithTimeout(t.ctx, 2*time.Second)
			defer cancel()
			_, _ = cdp.Call(ctx, t.target, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}()
	}
}

func (t *tab) crashLoop(events func(func(inspector.EventTargetCrashed, error) bool)) {
	for _, err := range events {
		if err != nil {
			return
		}
		t.crashed.Store(true)
		e := &Error{Cause: CauseCrashed, Detail: "the tab crashed (its renderer died, often of memory)"}
		if t.b.memoryKills.Add(-1) >= 0 { // a renderer the monitor killed for memory
			e.Cause, e.Detail = CauseMemory, "over the memory cap: the tab was closed"
			if d := t.b.memoryDetail.Load(); d != nil {
				e.Detail = *d
			}
		} else {
			t.b.memoryKills.Add(1)
		}
		if p := t.page.Load(); p != nil {
			p.fail(e)
		}
	}
}

func (t *tab) bytesLoop(events func(func(network.EventLoadingFinished, error) bool)) {
	for ev, err := range events {
		if err != nil {
			return
		}
		if p := t.page.Load(); p != nil && ev.RequestID != p.docNetID.Load() {
			p.bytes.Add(int64(ev.EncodedDataLength))
		}
	}
}

// worldLoop keeps the isolated world of the tab's main frame made as its document started.
func (t *tab) worldLoop(events func(func(runtime.EventExecutionContextCreated, error) bool)) {
	for ev, err := range events {
		if err != nil {
			return
		}
		c := ev.Context
		if c == nil || c.Name != worldName {
			continue
		}
		var aux struct {
			FrameID string `json:"frameId"`
		}
		if json.Unmarshal([]byte(c.AuxData), &aux) != nil || aux.FrameID != string(t.id) {
			continue
		}
		t.world.Store(&worldInfo{id: c.ID, origin: c.Origin})
	}
}

// lostLoop gives back the turn of a request the browser gave up before its response.
func (t *tab) lostLoop(events func(func(network.EventLoadingFailed, error) bool)) {
	for ev, err := range events {
		if err != nil {
			return
		}
		if p := t.page.Load(); p != nil {
			p.cancelled(ev.RequestID)
		}
	}
}

// onPaused decides a paused request: the page's document is answered with the body the
// crawl fetched (never fetched twice); another navigation of the page is refused and kept
// as a link; everything else goes through the gate (http and https only).
func (t *tab) onPaused(ev fetch.EventRequestPaused) {
	ctx, cancel := context.WithTimeout(t.ctx, 5*time.Second)
	defer cancel()
	fail := func(why network.ErrorReason) {
		_, _ = cdp.Call(ctx, t.target, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: why})
	}
	proceed := func() {
		_, _ = cdp.Call(ctx, t.target, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
	}
	p := t.page.Load()
	if ev.ResponseStatusCode != 0 || ev.ResponseErrorReason != "" {
		// The response stage: the request is over as far as its host's turn goes.
		if p != nil {
			p.finished(string(ev.RequestID), int(ev.ResponseStatusCode), ev.ResponseErrorReason != "")
		}
		if attachment(ev.ResponseHeaders) {
			if p != nil {
				p.refuse("download")
			}
			fail(network.ErrorReasonBlockedByClient)
			return
		}
		proceed()
		return
	}
	if p == nil || ev.Request == nil {
		fail(network.ErrorReasonAborted) // a request of a page already done with
		return
	}
	raw := ev.Request.URL + ev.Request.URLFragment
	if os.Getenv("MUNDANEUM_RENDER_TRACE") != "" {
		log.Printf("render: request %s %s %s", ev.ResourceType, ev.FrameID, raw)
	}
	if ev.ResourceType == network.ResourceTypeDocument && ev.FrameID == cdp.FrameID(t.id) {
		if !p.docServed.Swap(true) {
			p.docNetID.Store(network.RequestID(ev.NetworkID))
			_, err := cdp.Call(ctx, t.target, fetch.FulfillRequest, p.document(ev.RequestID))
			if err != nil {
				p.fail(&Error{Cause: CauseNavigation, Detail: "the page could not be given to the browser", Err: err})
			}
			return
		}
		// The page's scripts navigate it elsewhere (location = ...): the page is read as
		// it is, and where it went becomes a link. A 204 answer cancels a navigation and
		// leaves the document in place (a refused request would put an error page there).
		p.navigatedTo(raw)
		_, _ = cdp.Call(ctx, t.target, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: ev.RequestID, ResponseCode: http.StatusNoContent})
		return
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		p.refuse("not http(s)")
		fail(network.ErrorReasonBlockedByClient)
		return
	}
	if ev.ResourceType == network.ResourceTypeOther && u.Path == "/favicon.ico" {
		// The browser's own request for the tab's icon: not the page's, and worth
		// nothing to a crawl.
		fail(network.ErrorReasonBlockedByClient)
		return
	}
	done, err := p.req.Gate.Admit(p.ctx, u)
	if err != nil {
		var ref *Refused
		if errors.As(err, &ref) {
			p.refuse(ref.Reason)
		} else {
			p.refuse("not admitted")
		}
		fail(network.ErrorReasonBlockedByClient)
		return
	}
	if !p.started(string(ev.RequestID), network.RequestID(ev.NetworkID), done) {
		fail(network.ErrorReasonAborted)
		return
	}
	proceed()
}

// attachment reports whether response headers make it a download.
func attachment(h []*fetch.HeaderEntry) bool {
	for _, e := range h {
		if strings.EqualFold(e.Name, "Content-Disposition") && strings.HasPrefix(strings.ToLower(strings.TrimSpace(e.Value)), "attachment") {
			return true
		}
	}
	return false
}
