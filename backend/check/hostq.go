package check

import (
	"container/heap"
	"time"
)

// Gate decides whether a host may be sent a request now (politeness.Limiter satisfies it).
type Gate interface {
	TryAcquire(host string, now time.Time) (ok bool, retryAt time.Time)
}

// hostQueues holds the jobs waiting for a request, a FIFO per host, and hands them out
// host by host as politeness allows: hosts that may be asked now take turns, hosts told to
// wait sleep in a heap until their time. Used by the scheduler goroutine only.
type hostQueues struct {
	hosts map[string]*hostQueue
	ready []*hostQueue // round-robin ring of hosts that may be tried now
	next  int          // ring position of the next turn
	sleep sleepers     // hosts waiting for a time
	n     int          // jobs held
}

type hostQueue struct {
	host    string
	jobs    []*job
	head    int
	ready   bool      // in the ring
	wakeAt  time.Time // in the heap when non-zero
	heapIdx int
}

func newHostQueues() *hostQueues { return &hostQueues{hosts: map[string]*hostQueue{}} }

// Len is how many jobs wait.
func (q *hostQueues) Len() int { return q.n }

// push adds a job at the end of its host's queue; a job with a notBefore in the future
// makes nothing wait but itself only when it reaches the head.
func (q *hostQueues) push(j *job) {
	h := q.hosts[j.origin]
	if h == nil {
		h = &hostQueue{host: j.origin, heapIdx: -1}
		q.hosts[j.origin] = h
	}
	h.jobs = append(h.jobs, j)
	q.n++
	if !h.ready && h.heapIdx < 0 {
		q.makeReady(h)
	}
}

func (q *hostQueues) makeReady(h *hostQueue) {
	h.ready = true
	q.ready = append(q.ready, h)
}

// pop returns the next job that may be sent now, taking its host's politeness slot. When
// none may, it returns nil and the earliest time worth trying again (zero if no job waits).
func (q *hostQueues) pop(gate Gate, now time.Time) (*job, time.Time) {
	for q.sleep.Len() > 0 && !q.sleep[0].wakeAt.After(now) {
		h := heap.Pop(&q.sleep).(*hostQueue)
		h.wakeAt = time.Time{}
		q.makeReady(h)
	}
	for len(q.ready) > 0 {
		if q.next >= len(q.ready) {
			q.next = 0
		}
		h := q.ready[q.next]
		j := h.jobs[h.head]
		at := j.notBefore
		ok := !at.After(now)
		if ok {
			ok, at = gate.TryAcquire(h.host, now)
		}
		if !ok {
			q.removeReady(q.next)
			h.wakeAt = at
			heap.Push(&q.sleep, h)
			continue
		}
		h.jobs[h.head] = nil
		h.head++
		q.n--
		if h.head == len(h.jobs) {
			q.removeReady(q.next)
			delete(q.hosts, h.host)
		} else {
			if h.head > 64 && h.head*2 > len(h.jobs) {
				h.jobs = append(h.jobs[:0], h.jobs[h.head:]...)
				h.head = 0
			}
			q.next++
		}
		return j, time.Time{}
	}
	if q.sleep.Len() > 0 {
		return nil, q.sleep[0].wakeAt
	}
	return nil, time.Time{}
}

// drain takes every job waiting for host out of the queues.
func (q *hostQueues) drain(host string) []*job {
	h := q.hosts[host]
	if h == nil {
		return nil
	}
	jobs := h.jobs[h.head:]
	q.n -= len(jobs)
	delete(q.hosts, host)
	if h.ready {
		for i, r := range q.ready {
			if r == h {
				q.removeReady(i)
				break
			}
		}
	}
	if h.heapIdx >= 0 {
		heap.Remove(&q.sleep, h.heapIdx)
	}
	return jobs
}

func (q *hostQueues) removeReady(i int) {
	h := q.ready[i]
	h.ready = false
	last := len(q.ready) - 1
	q.ready[i] = q.ready[last]
	q.ready[last] = nil
	q.ready = q.ready[:last]
}

// sleepers is a min-heap of hosts by wake time.
type sleepers []*hostQueue

func (s sleepers) Len() int           { return len(s) }
func (s sleepers) Less(i, j int) bool { return s[i].wakeAt.Before(s[j].wakeAt) }
func (s sleepers) Swap(i, j int) {
	s[i], s[j] = s[j], s[i]
	s[i].heapIdx, s[j].heapIdx = i, j
}
func (s *sleepers) Push(x any) {
	h := x.(*hostQueue)
	h.heapIdx = len(*s)
	*s = append(*s, h)
}
func (s *sleepers) Pop() any {
	old := *s
	h := old[len(old)-1]
	old[len(old)-1] = nil
	*s = old[:len(old)-1]
	h.heapIdx = -1
	return h
}
