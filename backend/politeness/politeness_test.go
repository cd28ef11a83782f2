package politeness

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

func mustAcquire(t *testing.T, l *Limiter, host string, now time.Time) {
	t.Helper()
	if ok, retry := l.TryAcquire(host, now); !ok {
		t.Fatalf("TryAcquire(%q, %v) refused, retry at %v", host, now.Sub(t0), retry.Sub(t0))
	}
}

func mustRefuse(t *testing.T, l *Limiter, host string, now, wantRetry time.Time) {
	t.Helper()
	ok, retry := l.TryAcquire(host, now)
	if ok {
		t.Fatalf("TryAcquire(%q, %v) granted, want refused until %v", host, now.Sub(t0), wantRetry.Sub(t0))
	}
	if !retry.Equal(wantRetry) {
		t.Fatalf("TryAcquire(%q, %v) retry at %v, want %v", host, now.Sub(t0), retry.Sub(t0), wantRetry.Sub(t0))
	}
}

func TestDelaySpacing(t *testing.T) {
	l := New(Config{Delay: 2 * time.Second, PerHost: 10})
	mustAcquire(t, l, "a", t0)
	mustRefuse(t, l, "a", t0, t0.Add(2*time.Second))
	mustRefuse(t, l, "a", t0.Add(1999*time.Millisecond), t0.Add(2*time.Second))
	mustAcquire(t, l, "b", t0) // other hosts are independent
	mustAcquire(t, l, "a", t0.Add(2*time.Second))
	mustRefuse(t, l, "a", t0.Add(3*time.Second), t0.Add(4*time.Second))
	// The gap counts from request starts, not ends.
	l.Release("a", t0.Add(3*time.Second), Feedback{Status: 200})
	mustAcquire(t, l, "a", t0.Add(4*time.Second))
}

func TestNoDelay(t *testing.T) {
	l := New(Config{PerHost: 3})
	for range 3 {
		mustAcquire(t, l, "a", t0)
	}
	mustRefuse(t, l, "a", t0, t0.Add(busyRetry))
}

func TestPerHostConcurrency(t *testing.T) {
	l := New(Config{}) // default 2 per host, no delay
	mustAcquire(t, l, "a", t0)
	mustAcquire(t, l, "a", t0)
	mustRefuse(t, l, "a", t0, t0.Add(busyRetry))
	mustAcquire(t, l, "b", t0)
	l.Release("a", t0, Feedback{Status: 200})
	mustAcquire(t, l, "a", t0)
	mustRefuse(t, l, "a", t0.Add(time.Hour), t0.Add(time.Hour+busyRetry))
	l.Release("a", t0, Feedback{Status: 200})
	l.Release("a", t0, Feedback{Status: 200})
	// Extra releases do not create extra slots.
	l.Release("a", t0, Feedback{Status: 200})
	mustAcquire(t, l, "a", t0)
	mustAcquire(t, l, "a", t0)
	mustRefuse(t, l, "a", t0, t0.Add(busyRetry))
}

func TestCrawlDelay(t *testing.T) {
	l := New(Config{PerHost: 5, MaxCrawlDelay: 10 * time.Second})
	l.SetCrawlDelay("slow", 5*time.Second)
	mustAcquire(t, l, "slow", t0)
	mustRefuse(t, l, "slow", t0.Add(time.Second), t0.Add(5*time.Second))
	mustAcquire(t, l, "fast", t0)
	mustAcquire(t, l, "fast", t0)

	// Capped at MaxCrawlDelay.
	l.SetCrawlDelay("huge", time.Hour)
	mustAcquire(t, l, "huge", t0)
	mustRefuse(t, l, "huge", t0, t0.Add(10*time.Second))

	// The larger of Delay and crawl delay wins.
	l2 := New(Config{Delay: 3 * time.Second, PerHost: 5})
	l2.SetCrawlDelay("a", time.Second)
	mustAcquire(t, l2, "a", t0)
	mustRefuse(t, l2, "a", t0, t0.Add(3*time.Second))
	l2.SetCrawlDelay("b", 4*time.Second)
	mustAcquire(t, l2, "b", t0)
	mustRefuse(t, l2, "b", t0, t0.Add(4*time.Second))

	// Default cap is 30s; negative and zero clear.
	l3 := New(Config{})
	l3.SetCrawlDelay("a", time.Minute)
	mustAcquire(t, l3, "a", t0)
	mustRefuse(t, l3, "a", t0, t0.Add(DefaultMaxCrawlDelay))
	l3.SetCrawlDelay("a", -time.Second)
	l3.Release("a", t0, Feedback{Status: 200})
	mustAcquire(t, l3, "a", t0.Add(DefaultMaxCrawlDelay))
	mustAcquire(t, l3, "a", t0.Add(DefaultMaxCrawlDelay))
}

func TestBackoffGrowthAndReset(t *testing.T) {
	l := New(Config{PerHost: 1, MaxBackoff: 10 * time.Second})
	now := t0
	wantSteps := []time.Duration{1, 2, 4, 8, 10, 10} // seconds: starts at 1s, doubles, capped
	for i, step := range wantSteps {
		mustAcquire(t, l, "a", now)
		status := 503
		if i%2 == 1 {
			status = 429
		}
		l.Release("a", now, Feedback{Status: status})
		want := now.Add(step * time.Second)
		mustRefuse(t, l, "a", now, want)
		mustRefuse(t, l, "a", want.Add(-time.Nanosecond), want)
		now = want
	}
	// A connection error also counts as failure.
	mustAcquire(t, l, "a", now)
	l.Release("a", now, Feedback{Err: true})
	mustRefuse(t, l, "a", now, now.Add(10*time.Second))
	now = now.Add(10 * time.Second)

	// Success resets: the next failure starts again at 1s.
	mustAcquire(t, l, "a", now)
	l.Release("a", now, Feedback{Status: 200})
	mustAcquire(t, l, "a", now)
	l.Release("a", now, Feedback{Status: 503})
	mustRefuse(t, l, "a", now, now.Add(time.Second))

	// Other errors (404, 500) are not backoff triggers.
	l2 := New(Config{PerHost: 1})
	for _, st := range []int{404, 500, 502, 200} {
		mustAcquire(t, l2, "b", t0)
		l2.Release("b", t0, Feedback{Status: st})
	}
}

func TestBackoffStartsAtGap(t *testing.T) {
	l := New(Config{Delay: 3 * time.Second, PerHost: 1})
	mustAcquire(t, l, "a", t0)
	l.Release("a", t0.Add(time.Second), Feedback{Status: 429})
	mustRefuse(t, l, "a", t0.Add(time.Second), t0.Add(4*time.Second))
	mustAcquire(t, l, "a", t0.Add(4*time.Second))
	l.Release("a", t0.Add(4*time.Second), Feedback{Status: 429})
	mustRefuse(t, l, "a", t0.Add(4*time.Second), t0.Add(10*time.Second))
}

func TestRetryAfter(t *testing.T) {
	l := New(Config{PerHost: 1, MaxBackoff: time.Minute})
	mustAcquire(t, l, "a", t0)
	l.Release("a", t0, Feedback{Status: 429, RetryAfter: 20 * time.Second})
	mustRefuse(t, l, "a", t0, t0.Add(20*time.Second))

	// Capped at MaxBackoff.
	mustAcquire(t, l, "b", t0)
	l.Release("b", t0, Feedback{Status: 503, RetryAfter: time.Hour})
	mustRefuse(t, l, "b", t0, t0.Add(time.Minute))

	// Smaller than the backoff step: the backoff wins.
	now := t0.Add(20 * time.Second)
	mustAcquire(t, l, "a", now)
	l.Release("a", now, Feedback{Status: 429, RetryAfter: time.Second})
	mustRefuse(t, l, "a", now, now.Add(2*time.Second))

	// Retry-After on a success is not a failure.
	mustAcquire(t, l, "c", t0)
	l.Release("c", t0, Feedback{Status: 200, RetryAfter: time.Hour})
	mustAcquire(t, l, "c", t0)

	// From a header, both forms.
	for _, h := range []string{"30", t0.Add(30 * time.Second).Format(http.TimeFormat)} {
		d, ok := ParseRetryAfter(h, t0)
		if !ok {
			t.Fatalf("ParseRetryAfter(%q) failed", h)
		}
		host := "h" + h
		mustAcquire(t, l, host, t0)
		l.Release(host, t0, Feedback{Status: 503, RetryAfter: d})
		mustRefuse(t, l, host, t0, t0.Add(30*time.Second))
	}
}

func TestParseRetryAfter(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{"120", 120 * time.Second, true},
		{" 5 ", 5 * time.Second, true},
		{"Wed, 01 Jan 2025 12:01:00 GMT", time.Minute, true},
		{"Wednesday, 01-Jan-25 12:00:30 GMT", 30 * time.Second, true},
		{"Wed Jan  1 12:00:10 2025", 10 * time.Second, true},
		{"Tue, 31 Dec 2024 12:00:00 GMT", 0, true}, // in the past
		{"99999999999999999999999", maxRetryAfter, true},
		{"31536001", maxRetryAfter, true},
		{"Fri, 01 Jan 2100 00:00:00 GMT", maxRetryAfter, true},
		{"", 0, false},
		{"-5", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
		{"5 seconds", 0, false},
		{"2025-01-01T12:01:00Z", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseRetryAfter(tt.in, t0)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBoundedState(t *testing.T) {
	l := New(Config{Delay: time.Second, PerHost: 2, MaxBackoff: 5 * time.Second})
	now := t0
	// Hosts with state worth keeping at any moment: those whose 1s gap has not passed
	// (1,000 at one host per ms) plus failed ones during backoff + MaxBackoff (10% of
	// 6,000). Lazy sweeping may let the map reach about twice that plus sweepEvery.
	const bound = 2*(1000+600) + sweepEvery
	for i := range 100_000 {
		host := fmt.Sprintf("host%d.example", i)
		now = now.Add(time.Millisecond)
		mustAcquire(t, l, host, now)
		fb := Feedback{Status: 200}
		if i%10 == 0 {
			fb = Feedback{Status: 503}
		}
		l.Release(host, now, fb)
		if i%1000 == 999 {
			l.SetCrawlDelay(host, 2*time.Second)
			if n := l.Len(); n > bound {
				t.Fatalf("Len() = %d after %d hosts, want at most %d", n, i+1, bound)
			}
		}
	}
	// Long after, traffic to a few new hosts sweeps everything that went idle.
	later := now.Add(time.Hour)
	for i := range 3 * sweepEvery {
		h := fmt.Sprintf("late%d", i)
		mustAcquire(t, l, h, later)
		l.Release(h, later, Feedback{Status: 200})
		later = later.Add(2 * time.Second)
	}
	if n := l.Len(); n > sweepEvery {
		t.Fatalf("Len() = %d after idle period, want at most %d", n, sweepEvery)
	}
}

func TestBoundedStateKeepsBusyHosts(t *testing.T) {
	l := New(Config{PerHost: 1})
	mustAcquire(t, l, "busy", t0)
	l.Release("backoff", t0, Feedback{Status: 429})
	for i := range 3 * sweepEvery {
		h := fmt.Sprintf("h%d", i)
		mustAcquire(t, l, h, t0.Add(time.Second))
		l.Release(h, t0.Add(time.Second), Feedback{Status: 200})
	}
	// busy still holds its slot, backoff is still backing off.
	mustRefuse(t, l, "busy", t0.Add(time.Second), t0.Add(time.Second+busyRetry))
	mustRefuse(t, l, "backoff", t0.Add(time.Second/2), t0.Add(time.Second))
}

func TestConcurrentUse(t *testing.T) {
	const perHost = 3
	l := New(Config{PerHost: perHost})
	var mu sync.Mutex
	inFlight := map[string]int{}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				host := fmt.Sprintf("h%d", (g+i)%5)
				now := t0.Add(time.Duration(i) * time.Millisecond)
				ok, _ := l.TryAcquire(host, now)
				if !ok {
					continue
				}
				mu.Lock()
				inFlight[host]++
				n := inFlight[host]
				mu.Unlock()
				if n > perHost {
					t.Errorf("host %s has %d requests in flight, limit %d", host, n, perHost)
				}
				l.SetCrawlDelay(host, 0)
				mu.Lock()
				inFlight[host]--
				mu.Unlock()
				l.Release(host, now, Feedback{Status: 200})
				_ = l.Len()
			}
		})
	}
	wg.Wait()
}

func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"0", "120", "Wed, 21 Oct 2015 07:28:00 GMT", "Sunday, 06-Nov-94 08:49:37 GMT",
		"Sun Nov  6 08:49:37 1994", "-1", "1e9", "99999999999999999999", "", " ", "Mon, 99 Foo 9999 99:99:99 GMT"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		d, ok := ParseRetryAfter(v, t0)
		if !ok && d != 0 {
			t.Fatalf("ParseRetryAfter(%q) = %v, false; want 0 when not ok", v, d)
		}
		if d < 0 || d > maxRetryAfter {
			t.Fatalf("ParseRetryAfter(%q) = %v out of range", v, d)
		}
	})
}
