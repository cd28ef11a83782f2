package render

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
)

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
	budget    time.Duration // what the page may cost from start

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
