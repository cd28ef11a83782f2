// Package frontier is the crawl queue: pages leased from the persisted queue in SQLite
// (priority, then depth, then discovery order), held in memory per host and handed out host
// by host as politeness allows, higher priorities first. The per-host queue is the one the
// link checker uses too (backend/hostq); this package adds the leasing, the eviction of
// stale pages when better ones wait, and what the priorities mean: a Strategy
// (strategy.go), WebCrawler's server-first breadth-first order, or the webbot's rule tiers.
package frontier

import (
	"context"
	"time"

	"mundaneum/backend/hostq"
	"mundaneum/backend/store"
)

// Source leases queued pages of a crawl (store.Store satisfies it).
type Source interface {
	Lease(ctx context.Context, crawlID int64, n int) ([]store.Lease, error)
}

// Releaser returns leased pages to a crawl's persisted queue (store.Store satisfies it).
type Releaser interface {
	Release(ctx context.Context, crawlID int64, pageIDs []int64) error
}

// Gate decides whether a host may be sent a request now (politeness.Limiter satisfies it).
type Gate = hostq.Gate

// Item is one page to visit.
type Item struct {
	store.Lease
	Tries int  // failed attempts so far in this run (429/503 retries)
	Gated bool // needs a politeness slot; false for pages visited from the store only
}

// Frontier holds leased pages per host. It is used by one goroutine (the scheduler).
type Frontier struct {
	src     Source
	crawlID int64
	batch   int
	q       *hostq.Queue[Item]
	drained bool // the persisted queue had nothing more at the last lease
	urgent  bool // pages above the lowest buffered priority entered the queue
}

// New returns a frontier over a crawl's persisted queue; batch is how many pages one lease takes.
func New(src Source, crawlID int64, batch int) *Frontier {
	if batch <= 0 {
		batch = 512
	}
	return &Frontier{src: src, crawlID: crawlID, batch: batch, q: hostq.New[Item]()}
}

// Buffered is how many leased pages wait in memory.
func (f *Frontier) Buffered() int { return f.q.Len() }

// Drained reports that the persisted queue was empty at the last Fill and nothing was added since.
func (f *Frontier) Drained() bool { return f.drained }

// Added tells the frontier that new pages entered the persisted queue, the highest of them
// with priority top. When that is above the lowest priority waiting in memory, the next
// Fill leases at once (up to a bound), so that they go before what was leased earlier.
func (f *Frontier) Added(top int) {
	f.drained = false
	if low, ok := f.q.Lowest(); ok && top > low {
		f.urgent = true
	}
}

// Fill leases more pages when fewer than low wait in memory, or when higher priorities
// arrived (while fewer than four batches wait). needsGate says which leased pages need a
// politeness slot.
func (f *Frontier) Fill(ctx context.Context, low int, needsGate func(store.Lease) bool) error {
	if f.drained {
		return nil
	}
	if f.q.Len() >= low && !f.urgent {
		return nil
	}
	if f.q.Len() >= low && f.q.Len() >= 4*f.batch {
		// Higher priorities wait in the persisted queue and memory is full: hand the
		// lowest buffered pages back so that they make room (a best-first crawl finds better
		// links all the time, and must not visit thousands of stale ones first).
		if err := f.evictLowest(ctx, f.batch/4); err != nil || f.q.Len() >= 4*f.batch {
			f.urgent = false
			return err
		}
	}
	f.urgent = false
	leases, err := f.src.Lease(ctx, f.crawlID, f.batch)
	if err != nil {
		return err
	}
	if len(leases) == 0 {
		f.drained = true
		return nil
	}
	for _, l := range leases {
		f.Push(Item{Lease: l, Gated: needsGate(l)})
	}
	return nil
}

// Push adds an item to its host's queue, after the items of its priority already there
// (a retry, or a freshly leased page).
func (f *Frontier) Push(it Item) {
	f.q.Push(it.Origin, hostq.Entry[Item]{Value: it, Priority: it.Priority, Gated: it.Gated})
}

// Ungate lets a host's waiting items go without a politeness slot: the crawl gave the
// host up, and visits its pages without a request.
func (f *Frontier) Ungate(host string) { f.q.Ungate(host) }

// Wake tells the frontier that a politeness slot of host was given back: a host that was
// refused one is asked again at the next Next instead of at the time it was told.
func (f *Frontier) Wake(host string) { f.q.Wake(host) }

// Next returns the next item that may be visited now: from the hosts whose next item has
// the highest priority, round-robin, as politeness allows, else from the next priority
// down. When none may go, it returns ok=false and the earliest time a gated host may be
// asked again (zero if nothing waits).
func (f *Frontier) Next(gate Gate, now time.Time) (it Item, ok bool, wake time.Time) {
	e, ok, wake := f.q.Pop(gate, now)
	if !ok {
		return Item{}, false, wake
	}
	it = e.Value
	it.Gated = e.Gated // Ungate may have cleared it
	return it, true, time.Time{}
}

// evictLowest returns to the persisted queue up to n buffered pages of the lowest priority
// (all of that priority if fewer), when the source can take them back.
func (f *Frontier) evictLowest(ctx context.Context, n int) error {
	rel, ok := f.src.(Releaser)
	if !ok || f.q.Len() == 0 {
		return nil
	}
	items := f.q.Evict(n)
	if len(items) == 0 {
		return nil
	}
	ids := make([]int64, len(items))
	for i, it := range items {
		ids[i] = it.PageID
	}
	if err := rel.Release(ctx, f.crawlID, ids); err != nil {
		return err
	}
	f.drained = false
	return nil
}
