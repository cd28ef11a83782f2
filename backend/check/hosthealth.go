package check

import (
	"time"

	"mundaneum/backend/fetch"
)

// A run gives up on a host, and finishes its queued links without asking, after this many
// final timeouts in a row (with no answer at all) or links given up as rate-limited.
const (
	hostTimeouts = 3
	hostLimited  = 3
)

// hostHealth is what a run learnt of a host: whether it answers at all, and whether it
// keeps asking us to slow down. Without it a site that is gone would cost one failed
// request (or one politeness backoff) for each of its links, and a busy one hours of
// backoff.
type hostHealth struct {
	down     error // DNS, refused, TLS, or no answer to several requests: not asked again
	limited  bool  // kept answering 429: not asked again
	timeouts int
	limits   int
	answered bool
}

// learn updates the health of j's host from a final outcome and reports whether the run
// now gives the host up.
func (r *run) learn(j *job, o *outcome, v Verdict) bool {
	h := r.hosts[j.origin]
	if h == nil {
		h = &hostHealth{}
		r.hosts[j.origin] = h
	}
	if o.status > 0 {
		h.answered, h.timeouts = true, 0
	}
	switch {
	case o.err != nil:
		switch fetch.Classify(o.err) {
		case fetch.CodeDNS, fetch.CodeRefused, fetch.CodeTLS:
			h.down = o.err
		case fetch.CodeTimeout:
			if h.timeouts++; !h.answered && h.timeouts >= hostTimeouts {
				h.down = o.err
			}
		}
	case v.Kind == RateLimited:
		if h.limits++; h.limits >= hostLimited {
			h.limited = true
		}
	}
	return h.down != nil || h.limited
}

// enqueue queues a job, or finishes it at once when its host was given up.
func (r *run) enqueue(j *job) {
	if h := r.hosts[j.origin]; h != nil && (h.down != nil || h.limited) {
		r.skip(j, h)
		return
	}
	j.t.queued = j
	r.q.push(j)
}

// giveUp finishes every job queued for a host that was given up.
func (r *run) giveUp(origin string) {
	h := r.hosts[origin]
	for _, j := range r.q.drain(origin) {
		r.skip(j, h)
	}
}

// skip finishes a job of a host given up, without a request.
func (r *run) skip(j *job, h *hostHealth) {
	var v Verdict
	if h.down != nil {
		obs := observation{url: j.url, err: h.down, chain: j.chain, tries: j.tries}
		if r.hold(j, &outcome{j: j, err: h.down, size: -1}, &obs) {
			return // decided with the run's connection (offline.go)
		}
		v = classify(obs)
		if v.Kind != Offline {
			v.Reason += "; the host failed earlier in this run, so it was not asked again"
		}
	} else {
		v = classify(observation{url: j.url, status: 429, chain: j.chain, tries: j.tries})
		v.Reason = "not requested: the host kept answering 429 (too many requests) in this run"
	}
	r.done(j.t, &result{v: v, size: -1, at: time.Now().UnixMilli()})
}
