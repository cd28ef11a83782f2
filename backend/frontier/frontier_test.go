package frontier

import (
	"slices"

	"context"
	"mundaneum/backend/rules"
	"testing"
	"time"

	"mundaneum/backend/store"
)

type fakeSource struct{ batches [][]store.Lease }

// Lease hands out prepared batches: the frontier's own logic is under test, the store's
// leasing has its own tests against SQLite.
func (f *fakeSource) Lease(_ context.Context, _ int64, n int) ([]store.Lease, error) {
	if len(f.batches) == 0 {
		return nil, nil
	}
	b := f.batches[0]
	f.batches = f.batches[1:]
	return b, nil
}

// gate lets each host through up to its budget.
type gate map[string]int

func (g gate) TryAcquire(host string, now time.Time) (bool, time.Time) {
	if g[host] <= 0 {
		return false, now.Add(time.Second)
	}
	g[host]--
	return true, time.Time{}
}

func lease(origin, url string) store.Lease { return store.Lease{Origin: origin, URL: url} }

func TestGatedHostWaitsOthersGo(t *testing.T) {
	src := &fakeSource{batches: [][]store.Lease{{lease("slow", "s1"), lease("slow", "s2"), lease("fast", "f1"), lease("store", "x1")}}}
	f := New(src, 1, 10)
	f.Fill(context.Background(), 1, func(l store.Lease) bool { return l.Origin != "store" })
	g := gate{"slow": 1, "fast": 5}
	now := time.Now()
	var got []string
	for {
		it, ok, wake := f.Next(g, now)
		if !ok {
			if wake.IsZero() || !wake.After(now) {
				t.Fatalf("no wake time while slow waits: %v", wake)
			}
			break
		}
		got = append(got, it.URL)
	}
	if len(got) != 3 || f.Buffered() != 1 {
		t.Fatalf("got %v, buffered %d; want s1 f1 x1 and s2 waiting", got, f.Buffered())
	}
	// A pushed retry goes to the back of its host's queue.
	f.Push(Item{Lease: lease("slow", "s1-retry"), Gated: true})
	g["slow"] = 2
	if it, ok, _ := f.Next(g, now); ok {
		t.Fatalf("a refused host was asked again before its time or a Wake: %s", it.URL)
	}
	f.Wake("slow") // a slot of its was given back
	it1, _, _ := f.Next(g, now)
	it2, _, _ := f.Next(g, now)
	if it1.URL != "s2" || it2.URL != "s1-retry" {
		t.Fatalf("after retry: %s, %s", it1.URL, it2.URL)
	}
}

func TestDrainedUntilAdded(t *testing.T) {
	src := &fakeSource{}
	f := New(src, 1, 10)
	f.Fill(context.Background(), 1, func(store.Lease) bool { return true })
	if !f.Drained() {
		t.Fatal("empty source not drained")
	}
	src.batches = [][]store.Lease{{lease("a", "a1")}}
	f.Fill(context.Background(), 1, func(store.Lease) bool { return true })
	if f.Buffered() != 0 {
		t.Fatal("filled while drained")
	}
	f.Added(0)
	f.Fill(context.Background(), 1, func(store.Lease) bool { return true })
	if f.Buffered() != 1 {
		t.Fatal("not filled after Added")
	}
}

func please(origin, url string, prio int) store.Lease {
	return store.Lease{Origin: origin, URL: url, Priority: prio}
}

func drain(f *Frontier, g Gate) []string {
	var got []string
	for {
		it, ok, _ := f.Next(g, time.Now())
		if !ok {
			return got
		}
		got = append(got, it.URL)
	}
}

// A gated host of a high priority does not hold up the others.
func TestPriorityHostGated(t *testing.T) {
	src := &fakeSource{batches: [][]store.Lease{{please("a", "a1", 6), please("a", "a2", 6), please("b", "b1", 2)}}}
	f := New(src, 1, 10)
	f.Fill(context.Background(), 1, func(store.Lease) bool { return true })
	got := drain(f, gate{"a": 1, "b": 1})
	if !slices.Equal(got, []string{"a1", "b1"}) {
		t.Fatalf("got %v", got)
	}
	if f.Buffered() != 1 {
		t.Fatalf("buffered %d", f.Buffered())
	}
}

// Pages of a higher priority than anything waiting are leased at once, and go first.
func TestUrgentFill(t *testing.T) {
	src := &fakeSource{batches: [][]store.Lease{
		{please("a", "a-last1", 2), please("a", "a-last2", 2)},
		{please("a", "a-first", 6)},
	}}
	f := New(src, 1, 10)
	needs := func(store.Lease) bool { return true }
	f.Fill(context.Background(), 1, needs)
	it, _, _ := f.Next(gate{"a": 10}, time.Now())
	if it.URL != "a-last1" {
		t.Fatalf("first: %s", it.URL)
	}
	f.Added(2) // not above what waits: no lease
	f.Fill(context.Background(), 1, needs)
	if f.Buffered() != 1 {
		t.Fatalf("leased for an equal priority: %d", f.Buffered())
	}
	f.Added(6)
	f.Fill(context.Background(), 1, needs)
	if got := drain(f, gate{"a": 10}); !slices.Equal(got, []string{"a-first", "a-last2"}) {
		t.Fatalf("got %v", got)
	}
}

// A retry goes after the items of its priority already waiting.
func TestRetryGoesLast(t *testing.T) {
	src := &fakeSource{batches: [][]store.Lease{{please("a", "a1", 4), please("a", "a2", 4)}}}
	f := New(src, 1, 10)
	f.Fill(context.Background(), 1, func(store.Lease) bool { return true })
	it, _, _ := f.Next(gate{"a": 10}, time.Now())
	f.Push(it)
	if got := drain(f, gate{"a": 10}); !slices.Equal(got, []string{"a2", "a1"}) {
		t.Fatalf("got %v", got)
	}
}

func TestStrategies(t *testing.T) {
	var sf ServerFirst
	if sf.Priority(Link{Seed: true}) <= sf.Priority(Link{NewHost: true}) || sf.Priority(Link{NewHost: true}) <= sf.Priority(Link{}) {
		t.Error("server-first order")
	}
	var tr Tiers
	order := []Link{{Seed: true}, {Value: rules.First, NewHost: true}, {Value: rules.First},
		{Value: rules.Next, NewHost: true}, {Value: rules.Next}, {Value: rules.Untested}, {Value: rules.Last, NewHost: true}, {Value: rules.Last}}
	for i := 1; i < len(order); i++ {
		if tr.Priority(order[i-1]) < tr.Priority(order[i]) {
			t.Errorf("tiers: %+v before %+v", order[i], order[i-1])
		}
	}
	if tr.Priority(Link{Value: rules.Untested}) != tr.Priority(Link{Value: rules.Next}) {
		t.Error("untested pages wait in the next tier")
	}
}
