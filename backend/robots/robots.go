// Package robots decides whether a URL may be crawled under its site's robots.txt
// (RFC 9309), fetching each origin's robots.txt once, keeping it for a day in a Store
// (MOMspider's robots.txt per site with expiry) and a bounded in-memory cache in front.
//
// Parsing is lenient (as Google's and as RFC 9309 ask); matching is RFC 9309's longest
// match over the rules of the group that applies (see match.go).
//
// Status handling follows RFC 9309 2.3.1: 2xx gives the file's rules; 3xx left over after
// the Getter's redirects and 4xx (except 429) mean "no robots.txt", everything allowed;
// 429, 5xx and network errors mean "disallow everything" for a short time, or, when an
// earlier good copy is at hand (not older than 30 days), that copy keeps applying (RFC
// 9309 2.4). Such a failure is kept in memory only as long: a new Cache (a new crawl run)
// asks the site again instead of taking a stored failure for the site's answer.
package robots

import (
	"container/list"
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"mundaneum/backend/urlnorm"
)

// Defaults and limits.
const (
	DefaultTTL  = 24 * time.Hour      // how long a fetched robots.txt is trusted (RFC 9309 2.4)
	ErrorTTL    = 10 * time.Minute    // how long a failed fetch is kept before retrying
	StaleLimit  = 30 * 24 * time.Hour // how long an old good copy may stand in for a failed fetch
	MaxBodySize = 512 << 10           // robots.txt bytes parsed; RFC 9309 asks for at least 500 KiB
	MaxEntries  = 10000               // origins kept in memory
)

const (
	maxCacheSize = 64 << 20        // approximate bytes of compiled rules kept in memory
	entryCost    = 512             // approximate fixed memory per cached origin
	fetchTimeout = 2 * time.Minute // backstop for one fetch shared by several Check calls
	robotsPath   = "/robots.txt"   // the one path always allowed
	unreachable  = 0               // Record.Status of a fetch that got no response
)

// Reasons: the closed set of Decision.Reason values.
const (
	ReasonAllowed     = "allowed"      // the rules allow the URL (or say nothing about it)
	ReasonDisallowed  = "disallowed"   // a Disallow rule matches the URL
	ReasonRobotsFile  = "robots-txt"   // the URL is the robots.txt itself, always allowed
	ReasonUnavailable = "unavailable"  // no robots.txt (3xx after redirects, 4xx): all allowed
	ReasonServerError = "server-error" // robots.txt answered 429 or 5xx: all disallowed for now
	ReasonUnreachable = "unreachable"  // robots.txt could not be fetched: all disallowed for now
)

// Getter fetches a robots.txt URL. It must follow up to 5 redirects and cap the body (the
// caller gives a client that does; robots additionally truncates to MaxBodySize). An
// error means no response was received (unreachable, DNS, timeout...).
type Getter interface {
	GetRobots(ctx context.Context, robotsURL string) (status int, body []byte, err error)
}

// Record is what is persisted per origin. Status 0 records a fetch that got no response.
type Record struct {
	Status    int
	Body      []byte
	FetchedAt time.Time
	ExpiresAt time.Time
}

// Store persists records. Load returns ok=false when nothing is stored for origin.
type Store interface {
	LoadRobots(ctx context.Context, origin string) (Record, bool, error)
	SaveRobots(ctx context.Context, origin string, r Record) error
}

// Decision is the answer for one URL.
type Decision struct {
	Allowed    bool
	CrawlDelay time.Duration // Crawl-delay of the group that applies, 0 if none
	Reason     string        // one of the Reason* constants
	// Err is why robots.txt could not be fetched (ReasonUnreachable): the Getter's error.
	Err error
	// FetchedAt is when the robots.txt this answer comes from was requested (zero for the
	// robots.txt itself): a request to the host, which the next one must keep its distance from.
	FetchedAt time.Time
}

// Cache answers robots.txt questions per origin. It is safe for concurrent use.
type Cache struct {
	// Now is the clock; tests replace it before first use. Defaults to time.Now.
	Now func() time.Time

	getter Getter
	store  Store
	agent  string // product token, lower case
	ttl    time.Duration

	flight singleflight.Group

	mu      sync.Mutex
	entries map[string]*list.Element // origin -> element holding *entry
	order   *list.List               // most recently used at the front
	size    int                      // sum of entry costs
}

// entry is one origin's compiled robots.txt outcome.
type entry struct {
	origin    string
	expires   time.Time
	fetchedAt time.Time
	reason    string   // for blanket outcomes; "" when rules apply
	allow     bool     // for blanket outcomes
	err       error    // for ReasonUnreachable: why
	rules     compiled // when reason == ""
	cost      int
}

// New returns a Cache. agent is the product token matched against User-agent lines
// (e.g. "mundaneum"; a full "Mundaneum/1.0 (...)" is reduced to its token); ttl is how
// long a fetched robots.txt is trusted, DefaultTTL if 0.
func New(g Getter, s Store, agent string, ttl time.Duration) *Cache {
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	return &Cache{
		Now:     time.Now,
		getter:  g,
		store:   s,
		agent:   productToken(agent),
		ttl:     ttl,
		entries: make(map[string]*list.Element),
		order:   list.New(),
	}
}

// Check answers whether u may be fetched, fetching robots.txt for u's origin when it is
// not cached or has expired (one fetch per origin at a time). It returns an error only
// when ctx ends, u is not an absolute http(s) URL, or the Store fails; an unreachable
// robots.txt is a Decision (disallowed, ReasonUnreachable), not an error.
func (c *Cache) Check(ctx context.Context, u *url.URL) (Decision, error) {
	if u == nil || u.Host == "" {
		return Decision{}, fmt.Errorf("robots check: %w: not an absolute url", urlnorm.ErrInvalid)
	}
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return Decision{}, fmt.Errorf("robots check %s: %w", u.Redacted(), urlnorm.ErrScheme)
	}
	if u.EscapedPath() == robotsPath {
		return Decision{Allowed: true, Reason: ReasonRobotsFile}, nil
	}
	if err := ctx.Err(); err != nil {
		return Decision{}, fmt.Errorf("robots check %s: %w", u.Redacted(), err)
	}
	path := matchPath(u.EscapedPath(), u.RawQuery)
	origin := urlnorm.Origin(u)
	if e, ok := c.lookup(origin, c.Now()); ok {
		return c.decide(e, path), nil
	}
	// The shared fetch must not die with the first caller's ctx; each caller still
	// stops waiting when its own ctx ends.
	shared := context.WithoutCancel(ctx)
	ch := c.flight.DoChan(origin, func() (any, error) { return c.refresh(shared, origin) })
	select {
	case <-ctx.Done():
		return Decision{}, fmt.Errorf("robots check %s: %w", u.Redacted(), ctx.Err())
	case res := <-ch:
		if res.Err != nil {
			return Decision{}, fmt.Errorf("robots check %s: %w", u.Redacted(), res.Err)
		}
		return c.decide(res.Val.(*entry), path), nil
	}
}

// Forget drops origin's cached answer if it is a failure (unreachable, or a 5xx), so
// that the next Check asks the site again: a caller retrying a page after a network error
// wants robots.txt retried too. Rules and "no robots.txt" stay.
func (c *Cache) Forget(origin string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[origin]
	if !ok {
		return
	}
	if e := el.Value.(*entry); e.reason == ReasonUnreachable || e.reason == ReasonServerError {
		c.order.Remove(el)
		delete(c.entries, origin)
		c.size -= e.cost
	}
}

// Sitemaps returns the Sitemap URLs that origin's robots.txt names (absolute http(s)
// URLs, in canonical form), fetching it as Check would. None when there is no robots.txt
// or it could not be fetched.
func (c *Cache) Sitemaps(ctx context.Context, origin string) ([]string, error) {
	u, err := urlnorm.Parse(origin + "/")
	if err != nil {
		return nil, fmt.Errorf("robots sitemaps of %s: %w", origin, err)
	}
	origin = urlnorm.Origin(u)
	if e, ok := c.lookup(origin, c.Now()); ok {
		return e.rules.sitemaps, nil
	}
	ch := c.flight.DoChan(origin, func() (any, error) { return c.refresh(context.WithoutCancel(ctx), origin) })
	select {
	case <-ctx.Done():
		return nil, fmt.Errorf("robots sitemaps of %s: %w", origin, ctx.Err())
	case res := <-ch:
		if res.Err != nil {
			return nil, fmt.Errorf("robots sitemaps of %s: %w", origin, res.Err)
		}
		return res.Val.(*entry).rules.sitemaps, nil
	}
}

// decide applies e to a path in match form.
func (c *Cache) decide(e *entry, path string) Decision {
	if e.reason != "" {
		return Decision{Allowed: e.allow, Reason: e.reason, Err: e.err, FetchedAt: e.fetchedAt}
	}
	d := Decision{Allowed: true, Reason: ReasonAllowed, CrawlDelay: e.rules.crawlDelay, FetchedAt: e.fetchedAt}
	if !e.rules.rules.allowed(path) {
		d.Allowed, d.Reason = false, ReasonDisallowed
	}
	return d
}

// refresh brings origin's entry up to date from the Store or, failing that, the network.
func (c *Cache) refresh(ctx context.Context, origin string) (*entry, error) {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	if e, ok := c.lookup(origin, c.Now()); ok {
		return e, nil // refreshed by a flight that ended just before this one began
	}
	old, found, err := c.store.LoadRobots(ctx, origin)
	if err != nil {
		return nil, fmt.Errorf("load robots.txt of %s: %w", origin, err)
	}
	// A stored failure is not the site's answer: it was kept for the process that met it.
	if now := c.Now(); found && trusted(old.Status) && now.Before(old.ExpiresAt) {
		e := c.build(origin, old)
		c.insert(e)
		return e, nil
	}
	rec, ferr := c.fetch(ctx, origin)
	if !trusted(rec.Status) && found && trusted(old.Status) && rec.FetchedAt.Sub(old.FetchedAt) < StaleLimit {
		// RFC 9309 2.4: an unreachable robots.txt may be replaced by a cached copy.
		rec = Record{Status: old.Status, Body: old.Body, FetchedAt: old.FetchedAt, ExpiresAt: rec.ExpiresAt}
	}
	e := c.build(origin, rec)
	e.err = ferr
	c.insert(e)
	if err := c.store.SaveRobots(ctx, origin, rec); err != nil {
		return nil, fmt.Errorf("save robots.txt of %s: %w", origin, err)
	}
	return e, nil
}

// fetch gets origin's robots.txt and turns the outcome into a Record; err is why nothing
// was received.
func (c *Cache) fetch(ctx context.Context, origin string) (Record, error) {
	now := c.Now()
	status, body, err := c.getter.GetRobots(ctx, origin+robotsPath)
	if err != nil {
		return Record{Status: unreachable, FetchedAt: now, ExpiresAt: now.Add(ErrorTTL)}, err
	}
	rec := Record{Status: status, FetchedAt: now, ExpiresAt: now.Add(c.ttl)}
	switch {
	case status >= 200 && status < 300:
		rec.Body = truncate(body)
	case !trusted(status):
		rec.ExpiresAt = now.Add(ErrorTTL)
	}
	return rec, nil
}

// trusted reports whether a status gives a lasting answer (rules, or no robots.txt)
// rather than a temporary failure.
func trusted(status int) bool {
	return status >= 200 && status < 500 && status != 429
}

// truncate cuts body to MaxBodySize, dropping a partial last line, which could turn
// "Disallow: /admin" into the broader "Disallow: /ad" or an Allow into a broader one.
func truncate(body []byte) []byte {
	if len(body) <= MaxBodySize {
		return body
	}
	body = body[:MaxBodySize]
	for i := len(body) - 1; i >= 0; i-- {
		if body[i] == '\n' || body[i] == '\r' {
			return body[:i+1]
		}
	}
	return nil
}

// build turns a Record into a cache entry.
func (c *Cache) build(origin string, r Record) *entry {
	e := &entry{origin: origin, expires: r.ExpiresAt, fetchedAt: r.FetchedAt, cost: entryCost}
	switch s := r.Status; {
	case s >= 200 && s < 300:
		e.rules = compile(truncate(r.Body), c.agent)
		e.cost += e.rules.cost
	case s == 429 || s >= 500 && s < 600:
		e.reason = ReasonServerError
	case s >= 300 && s < 500:
		e.reason, e.allow = ReasonUnavailable, true
	default: // no response, or a status that is no HTTP status
		e.reason = ReasonUnreachable
	}
	return e
}
