package hostq

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"mundaneum/backend/politeness"
)

// budget lets each host through up to its count; a refused host is told to come back in a
// second. It stands for a gate whose answers a test must choose exactly; the politeness
// tests below use the real limiter.
type budget map[string]int

func (b budget) TryAcquire(host string, now time.Time) (bool, time.Time) {
	if b[host] <= 0 {
		return false, now.Add(time.Second)
	}
	b[host]--
	return true, now
}

var t0 = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

func push(q *Queue[string], host, v string, prio int) {
	q.Push(host, Entry[string]{Value: v, Priority: prio, Gated: true})
}

// popAll takes what may go at now.
func popAll(q *Queue[string], g Gate, now time.Time) []string {
	var got []string
	for {
		e, ok, _ := q.Pop(g, now)
		if !ok {
			return got
		}
		got = append(got, e.Value)
	}
}

// Hosts take turns: no host's second item goes before every host's first.
func TestRoundRobinAcrossHosts(t *testing.T) {
	q := New[string]()
	for _, hv := range [][2]string{{"a", "a1"}, {"a", "a2"}, {"a", "a3"}, {"b", "b1"}, {"c", "c1"}, {"b", "b2"}} {
		push(q, hv[0], hv[1], 0)
	}
	got := popAll(q, budget{"a": 10, "b": 10, "c": 10}, t0)
	if want := []string{"a1", "b1", "c1", "a2", "b2", "a3"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if q.Len() != 0 {
		t.Fatalf("len %d", q.Len())
	}
	if _, ok := q.Lowest(); ok {
		t.Fatal("an empty queue has a lowest priority")
	}
}

// Higher priorities go first across hosts; round-robin within a priority; a host moves to
// the ring of its next item's priority.
func TestPrioritiesAcrossHosts(t *testing.T) {
	q := New[string]()
	push(q, "a", "a-first", 6)
	push(q, "b", "b-first", 6)
	push(q, "a", "a-next", 4)
	push(q, "b", "b-next", 4)
	push(q, "c", "c-last", 2)
	push(q, "c", "c-next", 4)
	if low, _ := q.Lowest(); low != 2 {
		t.Fatalf("lowest %d", low)
	}
	got := popAll(q, budget{"a": 10, "b": 10, "c": 10}, t0)
	want := []string{"a-first", "b-first", "c-next", "a-next", "b-next", "c-last"} // c waited at 4 first
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// A host the gate refuses sleeps until the time it was told, and the others go meanwhile;
// items that need no slot go without asking; an entry pushed later goes after those of its
// priority already waiting.
func TestRefusedHostWaitsOthersGo(t *testing.T) {
	q := New[string]()
	push(q, "slow", "s1", 0)
	push(q, "slow", "s2", 0)
	push(q, "fast", "f1", 0)
	q.Push("store", Entry[string]{Value: "x1"})
	g := budget{"slow": 1, "fast": 5}
	var got []string
	var wake time.Time
	for {
		e, ok, at := q.Pop(g, t0)
		if !ok {
			wake = at
			break
		}
		got = append(got, e.Value)
	}
	if !slices.Equal(got, []string{"s1", "f1", "x1"}) || q.Len() != 1 {
		t.Fatalf("got %v, len %d; want s1 f1 x1 and s2 waiting", got, q.Len())
	}
	if !wake.Equal(t0.Add(time.Second)) {
		t.Fatalf("wake %v, want the gate's retry time", wake)
	}
	push(q, "slow", "s1-retry", 0)
	g["slow"] = 2
	if got := popAll(q, g, t0.Add(time.Second-1)); len(got) != 0 {
		t.Fatalf("a sleeping host went before its time: %v", got)
	}
	if got := popAll(q, g, t0.Add(time.Second)); !slices.Equal(got, []string{"s2", "s1-retry"}) {
		t.Fatalf("after its time: %v", got)
	}
}

// Sleeping hosts wake in the order of their times, whatever the order they fell asleep in,
// and Pop says when the earliest wakes.
func TestWakeOrder(t *testing.T) {
	q := New[string]()
	g := retryAt{"a": t0.Add(3 * time.Second), "b": t0.Add(time.Second), "c": t0.Add(2 * time.Second)}
	for _, h := range []string{"a", "b", "c"} {
		push(q, h, h+"1", 0)
		push(q, h, h+"2", 0)
	}
	var order []string
	now := t0
	for q.Len() > 0 {
		e, ok, at := q.Pop(g, now)
		if !ok {
			if !at.After(now) {
				t.Fatalf("wake %v not after now %v", at, now)
			}
			now = at
			continue
		}
		order = append(order, e.Value)
	}
	if want := []string{"b1", "b2", "c1", "c2", "a1", "a2"}; !slices.Equal(order, want) {
		t.Fatalf("got %v, want %v", order, want)
	}
	if !now.Equal(t0.Add(3 * time.Second)) {
		t.Fatalf("last wake %v", now)
	}
}

// retryAt admits a host from its time on; before, it tells the host to come back then.
type retryAt map[string]time.Time

func (r retryAt) TryAcquire(host string, now time.Time) (bool, time.Time) {
	if now.Before(r[host]) {
		return false, r[host]
	}
	return true, now
}

// An entry's own wait holds its host only, and only while it is the host's next.
func TestNotBefore(t *testing.T) {
	q := New[string]()
	q.Push("a", Entry[string]{Value: "a-retry", NotBefore: t0.Add(time.Minute), Gated: true})
	push(q, "a", "a2", 0)
	push(q, "b", "b1", 0)
	g := budget{"a": 10, "b": 10}
	e, ok, _ := q.Pop(g, t0)
	if !ok || e.Value != "b1" {
		t.Fatalf("got %v %v, want b1", e.Value, ok)
	}
	if _, ok, at := q.Pop(g, t0); ok || !at.Equal(t0.Add(time.Minute)) {
		t.Fatalf("a went before its entry's time, or wake %v", at)
	}
	if g["a"] != 10 {
		t.Fatal("a slot was taken for an entry that may not go yet")
	}
	if got := popAll(q, g, t0.Add(time.Minute)); !slices.Equal(got, []string{"a-retry", "a2"}) {
		t.Fatalf("got %v", got)
	}
}

// With the real limiter, no host is sent two requests closer than its delay, the hosts
// share the time, and every item goes.
func TestPolitenessDelayHonoured(t *testing.T) {
	const delay = 200 * time.Millisecond
	lim := politeness.New(politeness.Config{Delay: delay, PerHost: 4})
	q := New[string]()
	hosts := []string{"http://a", "http://b", "http://c"}
	rng := rand.New(rand.NewPCG(1, 2))
	n := 0
	for range 60 {
		h := hosts[rng.IntN(len(hosts))]
		push(q, h, h, 0)
		n++
	}
	last := map[string]time.Time{}
	now := t0
	sent := 0
	for q.Len() > 0 {
		e, ok, at := q.Pop(lim, now)
		if !ok {
			if at.IsZero() || !at.After(now) {
				t.Fatalf("nothing may go and wake %v at %v", at, now)
			}
			now = at
			continue
		}
		h := e.Value
		if prev, seen := last[h]; seen && now.Sub(prev) < delay {
			t.Fatalf("%s asked %v after its previous request (delay %v)", h, now.Sub(prev), delay)
		}
		last[h] = now
		lim.Release(h, now, politeness.Feedback{Status: 200})
		q.Wake(h)
		sent++
	}
	if sent != n {
		t.Fatalf("sent %d of %d", sent, n)
	}
}

// A host refused only because its slots are taken is asked again as soon as one is given
// back (Wake), not at the limiter's poll time.
func TestReleaseWakesBusyHost(t *testing.T) {
	lim := politeness.New(politeness.Config{PerHost: 1})
	q := New[string]()
	push(q, "http://a", "a1", 0)
	push(q, "http://a", "a2", 0)
	e, ok, _ := q.Pop(lim, t0)
	if !ok || e.Value != "a1" {
		t.Fatal("first item did not go")
	}
	if _, ok, at := q.Pop(lim, t0); ok || !at.After(t0) {
		t.Fatalf("a busy host went, or wake %v", at)
	}
	q.Wake("http://a") // a no-op for the host's turn until its slot is back
	if _, ok, _ := q.Pop(lim, t0); ok {
		t.Fatal("a busy host went before its slot was given back")
	}
	lim.Release("http://a", t0, politeness.Feedback{Status: 200})
	q.Wake("http://a")
	if e, ok, _ := q.Pop(lim, t0); !ok || e.Value != "a2" {
		t.Fatal("the host was not asked again when its slot came back")
	}
}

// Giving a host up: Drain takes its entries out wherever the host is (taking turns or
// asleep), and Ungate lets them go without a slot at once.
func TestDrainAndUngate(t *testing.T) {
	q := New[string]()
	push(q, "a", "a1", 0)
	push(q, "a", "a2", 0)
	push(q, "b", "b1", 0)
	push(q, "b", "b2", 0)
	push(q, "c", "c1", 0)
	g := budget{}
	if got := popAll(q, g, t0); len(got) != 0 {
		t.Fatalf("went without a slot: %v", got)
	}
	// All three sleep now.
	if got := q.Drain("a"); !slices.Equal(got, []string{"a1", "a2"}) {
		t.Fatalf("drained %v", got)
	}
	if q.Drain("a") != nil || q.Len() != 3 {
		t.Fatalf("drained twice, or len %d", q.Len())
	}
	q.Ungate("b")
	var got []string
	for {
		e, ok, _ := q.Pop(g, t0)
		if !ok {
			break
		}
		if e.Gated {
			t.Fatalf("%s handed out gated after Ungate", e.Value)
		}
		got = append(got, e.Value)
	}
	if !slices.Equal(got, []string{"b1", "b2"}) {
		t.Fatalf("after ungate: %v", got)
	}
	g["c"] = 1
	q.Wake("c")
	if got := q.Drain("c"); !slices.Equal(got, []string{"c1"}) {
		t.Fatalf("drained a ready host: %v", got)
	}
	if _, ok, at := q.Pop(g, t0); ok || !at.IsZero() || q.Len() != 0 {
		t.Fatalf("an empty queue hands out or has a wake time %v", at)
	}
}

// Evict takes the lowest priority's latest entries, from hosts whose next item is better
// as well as from hosts holding only them.
func TestEvict(t *testing.T) {
	q := New[string]()
	push(q, "a", "a-high", 5)
	push(q, "a", "a-low1", 1)
	push(q, "a", "a-low2", 1)
	push(q, "b", "b-low1", 1)
	push(q, "c", "c-mid", 3)
	out := q.Evict(10)
	slices.Sort(out)
	if !slices.Equal(out, []string{"a-low1", "a-low2", "b-low1"}) {
		t.Fatalf("evicted %v", out)
	}
	if low, _ := q.Lowest(); low != 3 || q.Len() != 2 {
		t.Fatalf("lowest %d, len %d", low, q.Len())
	}
	if got := popAll(q, budget{"a": 5, "b": 5, "c": 5}, t0); !slices.Equal(got, []string{"a-high", "c-mid"}) {
		t.Fatalf("left %v", got)
	}
	push(q, "d", "d1", 0)
	push(q, "d", "d2", 0)
	if out := q.Evict(1); len(out) != 1 || q.Len() != 1 {
		t.Fatalf("evict 1: %v, len %d", out, q.Len())
	}
}

// A pushed entry better than a sleeping host's next wakes the host: an item that needs no
// slot, or a better one, is not held back by the refusal its predecessor got.
func TestPushWakesForNewHead(t *testing.T) {
	q := New[string]()
	push(q, "a", "a-low", 1)
	if got := popAll(q, budget{}, t0); len(got) != 0 {
		t.Fatal("went without a slot")
	}
	q.Push("a", Entry[string]{Value: "a-stored", Priority: 2})
	if got := popAll(q, budget{}, t0); !slices.Equal(got, []string{"a-stored"}) {
		t.Fatalf("got %v", got)
	}
	push(q, "a", "a-later", 1) // not its next: the host sleeps on
	if got := popAll(q, budget{"a": 5}, t0); len(got) != 0 {
		t.Fatalf("woken by an entry behind its next: %v", got)
	}
}

// Random pushes, pops, wakes and drains keep the count and hand out every entry once.
func TestRandomOperations(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	q := New[int]()
	g := budget{}
	held := map[int]bool{}
	now := t0
	for i := range 5000 {
		host := string(rune('a' + rng.IntN(6)))
		switch rng.IntN(6) {
		case 0, 1:
			q.Push(host, Entry[int]{Value: i, Priority: rng.IntN(3), Gated: rng.IntN(4) > 0,
				NotBefore: now.Add(time.Duration(rng.IntN(3)) * time.Second)})
			held[i] = true
		case 2:
			g[host] += rng.IntN(3)
			q.Wake(host)
		case 3:
			for _, v := range q.Drain(host) {
				if !held[v] {
					t.Fatalf("drained %d twice", v)
				}
				delete(held, v)
			}
		case 4:
			now = now.Add(time.Duration(rng.IntN(1500)) * time.Millisecond)
		case 5:
			if e, ok, _ := q.Pop(g, now); ok {
				if !held[e.Value] || e.NotBefore.After(now) {
					t.Fatalf("popped %d twice or before its time", e.Value)
				}
				delete(held, e.Value)
			}
		}
		if q.Len() != len(held) {
			t.Fatalf("step %d: len %d, holding %d", i, q.Len(), len(held))
		}
	}
	for h := 'a'; h < 'a'+6; h++ {
		g[string(h)] = 1 << 20
		q.Ungate(string(h))
	}
	for q.Len() > 0 {
		e, ok, at := q.Pop(g, now)
		if !ok {
			now = at
			continue
		}
		delete(held, e.Value)
	}
	if len(held) != 0 {
		t.Fatalf("%d entries never handed out", len(held))
	}
}
