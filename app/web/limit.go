package web

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"mundaneum/backend/library"
)

// Password attempts (the owner's sign-in, and the library's passwords given to the API)
// are slowed and limited per client address, and the argon2id checks running at once are
// bounded: each costs tens of milliseconds and 19 MiB, and is cheap to ask for from a
// script. A client may be wrong freeFails times; each wrong password after that holds it
// back twice as long as the one before (1 s, 2 s, 4 s... up to maxHold), during which
// its checks are refused with 429 and a Retry-After. A right password, or forgetAfter
// without a wrong one, starts it afresh.
const (
	freeFails   = 5
	maxHold     = 15 * time.Minute
	forgetAfter = time.Hour
	// maxClients bounds the addresses remembered; the longest unseen go first.
	maxClients = 4096
	// checksAtOnce bounds the argon2id checks running at once (two cores), and
	// checkWait how long a check waits for its turn before it is refused as busy.
	checksAtOnce = 2
	checkWait    = 10 * time.Second
)

// limiter keeps each client address's wrong passwords.
type limiter struct {
	mu      sync.Mutex
	now     func() time.Time
	clients map[string]*attempts
	slots   chan struct{}
}

type attempts struct {
	wrong int
	until time.Time // held back until then
	last  time.Time // the latest wrong password
}

func newLimiter(now func() time.Time) *limiter {
	return &limiter{now: now, clients: map[string]*attempts{}, slots: make(chan struct{}, checksAtOnce)}
}

// held says how long the client must still wait before its next check (0: none).
func (l *limiter) held(client string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	a := l.clients[client]
	if a == nil {
		return 0
	}
	now := l.now()
	if now.Sub(a.last) > forgetAfter {
		delete(l.clients, client)
		return 0
	}
	return max(a.until.Sub(now), 0)
}

// wrong records a wrong password from client.
func (l *limiter) wrong(client string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	a := l.clients[client]
	if a == nil || now.Sub(a.last) > forgetAfter {
		if len(l.clients) >= maxClients {
			l.forgetOldest()
		}
		a = &attempts{}
		l.clients[client] = a
	}
	a.wrong++
	a.last = now
	if n := a.wrong - freeFails; n > 0 {
		hold := maxHold
		if n <= 20 {
			hold = min(maxHold, time.Second<<(n-1))
		}
		a.until = now.Add(hold)
	}
}

// right forgets client's wrong passwords.
func (l *limiter) right(client string) {
	l.mu.Lock()
	delete(l.clients, client)
	l.mu.Unlock()
}

func (l *limiter) forgetOldest() {
	var oldest string
	var at time.Time
	for c, a := range l.clients {
		if oldest == "" || a.last.Before(at) {
			oldest, at = c, a.last
		}
	}
	delete(l.clients, oldest)
}

// slowDown refuses a check: the client is held back, or every check slot is busy.
type slowDown struct {
	wait time.Duration
	busy bool
}

func (e *slowDown) Error() string {
	secs := int(math.Ceil(e.wait.Seconds()))
	if e.busy {
		return fmt.Sprintf("too many passwords are being checked at once: try again in %d s", secs)
	}
	return fmt.Sprintf("too many wrong passwords from this address: try again in %d s", secs)
}

func (e *slowDown) Unwrap() error { return library.ErrSlowDown }

// gate is the library.Gate of one client.
type gate struct {
	l      *limiter
	client string
}

func (l *limiter) gate(client string) *gate { return &gate{l: l, client: client} }

// Enter refuses a held-back client, then waits (up to checkWait) for a check slot.
func (g *gate) Enter(ctx context.Context) (func(), error) {
	if wait := g.l.held(g.client); wait > 0 {
		return nil, &slowDown{wait: wait}
	}
	t := time.NewTimer(checkWait)
	defer t.Stop()
	select {
	case g.l.slots <- struct{}{}:
		return func() { <-g.l.slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		return nil, &slowDown{wait: time.Second, busy: true}
	}
}

// Wrong records a wrong password.
func (g *gate) Wrong() { g.l.wrong(g.client) }

// retryAfter sets Retry-After to how long the client is still held back (at least 1 s).
func (l *limiter) retryAfter(w http.ResponseWriter, client string) {
	secs := int(math.Ceil(l.held(client).Seconds()))
	w.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
}

// addressOf is the address a request came from: the connection's, never a header's (a
// client could name any address in X-Forwarded-For). IPv6 clients count by their /64,
// which one machine usually has whole.
func addressOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}
