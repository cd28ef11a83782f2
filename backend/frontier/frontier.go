// Package frontier is the crawl queue: pages leased from the persisted queue in SQLite
// (priority, then depth, then discovery order, which gives WebCrawler's server-first
// breadth-first order when the first page found on every new host is queued with a higher
// priority), held in memory per host and handed out host by host as politeness allows.
package frontier

import (
	"context"
	"time"

	"mundaneum/backend/store"
)

// Source leases queued pages of a crawl (store.Store satisfies it).
type Source interface {
	Lease(ctx context.Context, crawlID int64, n int) ([]store.Lease, error)
}

// Gate decides whether a host may be sent a request now (politeness.Limiter satisfies it).
type Gate interface {
	TryAcquire(host string, now time.Time) (ok bool, retryAt time.Time)
}

// Item is one page to visit.
type Item struct {
	store.Lease
	Tries int  // failed attempts so far in this run (429/503 retries)
	Gated bool // needs a politeness slot; false for pages visited from the store only
}

// Frontier holds leased pages per host. It is used by one goroutine (the scheduler).
type Frontier struct {
	src      Source
	crawlID  int64
	batch    int
	hosts    map[string][]Item
	ring     []string // hosts with items, in round-robin order
	next     int      // ring position to start the next scan from
	buffered int
	drained  bool // the persisted queue had nothing more at the last lease
}

// New returns a frontier over a crawl's persisted queue; batch is how many pages one lease takes.
func New(src Source, crawlID int64, batch int) *Frontier {
	if batch <= 0 {
		batch = 512
	}
	return &Frontier{src: src, crawlID: crawlID, batch: batch, hosts: map[string][]Item{}}
}

// Buffered is how many leased pages wait in memory.
func (f *Frontier) Buffered() int { return f.buffered }

// Drained reports that the persisted queue was empty at the last Fill and nothing was added since.
func (f *Frontier) Drained() bool { return f.drained }

// Added tells the frontier that new pages entered the persisted queue.
func (f *Frontier) Added() { f.drained = false }

// Fill leases more pages when fewer than low wait in memory. needsGate says which leased
// pages need a politeness slot.
func (f *Frontier) Fill(ctx context.Context, low int, needsGate func(store.Lease) bool) error {
	if f.drained || f.buffered >= low {
		return nil
	}
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

// Push adds an item at the end of its host's queue (a retry, or a freshly leased page).
func (f *Frontier) Push(it Item) {
	q, ok := f.hosts[it.Origin]
	if !ok || len(q) == 0 {
		f.ring = append(f.ring, it.Origin)
	}
	f.hosts[it.Origin] = append(q, it)
	f.buffered++
}

// Next returns the next item that may be visited now, scanning hosts round-robin. When none
// may, it returns ok=false and the earliest time a gated host may be asked again (zero if
// nothing waits).
func (f *Frontier) Next(gate Gate, now time.Time) (it Item, ok bool, wake time.Time) {
	n := len(f.ring)
	for i := 0; i < n; i++ {
		idx := (f.next + i) % n
		host := f.ring[idx]
		q := f.hosts[host]
		head := q[0]
		if head.Gated {
			if free, at := gate.TryAcquire(host, now); !free {
				if wake.IsZero() || at.Before(wake) {
					wake = at
				}
				continue
			}
		}
		q[0] = Item{}
		q = q[1:]
		f.buffered--
		if len(q) == 0 {
			delete(f.hosts, host)
			f.ring = append(f.ring[:idx], f.ring[idx+1:]...)
			if len(f.ring) > 0 {
				f.next = idx % len(f.ring)
			} else {
				f.next = 0
			}
		} else {
			f.hosts[host] = q
			f.next = (idx + 1) % n
		}
		return head, true, time.Time{}
	}
	return Item{}, false, wake
}
