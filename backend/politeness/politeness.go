// Package politeness paces requests per host for a central crawl scheduler: a minimum
// gap between request starts (the larger of the configured delay and the host's
// robots.txt Crawl-delay), a cap on concurrent requests per host, and exponential
// backoff after 429/503 responses or connection errors, honouring Retry-After.
//
// The API never blocks: TryAcquire either takes a slot or says when to try again, so a
// scheduler can keep a queue of hosts ordered by that time. Time is passed in by the
// caller, which keeps the Limiter deterministic under test.
package politeness

import (
	"sync"
	"time"
)

// Defaults used when a Config field is zero.
const (
	DefaultPerHost       = 2
	DefaultMaxCrawlDelay = 30 * time.Second
	DefaultMaxBackoff    = 10 * time.Minute
)

// minBackoff is the smallest backoff after a failure, whatever the configured gap.
const minBackoff = time.Second

// busyRetry is how far ahead TryAcquire suggests retrying when every slot of a host is
// in use and nothing else holds it back; a scheduler that notices Release may retry sooner.
const busyRetry = 100 * time.Millisecond

// sweepEvery is the minimum number of calls between two sweeps of idle hosts.
const sweepEvery = 1024

// Config sets the pacing rules.
type Config struct {
	Delay         time.Duration // min gap between request starts to one host (0 = none)
	PerHost       int           // max concurrent requests per host (DefaultPerHost if 0)
	MaxCrawlDelay time.Duration // cap for robots Crawl-delay (DefaultMaxCrawlDelay if 0)
	MaxBackoff    time.Duration // cap for backoff (DefaultMaxBackoff if 0)
}

// Feedback is what happened to a request, given to Release.
type Feedback struct {
	Status     int           // HTTP status, 0 if there was no response
	RetryAfter time.Duration // parsed Retry-After header, 0 if absent
	Err        bool          // connection error, timeout or similar: no usable response
}

// failed reports whether the host should back off after this request.
func (fb Feedback) failed() bool {
	return fb.Err || fb.Status == 429 || fb.Status == 503
}

type hostState struct {
	inUse      int
	next       time.Time     // no request may start before this
	crawlDelay time.Duration // robots.txt Crawl-delay, already capped
	backoff    time.Duration // current backoff step, 0 when the host is healthy
}

// Limiter holds per-host pacing state. It is safe for concurrent use. State for a host
// is dropped once the host is idle (no slot in use, next-allowed time passed, no
// backoff, or a backoff nobody came back for within MaxBackoff), so memory stays proportional to the hosts recently active; a dropped host's
// crawl delay is forgotten too, so callers set it again from the robots decision before
// each TryAcquire (SetCrawlDelay is cheap).
type Limiter struct {
	cfg Config

	mu     sync.Mutex
	hosts  map[string]*hostState
	calls  int
	lastAt time.Time
}

// New returns a Limiter for cfg, filling in defaults for zero fields.
func New(cfg Config) *Limiter {
	if cfg.Delay < 0 {
		cfg.Delay = 0
	}
	if cfg.PerHost <= 0 {
		cfg.PerHost = DefaultPerHost
	}
	if cfg.MaxCrawlDelay <= 0 {
		cfg.MaxCrawlDelay = DefaultMaxCrawlDelay
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = DefaultMaxBackoff
	}
	return &Limiter{cfg: cfg, hosts: make(map[string]*hostState)}
}

// SetCrawlDelay records a robots.txt Crawl-delay for host, capped at MaxCrawlDelay. The
// effective gap between request starts is max(Config.Delay, crawl delay); the crawl delay
// applies even when Config.Delay is 0. A delay of 0 clears it.
func (l *Limiter) SetCrawlDelay(host string, d time.Duration) {
	d = max(d, 0)
	d = min(d, l.cfg.MaxCrawlDelay)
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.hosts[host]
	if st == nil {
		if d == 0 {
			return
		}
		st = &hostState{}
		l.hosts[host] = st
	}
	st.crawlDelay = d
	l.tick()
}

// Requested records a request to host that started at at without a slot of its own (the
// robots.txt fetched on the way to a page): no request may start less than the host's gap
// after it. Call SetCrawlDelay first with what that robots.txt said. It reports whether a
// request may start at now; a caller holding a slot that may not should Release it and
// acquire one again, which TryAcquire then grants no earlier than the gap allows.
func (l *Limiter) Requested(host string, at, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lastAt = now
	st := l.hosts[host]
	if st == nil {
		st = &hostState{}
		l.hosts[host] = st
	}
	after := at.Add(l.gap(st))
	if after.After(st.next) {
		st.next = after
	}
	l.tick()
	return !now.Before(after)
}

// TryAcquire takes a request slot for host if one is free and the host's next-allowed
// time has come. Otherwise it returns ok=false and the earliest time worth trying again:
// the next-allowed time, or, when only the slots are full, a short poll interval ahead.
// Every successful TryAcquire must be followed by exactly one Release.
func (l *Limiter) TryAcquire(host string, now time.Time) (ok bool, retryAt time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lastAt = now
	l.tick()
	st := l.hosts[host]
	if st == nil {
		st = &hostState{}
		l.hosts[host] = st
	}
	if now.Before(st.next) {
		return false, st.next
	}
	if st.inUse >= l.cfg.PerHost {
		return false, now.Add(busyRetry)
	}
	st.inUse++
	st.next = now.Add(l.gap(st))
	return true, now
}

// Release returns a slot taken by TryAcquire and records how the request went. After a
// 429 or 503 response or a connection error the host backs off: the first backoff is
// max(gap, 1s), each further failure doubles it, capped at MaxBackoff; a larger
// Retry-After (capped at MaxBackoff) wins over the backoff step. Any other outcome
// resets the backoff.
func (l *Limiter) Release(host string, now time.Time, fb Feedback) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lastAt = now
	st := l.hosts[host]
	if st == nil {
		// Release without TryAcquire: keep the feedback anyway.
		st = &hostState{}
		l.hosts[host] = st
	}
	if st.inUse > 0 {
		st.inUse--
	}
	if !fb.failed() {
		st.backoff = 0
		l.tick()
		return
	}
	if st.backoff == 0 {
		st.backoff = max(l.gap(st), minBackoff)
	} else {
		st.backoff *= 2
	}
	st.backoff = min(st.backoff, l.cfg.MaxBackoff)
	wait := st.backoff
	if ra := min(fb.RetryAfter, l.cfg.MaxBackoff); ra > wait {
		wait = ra
	}
	if t := now.Add(wait); t.After(st.next) {
		st.next = t
	}
	l.tick()
}

// Len reports how many hosts have state.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.hosts)
}

// gap is the minimum spacing of request starts for st.
func (l *Limiter) gap(st *hostState) time.Duration {
	return max(l.cfg.Delay, st.crawlDelay)
}

// tick counts a call and sweeps idle hosts every so often; the sweep interval grows with
// the map so the cost per call stays constant. l.mu must be held.
func (l *Limiter) tick() {
	l.calls++
	if l.calls < max(sweepEvery, len(l.hosts)) {
		return
	}
	l.calls = 0
	l.sweep(l.lastAt)
}

// sweep drops hosts that have no slot in use, no backoff and whose next-allowed time has
// passed at now. A host still in backoff, or with a robots.txt Crawl-delay, is dropped once
// it has not been tried for MaxBackoff after its next-allowed time, so hosts that are given
// up on do not stay forever, and a host's crawl delay is not forgotten between two of its
// requests (its next slot would be granted without it). l.mu must be held.
func (l *Limiter) sweep(now time.Time) {
	for h, st := range l.hosts {
		idleSince := st.next
		if st.backoff > 0 || st.crawlDelay > 0 {
			idleSince = idleSince.Add(l.cfg.MaxBackoff)
		}
		if st.inUse == 0 && !now.Before(idleSince) {
			delete(l.hosts, h)
		}
	}
}
