// Package hostq is the per-host queue that the crawl's frontier and the link checker share,
// as lychee's rate-limit pool serves every checker: items wait in a queue per host and are
// handed out host by host as politeness allows. Hosts that may be asked now take turns
// (round-robin among the hosts whose next item has the highest priority waiting, then the
// next priority down); a host that politeness holds back, or whose next item waits for a
// time of its own, sleeps in a heap until its time comes or its slot is given back (Wake),
// so that handing out an item costs the same with ten thousand waiting hosts as with ten.
//
// A Queue is used by one goroutine (a scheduler); it has no locks.
package hostq

import (
	"container/heap"
	"slices"
	"time"
)

// Gate decides whether a host may be sent a request now (politeness.Limiter satisfies it).
// When it refuses, retryAt is the earliest time worth asking again.
type Gate interface {
	TryAcquire(host string, now time.Time) (ok bool, retryAt time.Time)
}

// Entry is one item and how it is handed out.
type Entry[T any] struct {
	Value     T
	Priority  int       // higher goes first, across hosts
	NotBefore time.Time // not handed out before this time (a retry's wait)
	Gated     bool      // needs a politeness slot from the Gate; false goes without asking

	order int64 // arrival: the order within a priority
}

// Queue holds entries per host. The zero value is not usable: call New.
type Queue[T any] struct {
	hosts    map[string]*host[T]
	rings    map[int]*ring[T] // hosts that may be tried now, by the priority of their head
	prios    []int            // the rings' priorities, highest first
	sleep    sleepers[T]      // hosts waiting for a time
	counts   map[int]int      // entries held per priority
	n        int
	arrivals int64
}

// host is one host's entries, highest priority first, then in arrival order.
type host[T any] struct {
	name       string
	entries    entries[T]
	ring       *ring[T]  // the ring it is in, nil when asleep
	prev, next *host[T]  // its neighbours in the ring
	wakeAt     time.Time // while asleep
	heapIdx    int       // in the sleep heap, -1 when not
}

// ring is the ready hosts whose head has one priority, visited round-robin: a circle of
// hosts, cur the next to try. A host joins just before cur (the back of the line), and
// leaves in constant time, as hosts do all the time (asleep, emptied, moved).
type ring[T any] struct {
	prio int
	cur  *host[T]
	n    int
}

// New returns an empty queue.
func New[T any]() *Queue[T] {
	return &Queue[T]{hosts: map[string]*host[T]{}, rings: map[int]*ring[T]{}, counts: map[int]int{}}
}

// Len is how many entries wait.
func (q *Queue[T]) Len() int { return q.n }

// Lowest is the lowest priority of the entries waiting; ok is false when none waits.
func (q *Queue[T]) Lowest() (prio int, ok bool) {
	for p, n := range q.counts {
		if n > 0 && (!ok || p < prio) {
			prio, ok = p, true
		}
	}
	return prio, ok
}

// Push adds an entry to its host's queue, after the entries of its priority already there.
// A sleeping host whose next entry this becomes is woken, to be asked again.
func (q *Queue[T]) Push(name string, e Entry[T]) {
	q.arrivals++
	e.order = q.arrivals
	h := q.hosts[name]
	if h == nil {
		h = &host[T]{name: name, heapIdx: -1}
		q.hosts[name] = h
	}
	heap.Push(&h.entries, e)
	q.n++
	q.counts[e.Priority]++
	head := h.entries[0]
	switch {
	case h.ring == nil && h.heapIdx < 0: // new
		q.ready(h)
	case head.order != e.order:
	case h.heapIdx >= 0:
		q.Wake(name)
	case h.ring.prio != e.Priority:
		q.unring(h)
		q.ready(h)
	}
}

// Pop returns the next entry that may go now, having taken its host's politeness slot when
// it is gated. When none may, ok is false and wake is the earliest time worth trying again
// (zero when nothing waits); a Wake may make an entry free sooner.
func (q *Queue[T]) Pop(gate Gate, now time.Time) (e Entry[T], ok bool, wake time.Time) {
	for q.sleep.Len() > 0 && !q.sleep[0].wakeAt.After(now) {
		h := heap.Pop(&q.sleep).(*host[T])
		h.wakeAt = time.Time{}
		q.ready(h)
	}
	for i := 0; i < len(q.prios); {
		r := q.rings[q.prios[i]]
		if r.n == 0 {
			i++
			continue
		}
		h := r.cur
		head := h.entries[0]
		at := head.NotBefore
		free := !at.After(now)
		if free && head.Gated {
			free, at = gate.TryAcquire(h.name, now)
		}
		if !free {
			q.unring(h)
			h.wakeAt = at
			heap.Push(&q.sleep, h)
			continue
		}
		heap.Pop(&h.entries)
		q.n--
		q.counts[head.Priority]--
		switch {
		case len(h.entries) == 0:
			q.unring(h)
			delete(q.hosts, h.name)
		case h.entries[0].Priority != r.prio:
			q.unring(h)
			q.ready(h)
		default:
			r.cur = h.next
		}
		q.dropEmpty()
		return head, true, time.Time{}
	}
	q.dropEmpty()
	if q.sleep.Len() > 0 {
		wake = q.sleep[0].wakeAt
	}
	return Entry[T]{}, false, wake
}

// Wake makes a sleeping host ready to be asked again now: a slot of its was given back, or
// its entries no longer need one.
func (q *Queue[T]) Wake(name string) {
	h := q.hosts[name]
	if h == nil || h.heapIdx < 0 {
		return
	}
	heap.Remove(&q.sleep, h.heapIdx)
	h.wakeAt = time.Time{}
	q.ready(h)
}

// Ungate lets a host's waiting entries go without a politeness slot (and wakes it).
func (q *Queue[T]) Ungate(name string) {
	h := q.hosts[name]
	if h == nil {
		return
	}
	for i := range h.entries {
		h.entries[i].Gated = false
	}
	q.Wake(name)
}

// Drain takes every entry waiting for a host out of the queue, in the order they would
// have gone.
func (q *Queue[T]) Drain(name string) []T {
	h := q.hosts[name]
	if h == nil {
		return nil
	}
	out := make([]T, 0, len(h.entries))
	for len(h.entries) > 0 {
		e := heap.Pop(&h.entries).(Entry[T])
		q.counts[e.Priority]--
		out = append(out, e.Value)
	}
	q.n -= len(out)
	q.forget(h)
	return out
}

// Evict takes up to n entries of the lowest priority waiting out of the queue (all of that
// priority if fewer), the latest arrivals of a host first.
func (q *Queue[T]) Evict(n int) []T {
	low, ok := q.Lowest()
	if !ok || n <= 0 {
		return nil
	}
	var out []T
	for _, h := range q.hosts {
		if len(out) >= n {
			break
		}
		if h.entries[0].Priority != low {
			// The head is the host's highest: take only its entries of the lowest priority.
			kept := h.entries[:0]
			for _, e := range h.entries {
				if e.Priority == low && len(out) < n {
					out = append(out, e.Value)
					continue
				}
				kept = append(kept, e)
			}
			clear(h.entries[len(kept):])
			h.entries = kept
			heap.Init(&h.entries)
			continue
		}
		// Every entry of the host has the lowest priority.
		take := min(len(h.entries), n-len(out))
		for range take {
			out = append(out, heap.Pop(&h.entries).(Entry[T]).Value)
		}
		if len(h.entries) == 0 {
			q.forget(h)
		}
	}
	q.n -= len(out)
	q.counts[low] -= len(out)
	q.dropEmpty()
	return out
}

// forget removes an emptied host from the ring or the heap it is in.
func (q *Queue[T]) forget(h *host[T]) {
	if h.ring != nil {
		q.unring(h)
	}
	if h.heapIdx >= 0 {
		heap.Remove(&q.sleep, h.heapIdx)
	}
	delete(q.hosts, h.name)
}

// ready puts a host at the back of the ring of its head's priority.
func (q *Queue[T]) ready(h *host[T]) {
	p := h.entries[0].Priority
	r, ok := q.rings[p]
	if !ok {
		r = &ring[T]{prio: p}
		q.rings[p] = r
		i, _ := slices.BinarySearchFunc(q.prios, p, func(a, b int) int { return b - a })
		q.prios = slices.Insert(q.prios, i, p)
	}
	if r.cur == nil {
		h.prev, h.next, r.cur = h, h, h
	} else {
		h.prev, h.next = r.cur.prev, r.cur
		r.cur.prev.next = h
		r.cur.prev = h
	}
	r.n++
	h.ring = r
}

// unring takes a host out of its ring, keeping the turn with the host after it.
func (q *Queue[T]) unring(h *host[T]) {
	r := h.ring
	r.n--
	switch {
	case r.n == 0:
		r.cur = nil
	default:
		h.prev.next = h.next
		h.next.prev = h.prev
		if r.cur == h {
			r.cur = h.next
		}
	}
	h.ring, h.prev, h.next = nil, nil, nil
}

// dropEmpty forgets rings without hosts.
func (q *Queue[T]) dropEmpty() {
	q.prios = slices.DeleteFunc(q.prios, func(p int) bool {
		if q.rings[p].n == 0 {
			delete(q.rings, p)
			return true
		}
		return false
	})
}

// entries is a host's entries as a heap: highest priority first, then arrival order.
type entries[T any] []Entry[T]

func (s entries[T]) Len() int { return len(s) }
func (s entries[T]) Less(i, j int) bool {
	if s[i].Priority != s[j].Priority {
		return s[i].Priority > s[j].Priority
	}
	return s[i].order < s[j].order
}
func (s entries[T]) Swap(i, j int) { s[i], s[j] = s[j], s[i] }
func (s *entries[T]) Push(x any)   { *s = append(*s, x.(Entry[T])) }
func (s *entries[T]) Pop() any {
	old := *s
	e := old[len(old)-1]
	old[len(old)-1] = Entry[T]{}
	*s = old[:len(old)-1]
	return e
}

// sleepers is a min-heap of hosts by wake time.
type sleepers[T any] []*host[T]

func (s sleepers[T]) Len() int           { return len(s) }
func (s sleepers[T]) Less(i, j int) bool { return s[i].wakeAt.Before(s[j].wakeAt) }
func (s sleepers[T]) Swap(i, j int) {
	s[i], s[j] = s[j], s[i]
	s[i].heapIdx, s[j].heapIdx = i, j
}
func (s *sleepers[T]) Push(x any) {
	h := x.(*host[T])
	h.heapIdx = len(*s)
	*s = append(*s, h)
}
func (s *sleepers[T]) Pop() any {
	old := *s
	h := old[len(old)-1]
	old[len(old)-1] = nil
	*s = old[:len(old)-1]
	h.heapIdx = -1
	return h
}
