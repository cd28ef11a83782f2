package crawl

import (
	"context"
	"fmt"
	"time"

	"mundaneum/backend/frontier"
)

const progressEvery = 250 * time.Millisecond

// schedule hands leased pages to agents as politeness allows and collects their outcomes
// until the queue is empty, a limit is reached or ctx ends.
func (c *Crawler) schedule(ctx context.Context, queued int64, progress func(Progress)) (Progress, error) {
	agents := c.cfg.Agents
	work := make(chan frontier.Item, agents)
	results := make(chan visitOutcome, agents)
	actx, stopAgents := context.WithCancel(context.WithoutCancel(ctx))
	defer stopAgents()
	for range agents {
		go func() {
			for it := range work {
				results <- c.visit(actx, ctx, it)
			}
		}()
	}
	defer close(work)

	fr := frontier.New(c.st, c.rec.ID, 4*agents+256)
	start := time.Now()
	visited := 0
	inflight := 0
	note := ""
	var runErr error
	rate := newRate(start)
	tick := time.NewTicker(progressEvery)
	defer tick.Stop()
	wake := time.NewTimer(time.Hour)
	defer wake.Stop()

	snapshot := func() Progress {
		now := time.Now()
		p := Progress{CrawlID: c.rec.ID, State: "running", Fetched: c.fetched.Load(), Failed: c.failed.Load(),
			Skipped: c.skipped.Load(), Queued: queued, Bytes: c.bytes.Load(), Elapsed: now.Sub(start), Note: note}
		p.PagesPerSec, p.BytesPerSec = rate.update(now, p.Fetched+p.Failed+p.Skipped, p.Bytes)
		if c.idx != nil {
			p.Index = c.idx.Progress(ctx)
		}
		return p
	}

	stopping := false
	for {
		if !stopping {
			switch {
			case ctx.Err() != nil:
				stopping = true
			case c.cfg.MaxPages > 0 && visited >= c.cfg.MaxPages:
				stopping, note = true, fmt.Sprintf("page limit reached (%d)", c.cfg.MaxPages)
			case c.cfg.MaxTime > 0 && time.Since(start) >= c.cfg.MaxTime:
				stopping, note = true, fmt.Sprintf("time limit reached (%s)", c.cfg.MaxTime)
			case c.cfg.MaxBytes > 0 && c.bytes.Load() >= c.cfg.MaxBytes:
				stopping, note = true, fmt.Sprintf("byte limit reached (%d)", c.cfg.MaxBytes)
			}
		}
		var next time.Time
		if !stopping && runErr == nil {
			if err := fr.Fill(ctx, 2*agents+64, c.needsGate); err != nil && ctx.Err() == nil {
				runErr = err
			}
			for inflight < agents && (c.cfg.MaxPages <= 0 || visited < c.cfg.MaxPages) {
				it, ok, at := fr.Next(c.limiter, time.Now())
				if !ok {
					next = at
					break
				}
				inflight++
				visited++
				work <- it
			}
		}
		if inflight == 0 && (stopping || runErr != nil || (fr.Buffered() == 0 && fr.Drained())) {
			break
		}
		if !next.IsZero() {
			wake.Reset(time.Until(next))
		}
		select {
		case o := <-results:
			inflight--
			if o.err != nil && runErr == nil && ctx.Err() == nil {
				runErr = o.err
			}
			if o.retry {
				fr.Push(o.item)
				visited--
			} else if o.state != "" {
				queued--
			}
			if o.queued > 0 {
				queued += int64(o.queued)
				fr.Added(o.top)
			}
		case <-wake.C:
		case <-c.freed: // a slot is free before its page is stored: dispatch again
		case <-tick.C:
			progress(snapshot())
		case <-ctx.Done():
			stopping = true
		}
	}
	return snapshot(), runErr
}

// rate is a smoothed pages/s and bytes/s over the last few seconds.
type rate struct {
	at          time.Time
	pages, byts int64
	pps, bps    float64
}

func newRate(now time.Time) *rate { return &rate{at: now} }

func (r *rate) update(now time.Time, pages, byts int64) (float64, float64) {
	dt := now.Sub(r.at).Seconds()
	if dt < 0.2 {
		return r.pps, r.bps
	}
	pps, bps := float64(pages-r.pages)/dt, float64(byts-r.byts)/dt
	const a = 0.3
	if r.pages == 0 && r.pps == 0 {
		r.pps, r.bps = pps, bps
	} else {
		r.pps, r.bps = a*pps+(1-a)*r.pps, a*bps+(1-a)*r.bps
	}
	r.at, r.pages, r.byts = now, pages, byts
	return r.pps, r.bps
}
