package check

import (
	"context"
	"errors"
	"net/http"
	"time"

	"mundaneum/backend/check/report"
	"mundaneum/backend/extract"
	"mundaneum/backend/fetch"
	"mundaneum/backend/politeness"
	"mundaneum/backend/urlnorm"
)

// progressEvery is how often a running check reports progress.
const progressEvery = 250 * time.Millisecond

// schedule hands jobs to the workers as politeness allows and handles their outcomes until
// nothing is left to test or ctx ends.
func (r *run) schedule(ctx context.Context, progress func(Progress)) {
	agents := r.cfg.Agents
	work := make(chan *job, agents)
	results := make(chan *outcome, agents)
	wctx, stopWorkers := context.WithCancel(ctx)
	defer stopWorkers()
	for range agents {
		go func() {
			for j := range work {
				results <- r.w.do(wctx, j)
			}
		}()
	}
	defer close(work)

	tick := time.NewTicker(progressEvery)
	defer tick.Stop()
	wake := time.NewTimer(time.Hour)
	defer wake.Stop()
	inflight := 0
	stopping := false
	for {
		if !stopping {
			now := time.Now()
			for inflight < agents {
				j, at := r.q.pop(r.limiter, now)
				if j == nil {
					if !at.IsZero() {
						wake.Reset(max(time.Until(at), time.Millisecond))
					}
					break
				}
				if r.skipOffline(j) {
					r.limiter.Release(j.origin, now, politeness.Feedback{})
					continue
				}
				inflight++
				j.t.queued = nil // the worker reads the job from now on
				work <- j
			}
		}
		if inflight == 0 && (stopping || r.q.Len() == 0) {
			return
		}
		select {
		case o := <-results:
			inflight--
			r.handle(ctx, o)
		case b := <-r.saver.done:
			r.saver.sent--
			r.saved(b)
		case err := <-r.net.probed:
			r.probedAs(err)
		case <-wake.C:
		case <-tick.C:
			progress(r.snapshot())
		case <-ctx.Done():
			stopping = true
		}
	}
}

// handle takes a worker's outcome: a retry, the next redirect hop, or the target's result.
func (r *run) handle(ctx context.Context, o *outcome) {
	j := o.j
	now := time.Now()
	r.limiter.Release(j.origin, now, feedback(o))
	if o.crawlDelay > 0 {
		r.limiter.SetCrawlDelay(j.origin, o.crawlDelay)
	}
	if o.robots == "" {
		r.requests++
	}
	if ctx.Err() != nil {
		return // stopped: the target stays untested, and unsaved
	}
	if o.status > 0 {
		r.answered(j.origin)
	}
	if r.retry(j, o, now) {
		return
	}
	obs := observation{url: j.url, err: o.err, status: o.status, header: o.header, chain: j.chain, tries: j.tries + 1}
	if o.robots == robotsUnreachable {
		obs.tries = j.tries // no request of its own was made
	}
	switch o.robots {
	case robotsDisallowed:
		obs.robots = robotsDisallowed
	case robotsServerError:
		obs.robots = robotsServerError
	}
	if obs.robots == "" && o.err == nil && o.status >= 300 && o.status < 400 && o.status != http.StatusNotModified {
		if next := r.redirect(j, o, &obs); next != nil {
			r.enqueue(next)
			return
		}
	}
	kept := r.hold(j, o, &obs)
	v := classify(obs)
	if !kept {
		r.finish(j.t, o, v)
	}
	if r.learn(j, o, v) {
		r.giveUp(j.origin)
	}
	if kept {
		r.maybeProbe(ctx)
	}
}

// retry puts a job back in its queue after a timeout, a dropped connection, a 429/503 or a
// server error, up to cfg.Retries times; politeness already pushed the host back after
// 429/503 (and by Retry-After).
func (r *run) retry(j *job, o *outcome, now time.Time) bool {
	if j.tries >= r.cfg.Retries || o.robots != "" {
		return false
	}
	wait := time.Second << j.tries
	switch {
	case o.err != nil:
		switch fetch.Classify(o.err) {
		case fetch.CodeTimeout, fetch.CodeReset, fetch.CodeNetwork:
		default:
			return false
		}
	case o.status == http.StatusTooManyRequests || o.status == http.StatusServiceUnavailable:
		if o.retryAfter > r.cfg.MaxRetryAfter {
			return false // the server asks for longer than a run waits: rate-limited now
		}
		wait = max(wait, o.retryAfter)
	case o.status >= 500:
	default:
		return false
	}
	j.tries++
	j.notBefore = now.Add(wait)
	r.enqueue(j)
	return true
}

// redirect returns the job for the next hop of a redirect, or nil when the chain ends
// here (obs then says why: no Location, a bad target, a loop, too many hops).
func (r *run) redirect(j *job, o *outcome, obs *observation) *job {
	if o.location == "" {
		obs.noLoc = true
		return nil
	}
	nu, err := urlnorm.Resolve(j.u, o.location)
	chain := append(append([]Hop(nil), j.chain...), Hop{Status: o.status, URL: j.url})
	obs.chain = chain
	if err != nil {
		obs.url, obs.badURL = o.location, err
		return nil
	}
	next := nu.String()
	obs.url = next
	if next == j.t.url {
		obs.loop = true
		return nil
	}
	for _, h := range chain {
		if h.URL == next {
			obs.loop = true
			return nil
		}
	}
	if len(chain) >= maxHops {
		obs.tooMany = true
		return nil
	}
	return &job{t: j.t, url: next, u: nu, origin: urlnorm.Origin(nu), mode: j.mode, chain: chain, referer: j.referer}
}

// feedback tells politeness how a request went.
func feedback(o *outcome) politeness.Feedback {
	fb := politeness.Feedback{Status: o.status, RetryAfter: o.retryAfter}
	if o.err != nil && !errors.Is(o.err, context.Canceled) {
		code := fetch.Classify(o.err)
		fb.Err = code != fetch.CodeTooLarge && code != fetch.CodeBomb
	}
	return fb
}

// finish records a target's result, saves it and tells the tasks waiting for it.
func (r *run) finish(t *target, o *outcome, v Verdict) {
	res := &result{v: v, method: o.method, contentType: o.mediaType, size: o.size, ms: o.ms, at: time.Now().UnixMilli()}
	if res.size < 0 && o.status == 0 {
		res.size = -1
	}
	if h := o.header; h != nil {
		res.lastModified = h.Get("Last-Modified")
		res.etag = h.Get("ETag")
		res.owner = h.Get("Owner")
		if e := h.Get("Expires"); e != "" && !cacheExpiry(h) {
			res.expires = e
		}
	}
	res.html = htmlType(o.mediaType)
	if d := o.doc; d != nil && (v.Kind == OK || v.Kind == Redirected) {
		res.anchors = d.anchors
	}
	if d := o.doc; d != nil && (v.Kind == OK || v.Kind == Redirected) && o.j.mode == modeDoc { // read as a document: its links are known
		res.isDoc = true
		res.title, res.hash = d.title, d.hash
		if d.owner != "" {
			res.owner = d.owner
		}
		if d.expires != "" {
			res.expires = d.expires
		}
		t.refs = r.refsOf(t, d)
	}
	r.done(t, res)
}

// done stores a result on its target and tells its waiters.
func (r *run) done(t *target, res *result) {
	if t.res != nil { // a page probed first, then fetched for a task that traverses it
		r.byKind[t.res.v.Kind]--
	} else {
		r.tested++
	}
	t.res = res
	t.state = stDone
	r.byKind[res.v.Kind]++
	if res.isDoc {
		r.documents++
	}
	r.saver.add(t)
	for _, b := range r.saver.takePending() {
		r.saved(b)
	}
	ws := r.waiting[t.idx]
	delete(r.waiting, t.idx)
	for _, w := range ws {
		w.task.delivered(r, t, w)
	}
	if t.state == stDone && len(r.pending[t.idx]) > 0 {
		r.resolvePending(t)
	}
}

// refsOf turns a document's links into references to the run's targets; the fragments its
// links are written with wait for their pages (pend).
func (r *run) refsOf(doc *target, d *docInfo) []ref {
	doc.refs = make([]ref, 0, len(d.links))
	for _, l := range d.links {
		doc.refs = append(doc.refs, ref{t: r.targetOf(l.url, l.bad).idx, kind: l.kind})
	}
	// Then the parts: one that is missing adds a reference to doc.refs.
	for i, l := range d.links {
		t := r.targets[doc.refs[i].t]
		for _, f := range l.frags {
			if t.state != stDone || t.res.anchors == nil || !partFound(t, t.res, f) {
				r.pend(t, pendingFrag{doc: doc.idx, kind: l.kind, frag: f})
			}
		}
	}
	for _, f := range d.selfMissing {
		r.pend(doc, pendingFrag{doc: doc.idx, kind: report.KindCode(extract.KindA), frag: f})
	}
	return doc.refs
}

// targetOf returns the run's target for a canonical URL, creating it.
func (r *run) targetOf(u string, bad error) *target {
	if t, ok := r.byURL[u]; ok {
		return t
	}
	t := &target{idx: int32(len(r.targets)), url: u, bad: bad}
	if bad == nil {
		pu, err := canonical(u)
		if err != nil {
			t.bad = err
		} else {
			t.u, t.origin = pu, urlnorm.Origin(pu)
		}
	}
	r.targets = append(r.targets, t)
	r.byURL[u] = t
	return t
}

// request asks for a target's test in mode, and for w to be told of its result (w.task nil:
// nobody waits). A probe result does not satisfy a document request for an HTML page
// that answered: the page is then fetched.
func (r *run) request(t *target, mode mode, w waiter, referer string) {
	if t.base != nil {
		// A part of a page, asked for on its own: the page is read for its ids.
		r.request(t.base, max(mode, modeAnchors), waiter{}, referer)
		r.pend(t.base, pendingFrag{doc: -1, frag: t.frag})
		return
	}
	if mode == modeProbe && len(r.pending[t.idx]) > 0 {
		mode = modeAnchors // fragments wait for it: read it, for its ids
	}
	switch t.state {
	case stDone:
		if t.reread(mode) {
			break // read it after all
		}
		if w.task != nil {
			w.task.delivered(r, t, w)
		}
		return
	case stQueued:
		t.upgrade(mode)
		if w.task != nil {
			r.waiting[t.idx] = append(r.waiting[t.idx], w)
		}
		return
	}
	if w.task != nil {
		r.waiting[t.idx] = append(r.waiting[t.idx], w)
	}
	if t.bad != nil {
		r.done(t, &result{v: classify(observation{url: t.url, badURL: t.bad}), size: -1, at: time.Now().UnixMilli()})
		return
	}
	t.state, t.mode = stQueued, mode
	r.enqueue(&job{t: t, url: t.url, u: t.u, origin: t.origin, mode: mode, referer: referer})
}
