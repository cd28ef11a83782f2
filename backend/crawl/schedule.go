package crawl

import (
	"context"
	"fmt"
	"sync"
	"time"

	"mundaneum/backend/frontier"
	"mundaneum/backend/store"
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

	est := &estimate{maxPages: c.cfg.MaxPages, maxTime: c.cfg.MaxTime}
	snapshot := func() Progress {
		now := time.Now()
		p := Progress{CrawlID: c.rec.ID, State: store.CrawlRunning, Fetched: c.counts[cFetched].Load(),
			Failed: c.counts[cFailed].Load(), Skipped: c.counts[cSkipped].Load(), NotDue: c.counts[cNotDue].Load(),
			Queued: queued, Bytes: c.counts[cBytes].Load(), Elapsed: now.Sub(start), Note: joinNotes(note, c.hosts.note())}
		if cur := c.current.Load(); cur != nil && inflight > 0 {
			p.Current = *cur
		}
		// The rate counts only this process's visits: a resumed run's earlier pages are not
		// work done in the last seconds.
		p.ByThisProcess = p.Visited() - (c.base[cFetched] + c.base[cFailed] + c.base[cSkipped] + c.base[cNotDue])
		p.PagesPerSec, p.BytesPerSec = rate.update(now, p.ByThisProcess, p.Bytes-c.base[cBytes])
		p.Done, p.ETA = est.update(int64(visited), p.Elapsed, p.PagesPerSec)
		if pages, err := c.st.CrawlCounts(ctx, c.rec.ID); err == nil {
			p.Pages = pages
		}
		if c.idx != nil {
			p.Index = c.idx.Progress(ctx)
		}
		return p
	}

	// When each page in flight was handed to an agent: pages of one host sent together are
	// one try of it (hostWatch.learn).
	sentAt := map[int64]time.Time{}
	stopping := false
	for {
		if !stopping {
			switch {
			case ctx.Err() != nil:
				stopping = true
			case c.cfg.MaxTime > 0 && time.Since(start) >= c.cfg.MaxTime:
				stopping, note = true, fmt.Sprintf("time limit reached (%s)", c.cfg.MaxTime)
			case c.cfg.MaxBytes > 0 && c.counts[cBytes].Load()-c.base[cBytes] >= c.cfg.MaxBytes:
				stopping, note = true, fmt.Sprintf("byte limit reached (%d)", c.cfg.MaxBytes)
			}
		}
		// The page limit is not latched like the others: a visit in flight that is deferred
		// or retried gives its place back (a host's slot is free before its visit ends).
		full := c.cfg.MaxPages > 0 && visited >= c.cfg.MaxPages
		var next time.Time
		if !stopping && !full && runErr == nil {
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
				sentAt[it.PageID] = time.Now()
				work <- it
			}
		}
		if inflight == 0 && (stopping || full || runErr != nil || (fr.Buffered() == 0 && fr.Drained())) {
			if full && !stopping {
				note = fmt.Sprintf("page limit reached (%d)", c.cfg.MaxPages)
			}
			break
		}
		if !next.IsZero() {
			wake.Reset(time.Until(next))
		}
		select {
		case o := <-results:
			inflight--
			o.sent = sentAt[o.item.PageID]
			delete(sentAt, o.item.PageID)
			if o.err != nil && runErr == nil && ctx.Err() == nil {
				runErr = o.err
			}
			if c.hosts.learn(o, time.Now()) {
				// Given up: its waiting pages are recorded as failed without a request,
				// whatever backoff politeness holds the host under.
				fr.Ungate(o.item.Origin)
				progress(snapshot()) // say so now
			}
			if o.retry || o.deferred {
				if c.hosts.downHost(o.item.Origin) != nil {
					o.item.Gated = false // a visit that was under way when its host was given up
				}
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
		case <-c.freed.ready: // a slot is free before its page is stored: dispatch again
			for _, h := range c.freed.take() {
				fr.Wake(h)
			}
		case <-tick.C:
			progress(snapshot())
		case <-ctx.Done():
			stopping = true
		}
	}
	c.limited = note != ""
	return snapshot(), runErr
}

// freedSlots is how agents tell the scheduler which hosts they gave a politeness slot back
// to, before their visits' outcomes arrive: a host refused a slot while all of its were
// taken sleeps in the frontier until then, and is woken to be asked again at once.
type freedSlots struct {
	mu    sync.Mutex
	hosts map[string]bool
	ready chan struct{} // a host was added since the last take
}

func newFreedSlots() *freedSlots {
	return &freedSlots{hosts: map[string]bool{}, ready: make(chan struct{}, 1)}
}

func (f *freedSlots) add(host string) {
	f.mu.Lock()
	f.hosts[host] = true
	f.mu.Unlock()
	select {
	case f.ready <- struct{}{}:
	default:
	}
}

func (f *freedSlots) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	hosts := make([]string, 0, len(f.hosts))
	for h := range f.hosts {
		hosts = append(hosts, h)
	}
	clear(f.hosts)
	return hosts
}

// estimate is how much of a run is done when a limit says what "all" is: the share of
// --max-pages visited or of --max-time spent, whichever is further, and the time left. A
// crawl's queue grows as it finds links, so without a limit there is no share to give.
type estimate struct {
	maxPages int
	maxTime  time.Duration
	done     float64 // the largest share given so far: it never moves back
}

func (e *estimate) update(visited int64, elapsed time.Duration, pagesPerSec float64) (float64, time.Duration) {
	if e.maxPages <= 0 && e.maxTime <= 0 {
		return -1, 0
	}
	var eta time.Duration
	share := 0.0
	if e.maxPages > 0 {
		share = float64(visited) / float64(e.maxPages)
		if pagesPerSec > 0 {
			eta = time.Duration(float64(int64(e.maxPages)-visited) / pagesPerSec * float64(time.Second))
		}
	}
	if e.maxTime > 0 {
		if s := float64(elapsed) / float64(e.maxTime); s > share {
			share = s
		}
		if left := e.maxTime - elapsed; eta == 0 || left < eta {
			eta = left
		}
	}
	e.done = max(e.done, min(share, 1))
	return e.done, max(eta, 0)
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
