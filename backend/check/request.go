package check

import (
	"time"

	"mundaneum/backend/check/report"
	"mundaneum/backend/extract"
	"mundaneum/backend/hostq"
)

// A run's targets are asked for (request) by the tasks, by the links given on their own and
// by the fragments that wait for their pages; a request queues a job for the scheduler
// (enqueue), unless the host was given up or the machine is offline; a result comes back
// to done, which saves it and tells the tasks and fragments waiting for it, which may ask
// for more. The scheduler (sched.go) sits above: it sends the jobs and hands their
// outcomes to finish.

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
	old := t.res
	t.res = res
	t.state = stDone
	r.verdicts.result(t, old)
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
		doc.refs = append(doc.refs, ref{t: r.tab.of(l.url, l.bad).idx, kind: l.kind})
	}
	// Then the parts: one that is missing adds a reference to doc.refs.
	for i, l := range d.links {
		t := r.tab.list[doc.refs[i].t]
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

// pend asks for a fragment of page b: looked for at once when b is read, else when its
// test ends (a page only to be probed is read instead, with GET, for its ids).
func (r *run) pend(b *target, p pendingFrag) {
	if r.pending == nil {
		r.pending = map[int32][]pendingFrag{}
	}
	r.pending[b.idx] = append(r.pending[b.idx], p)
	switch b.state {
	case stDone:
		r.resolvePending(b)
	case stQueued:
		b.upgrade(modeAnchors) // not asked yet: read it instead
	}
}

// resolvePending looks for the fragments waiting for page b, now tested: a part that is
// missing gets a target of its own with its verdict, which the documents that wrote it
// reference besides the page.
func (r *run) resolvePending(b *target) {
	res := b.res
	if b.reread(modeAnchors) {
		r.request(b, modeAnchors, waiter{}, "") // probed for another reason first: read it once
		if b.state != stDone {
			return
		}
	}
	ps := r.pending[b.idx]
	delete(r.pending, b.idx)
	for _, p := range ps {
		if partFound(b, res, p.frag) {
			if f := r.tab.byURL[b.url+"#"+p.frag]; p.doc < 0 && f != nil && f.res == nil {
				f.res, f.state = res, stDone // asked for on its own: the page's verdict
			}
			continue
		}
		f := r.tab.frag(b, p.frag)
		if f.res == nil {
			r.fragmentMissing(f, res)
		}
		if p.doc >= 0 {
			d := r.tab.list[p.doc]
			d.refs = append(d.refs, ref{t: f.idx, kind: p.kind})
		}
	}
}

// fragmentMissing records that a page lacks a fragment's place.
func (r *run) fragmentMissing(f *target, page *result) {
	obs := observation{url: f.url, status: page.v.Status, chain: page.v.Chain, noAnchor: true, fragment: f.frag}
	if page.v.FinalURL != "" {
		obs.url = page.v.FinalURL
	}
	f.res = &result{v: classify(obs), method: page.method, contentType: page.contentType, size: page.size, ms: page.ms,
		title: page.title, html: true, at: time.Now().UnixMilli()}
	f.state = stDone
	r.verdicts.part(f)
}

// enqueue queues a job, or finishes it at once when its host was given up.
func (r *run) enqueue(j *job) {
	if h := r.hosts.givenUp(j.origin); h != nil {
		r.skip(j, h)
		return
	}
	j.t.queued = j
	r.q.Push(j.origin, hostq.Entry[*job]{Value: j, NotBefore: j.notBefore, Gated: true})
}

// giveUp finishes every job queued for a host that was given up.
func (r *run) giveUp(origin string) {
	h := r.hosts[origin]
	for _, j := range r.q.Drain(origin) {
		r.skip(j, h)
	}
}

// skip finishes a job of a host given up, without a request.
func (r *run) skip(j *job, h *hostHealth) {
	obs := h.skipped(j)
	if h.down != nil && r.net.hold(j, &outcome{j: j, err: h.down, size: -1}, &obs) {
		return // decided with the run's connection (offline.go)
	}
	r.done(j.t, &result{v: h.verdict(obs), size: -1, at: time.Now().UnixMilli()})
}

// finishHeld finishes the tests the run's connection held back, as the watch decided.
func (r *run) finishHeld(hs []held) {
	for _, h := range hs {
		r.finish(h.j.t, h.o, classify(h.obs))
	}
}

// skipOffline finishes a queued job of a host outside without a request while the machine
// is offline; it reports whether it did.
func (r *run) skipOffline(j *job) bool {
	v, ok := r.net.offlineVerdict(j)
	if ok {
		r.done(j.t, &result{v: v, size: -1, at: time.Now().UnixMilli()})
	}
	return ok
}
