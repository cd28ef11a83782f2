package check

import (
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

// hostBook is what a run learnt of each host, by origin.
type hostBook map[string]*hostHealth

// learn updates the health of j's host from a final outcome and reports whether the run
// now gives the host up.
func (hb hostBook) learn(j *job, o *outcome, v Verdict) bool {
	h := hb[j.origin]
	if h == nil {
		h = &hostHealth{}
		hb[j.origin] = h
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

// givenUp is the health of origin's host when the run gave it up (nil when it did not).
func (hb hostBook) givenUp(origin string) *hostHealth {
	if h := hb[origin]; h != nil && (h.down != nil || h.limited) {
		return h
	}
	return nil
}

// skipped is what a job of a host given up finds without a request; a host that is down
// gives a failure the run's connection may yet hold back (netWatch.hold) before verdict.
func (h *hostHealth) skipped(j *job) observation {
	if h.down != nil {
		return observation{url: j.url, err: h.down, chain: j.chain, tries: j.tries}
	}
	return observation{url: j.url, status: 429, chain: j.chain, tries: j.tries}
}

// verdict classifies what skipped found, saying why no request was made.
func (h *hostHealth) verdict(obs observation) Verdict {
	v := classify(obs)
	if h.down == nil {
		v.Reason = "not requested: the host kept answering 429 (too many requests) in this run"
	} else if v.Kind != Offline {
		v.Reason += "; the host failed earlier in this run, so it was not asked again"
	}
	return v
}
