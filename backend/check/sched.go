package check

import (
	"context"
	"errors"
	"net/http"
	"time"

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
				e, ok, at := r.q.Pop(r.limiter, now)
				if !ok {
					if !at.IsZero() {
						wake.Reset(max(time.Until(at), time.Millisecond))
					}
					break
				}
				j := e.Value
				if r.skipOffline(j) {
					r.limiter.Release(j.origin, now, politeness.Feedback{})
					r.q.Wake(j.origin)
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
		case b := <-r.verdicts.saver.done:
			r.verdicts.back(b)
		case err := <-r.net.probed:
			r.finishHeld(r.net.probedAs(err))
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
	r.q.Wake(j.origin) // a host refused while its slots were taken is asked again at once
	if o.crawlDelay > 0 {
		r.limiter.SetCrawlDelay(j.origin, o.crawlDelay)
	}
	if o.robots == "" {
		r.verdicts.requests++
	}
	if ctx.Err() != nil {
		return // stopped: the target stays untested, and unsaved
	}
	if o.status > 0 {
		r.finishHeld(r.net.answered(j.origin))
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
	kept := r.net.hold(j, o, &obs)
	v := classify(obs)
	if !kept {
		r.finish(j.t, o, v)
	}
	if r.hosts.learn(j, o, v) {
		r.giveUp(j.origin)
	}
	if kept {
		r.net.maybeProbe(ctx)
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
