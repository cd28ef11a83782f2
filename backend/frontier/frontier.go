// Package frontier is the crawl queue: pages leased from the persisted queue in SQLite
// (priority, then depth, then discovery order), held in memory per host and handed out host
// by host as politeness allows, higher priorities first. What the priorities mean is a
// Strategy (strategy.go): WebCrawler's server-first breadth-first order, or the webbot's
// rule tiers.
package frontier

import (
	"container/heap"
	"context"
	"slices"
	"time"

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
type Gate interface {
	TryAcquire(host string, now time.Time) (ok bool, retryAt time.Time)
}

// Item is one page to visit.
type Item struct {
	store.Lease
	Tries int  // failed attempts so far in this run (429/503 retries)
	Gated bool // needs a politeness slot; false for pages visited from the store only

	order int64 // arrival in memory: the order within a priority
}

// hostQueue is one host's items, highest priority first, then in arrival order.
type hostQueue []Item

func (q hostQueue) Len() int { return len(q) }
func (q hostQueue) Less(i, j int) bool {
	if q[i].Priority != q[j].Priority {
		return q[i].Priority > q[j].Priority
	}
	return q[i].order < q[j].order
}
func (q hostQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *hostQueue) Push(x any)   { *q = append(*q, x.(Item)) }
func (q *hostQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	old[len(old)-1] = Item{}
	*q = old[:len(old)-1]
	return it
}

// ring is the hosts whose next item has one priority, visited round-robin.
type ring struct {
	hosts []string
	next  int
}

func (r *ring) remove(host string) {
	i := slices.Index(r.hosts, host)
	if i < 0 {
		return
	}
	r.hosts = slices.Delete(r.hosts, i, i+1)
	if i < r.next {
		r.next--
	}
	if r.next >= len(r.hosts) {
		r.next = 0
	}
}

// Frontier holds leased pages per host. It is used by one goroutine (the scheduler).
type Frontier struct {
	src      Source
	crawlID  int64
	batch    int
	hosts    map[string]*hostQueue
	rings    map[int]*ring // by the priority of the hosts' next items
	prios    []int         // the rings' priorities, highest first
	counts   map[int]int   // buffered items per priority
	buffered int
	arrivals int64
	drained  bool // the persisted queue had nothing more at the last lease
	urgent   bool // pages above the lowest buffered priority entered the queue
}

// New returns a frontier over a crawl's persisted queue; batch is how many pages one lease takes.
func New(src Source, crawlID int64, batch int) *Frontier {
	if batch <= 0 {
		batch = 512
	}
	return &Frontier{src: src, crawlID: crawlID, batch: batch, hosts: map[string]*hostQueue{},
		rings: map[int]*ring{}, counts: map[int]int{}}
}

// Buffered is how many leased pages wait in memory.
func (f *Frontier) Buffered() int { return f.buffered }

// Drained reports that the persisted queue was empty at the last Fill and nothing was added since.
func (f *Frontier) Drained() bool { return f.drained }

// Added tells the frontier that new pages entered the persisted queue, the highest of them
// with priority top. When that is above the lowest priority waiting in memory, the next
// Fill leases at once (up to a bound), so that they go before what was leased earlier.
func (f *Frontier) Added(top int) {
	f.drained = false
	if f.buffered > 0 && top > f.lowest() {
		f.urgent = true
	}
}

func (f *Frontier) lowest() int {
	low, first := 0, true
	for p, n := range f.counts {
		if n > 0 && (first || p < low) {
			low, first = p, false
		}
	}
	return low
}

// Fill leases more pages when fewer than low wait in memory, or when higher priorities
// arrived (while fewer than four batches wait). needsGate says which leased pages need a
// politeness slot.
func (f *Frontier) Fill(ctx context.Context, low int, needsGate func(store.Lease) bool) error {
	if f.drained {
		return nil
	}
	if f.buffered >= low && !f.urgent {
		return nil
	}
	if f.buffered >= low && f.buffered >= 4*f.batch {
		// Higher priorities wait in the persisted queue and memory is full: hand the
		// lowest buffered pages back so that they make room (a best-first crawl finds better
		// links all the time, and must not visit thousands of stale ones first).
		if err := f.evictLowest(ctx, f.batch/4); err != nil || f.buffered >= 4*f.batch {
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
	f.arrivals++
	it.order = f.arrivals
	q, ok := f.hosts[it.Origin]
	if !ok {
		q = &hostQueue{}
		f.hosts[it.Origin] = q
	}
	before := 0
	if q.Len() > 0 {
		before = (*q)[0].Priority
	}
	heap.Push(q, it)
	f.buffered++
	f.counts[it.Priority]++
	switch {
	case q.Len() == 1:
		f.ring(it.Priority).hosts = append(f.ring(it.Priority).hosts, it.Origin)
	case it.Priority > before:
		f.move(it.Origin, before, it.Priority)
	}
}

func (f *Frontier) ring(p int) *ring {
	r, ok := f.rings[p]
	if !ok {
		r = &ring{}
		f.rings[p] = r
		i, _ := slices.BinarySearchFunc(f.prios, p, func(a, b int) int { return b - a })
		f.prios = slices.Insert(f.prios, i, p)
	}
	return r
}

func (f *Frontier) move(host string, from, to int) {
	if r, ok := f.rings[from]; ok {
		r.remove(host)
	}
	r := f.ring(to)
	r.hosts = append(r.hosts, host)
}

// Ungate lets a host's waiting items go without a politeness slot: the crawl gave the
// host up, and visits its pages without a request.
func (f *Frontier) Ungate(host string) {
	if q, ok := f.hosts[host]; ok {
		for i := range *q {
			(*q)[i].Gated = false
		}
	}
}

// Next returns the next item that may be visited now: from the hosts whose next item has
// the highest priority, round-robin, as politeness allows, else from the next priority
// down. When none may go, it returns ok=false and the earliest time a gated host may be
// asked again (zero if nothing waits).
func (f *Frontier) Next(gate Gate, now time.Time) (it Item, ok bool, wake time.Time) {
	for _, p := range f.prios {
		r := f.rings[p]
		n := len(r.hosts)
		for i := 0; i < n; i++ {
			idx := (r.next + i) % n
			host := r.hosts[idx]
			q := f.hosts[host]
			head := (*q)[0]
			if head.Gated {
				if free, at := gate.TryAcquire(host, now); !free {
					if wake.IsZero() || at.Before(wake) {
						wake = at
					}
					continue
				}
			}
			heap.Pop(q)
			f.buffered--
			f.counts[p]--
			r.next = idx + 1
			switch {
			case q.Len() == 0:
				delete(f.hosts, host)
				r.remove(host)
			case (*q)[0].Priority != p:
				f.move(host, p, (*q)[0].Priority)
			}
			if r.next >= len(r.hosts) {
				r.next = 0
			}
			f.dropEmpty()
			return head, true, time.Time{}
		}
	}
	return Item{}, false, wake
}

// dropEmpty forgets rings without hosts.
func (f *Frontier) dropEmpty() {
	for i := 0; i < len(f.prios); {
		p := f.prios[i]
		if len(f.rings[p].hosts) == 0 {
			delete(f.rings, p)
			f.prios = slices.Delete(f.prios, i, i+1)
			continue
		}
		i++
	}
}

// evictLowest returns to the persisted queue up to n buffered pages of the lowest priority
// (all of that priority if fewer), when the source can take them back.
func (f *Frontier) evictLowest(ctx context.Context, n int) error {
	rel, ok := f.src.(Releaser)
	if !ok || f.buffered == 0 {
		return nil
	}
	low := f.lowest()
	var ids []int64
	for host, q := range f.hosts {
		if len(ids) >= n {
			break
		}
		if (*q)[0].Priority != low {
			// The head is the host's highest: drop only its pages of the lowest priority.
			kept := (*q)[:0]
			for _, it := range *q {
				if it.Priority == low && len(ids) < n {
					ids = append(ids, it.PageID)
					continue
				}
				kept = append(kept, it)
			}
			clear((*q)[len(kept):])
			*q = kept
			heap.Init(q)
			continue
		}
		// Every page of the host has the lowest priority.
		take := min(q.Len(), n-len(ids))
		for range take {
			ids = append(ids, heap.Pop(q).(Item).PageID)
		}
		if q.Len() == 0 {
			delete(f.hosts, host)
			f.rings[low].remove(host)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	f.buffered -= len(ids)
	f.counts[low] -= len(ids)
	f.dropEmpty()
	if err := rel.Release(ctx, f.crawlID, ids); err != nil {
		return err
	}
	f.drained = false
	return nil
}
