package robots

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

const agent = "Mundaneum/1.0 (+https://example.org/bot)"

type want struct {
	path    string
	allowed bool
	reason  string
	delay   time.Duration
}

func TestCheckRules(t *testing.T) {
	huge := "User-agent: *\nDisallow: /early\n" +
		strings.Repeat("# filler line to push the file past the size limit\n", MaxBodySize/50) +
		"Disallow: /late\n"
	tests := []struct {
		name   string
		status int
		body   string
		checks []want
	}{
		{"prefix", 200, "User-agent: *\nDisallow: /private\n", []want{
			{"/private", false, ReasonDisallowed, 0},
			{"/private/x?y=1", false, ReasonDisallowed, 0},
			{"/privateer", false, ReasonDisallowed, 0},
			{"/public", true, ReasonAllowed, 0},
			{"/", true, ReasonAllowed, 0},
			{"", true, ReasonAllowed, 0},
			{"/x/private", true, ReasonAllowed, 0},
		}},
		{"disallow all", 200, "User-agent: *\nDisallow: /\n", []want{
			{"/", false, ReasonDisallowed, 0},
			{"/anything", false, ReasonDisallowed, 0},
			{"/robots.txt", true, ReasonRobotsFile, 0},
		}},
		{"wildcards and end anchor", 200, "User-agent: *\nDisallow: /*.gif$\nDisallow: /a*b\nDisallow: /*?sessionid\n", []want{
			{"/img/x.gif", false, ReasonDisallowed, 0},
			{"/x.gif?v=1", true, ReasonAllowed, 0},
			{"/x.gifs", true, ReasonAllowed, 0},
			{"/a/x/b", false, ReasonDisallowed, 0},
			{"/ab", false, ReasonDisallowed, 0},
			{"/x/a/b", true, ReasonAllowed, 0}, // wildcard rules are anchored at the start
			{"/page?sessionid=1", false, ReasonDisallowed, 0},
			{"/page?id=1", true, ReasonAllowed, 0},
		}},
		{"root only", 200, "User-agent: *\nDisallow: /$\n", []want{
			{"/", false, ReasonDisallowed, 0},
			{"/a", true, ReasonAllowed, 0},
		}},
		{"dollar inside is literal", 200, "User-agent: *\nDisallow: /a$b\n", []want{
			{"/a$b", false, ReasonDisallowed, 0},
			{"/a", true, ReasonAllowed, 0},
		}},
		{"longest match wins, allow wins ties", 200,
			"User-agent: *\nDisallow: /\nAllow: /public\nDisallow: /public/secret\nDisallow: /page\nAllow: /page\n", []want{
				{"/other", false, ReasonDisallowed, 0},
				{"/public/x", true, ReasonAllowed, 0},
				{"/public/secret/x", false, ReasonDisallowed, 0},
				{"/page", true, ReasonAllowed, 0},
			}},
		{"groups per agent", 200, "User-agent: googlebot\nDisallow: /\n\n" +
			"USER-AGENT: MUNDANEUM\nDisallow: /secret\nCrawl-delay: 3\n\n" +
			"User-agent: *\nDisallow: /all\nCrawl-delay: 9\n", []want{
			{"/all", true, ReasonAllowed, 3 * time.Second},
			{"/secret/1", false, ReasonDisallowed, 3 * time.Second},
		}},
		{"groups for the same agent are merged", 200, "User-agent: mundaneum\nDisallow: /a\n\n" +
			"User-agent: other\nDisallow: /b\n\nUser-agent: mundaneum/2.0\nDisallow: /c\nCrawl-delay: 2\n", []want{
			{"/a", false, ReasonDisallowed, 2 * time.Second},
			{"/b", true, ReasonAllowed, 2 * time.Second},
			{"/c", false, ReasonDisallowed, 2 * time.Second},
		}},
		{"several agents in one group", 200, "User-agent: a\nUser-agent: mundaneum\nUser-agent: b\nDisallow: /x\n", []want{
			{"/x", false, ReasonDisallowed, 0},
		}},
		{"agent prefix does not match", 200, "User-agent: mund\nDisallow: /\n\nUser-agent: mundaneumbot\nDisallow: /\n", []want{
			{"/x", true, ReasonAllowed, 0},
		}},
		{"empty disallow in own group", 200, "User-agent: mundaneum\nDisallow:\n\nUser-agent: *\nDisallow: /\n", []want{
			{"/x", true, ReasonAllowed, 0},
		}},
		{"crawl delay", 200, "User-agent: *\nCrawl-delay: 1.5\nCrawl-delay: soon\nDisallow: /x\n", []want{
			{"/y", true, ReasonAllowed, 1500 * time.Millisecond},
		}},
		{"percent-encoding", 200, "User-agent: *\nDisallow: /%7ejoe\nDisallow: /ä\nDisallow: /a%2fb\nDisallow: /sp ace\n", []want{
			{"/~joe/x", false, ReasonDisallowed, 0},
			{"/%7Ejoe", false, ReasonDisallowed, 0},
			{"/%C3%A4", false, ReasonDisallowed, 0},
			{"/%c3%a4", false, ReasonDisallowed, 0},
			{"/a%2Fb", false, ReasonDisallowed, 0},
			{"/a/b", true, ReasonAllowed, 0},
			{"/sp%20ace", false, ReasonDisallowed, 0},
		}},
		{"lenient syntax", 200, "\xEF\xBB\xBF# comment\nDisallow: /before-any-group\r" +
			"user-agent : *   # trailing comment\rdisallow /nocolon\r\nDISALLOW:/nospace\r\nSitemap: http://x/s.xml\nDisalow: /typo\nfoo: bar\n", []want{
			{"/before-any-group", true, ReasonAllowed, 0},
			{"/nocolon", false, ReasonDisallowed, 0},
			{"/nospace", false, ReasonDisallowed, 0},
			{"/typo", false, ReasonDisallowed, 0},
		}},
		{"garbage", 200, "\x00\xff\xfe<html><body>Not robots\x01\x02 : : :\n\n\x7f\xc3", []want{
			{"/", true, ReasonAllowed, 0},
		}},
		{"html page", 200, "<!doctype html><html><head><title>Oops</title></head><body>Disallow: /x</body></html>", []want{
			{"/x", true, ReasonAllowed, 0},
		}},
		{"empty", 200, "", []want{{"/x", true, ReasonAllowed, 0}}},
		{"huge file truncated", 200, huge, []want{
			{"/early", false, ReasonDisallowed, 0},
			{"/late", true, ReasonAllowed, 0},
		}},
		{"404", 404, "Disallow: /", []want{{"/x", true, ReasonUnavailable, 0}}},
		{"401", 401, "", []want{{"/x", true, ReasonUnavailable, 0}}},
		{"403", 403, "", []want{{"/x", true, ReasonUnavailable, 0}}},
		{"410", 410, "", []want{{"/x", true, ReasonUnavailable, 0}}},
		{"429", 429, "", []want{{"/x", false, ReasonServerError, 0}}},
		{"500", 500, "User-agent: *\nAllow: /\n", []want{{"/x", false, ReasonServerError, 0}}},
		{"503", 503, "", []want{{"/x", false, ReasonServerError, 0}, {"/robots.txt", true, ReasonRobotsFile, 0}}},
		{"redirect", 301, "/real-robots.txt", []want{
			{"/moved-rules", false, ReasonDisallowed, 0},
			{"/x", true, ReasonAllowed, 0},
		}},
		{"redirect loop", 302, "/loop/again", []want{{"/x", true, ReasonUnavailable, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t, tt.status, tt.body)
			c := New(newHTTPGetter(), newMemStore(), agent, 0)
			for _, w := range tt.checks {
				d := check(t, c, s.url(t, w.path))
				if d.Allowed != w.allowed || d.Reason != w.reason || d.CrawlDelay != w.delay {
					t.Errorf("Check(%q) = %+v, want allowed=%v reason=%s delay=%v", w.path, d, w.allowed, w.reason, w.delay)
				}
			}
		})
	}
}

func TestUnreachable(t *testing.T) {
	s := newSite(t, 200, "")
	u := s.url(t, "/x")
	s.srv.Close() // nothing listens on the port any more
	clk := newClock()
	st := newMemStore()
	c := New(newHTTPGetter(), st, agent, 0)
	c.Now = clk.Now
	d := check(t, c, u)
	if d.Allowed || d.Reason != ReasonUnreachable {
		t.Fatalf("Check = %+v, want disallowed as unreachable", d)
	}
	rec, ok := st.get(s.srv.URL)
	if !ok || rec.Status != 0 || !rec.ExpiresAt.Equal(clk.Now().Add(ErrorTTL)) {
		t.Fatalf("stored %+v, %v; want status 0 expiring after ErrorTTL", rec, ok)
	}
}

func TestExpiry(t *testing.T) {
	s := newSite(t, 200, "User-agent: *\nDisallow: /a\n")
	clk := newClock()
	st := newMemStore()
	c := New(newHTTPGetter(), st, agent, 0)
	c.Now = clk.Now
	u := s.url(t, "/a")

	if d := check(t, c, u); d.Allowed {
		t.Fatal("first check allowed /a")
	}
	rec, ok := st.get(s.srv.URL)
	if !ok || rec.Status != 200 || !rec.ExpiresAt.Equal(clk.Now().Add(DefaultTTL)) || !rec.FetchedAt.Equal(clk.Now()) {
		t.Fatalf("stored %+v, %v", rec, ok)
	}
	s.set(200, "User-agent: *\nDisallow: /b\n")
	clk.advance(23 * time.Hour)
	if d := check(t, c, u); d.Allowed || s.requests.Load() != 1 {
		t.Fatalf("within ttl: %+v after %d requests, want cached answer", d, s.requests.Load())
	}
	// A new Cache on the same store does not refetch either.
	c2 := New(newHTTPGetter(), st, agent, 0)
	c2.Now = clk.Now
	if d := check(t, c2, u); d.Allowed || s.requests.Load() != 1 {
		t.Fatalf("from store: %+v after %d requests", d, s.requests.Load())
	}
	clk.advance(2 * time.Hour)
	if d := check(t, c, u); !d.Allowed || s.requests.Load() != 2 {
		t.Fatalf("after ttl: %+v after %d requests, want refetched rules", d, s.requests.Load())
	}
	if d := check(t, c, s.url(t, "/b")); d.Allowed {
		t.Fatalf("new rules not applied: %+v", d)
	}
}

func TestCustomTTL(t *testing.T) {
	s := newSite(t, 404, "")
	clk := newClock()
	c := New(newHTTPGetter(), newMemStore(), agent, time.Hour)
	c.Now = clk.Now
	check(t, c, s.url(t, "/x"))
	clk.advance(59 * time.Minute)
	check(t, c, s.url(t, "/x"))
	clk.advance(2 * time.Minute)
	check(t, c, s.url(t, "/x"))
	if n := s.requests.Load(); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
}

func TestErrorsAreRetriedSoon(t *testing.T) {
	s := newSite(t, 503, "")
	clk := newClock()
	c := New(newHTTPGetter(), newMemStore(), agent, 0)
	c.Now = clk.Now
	u := s.url(t, "/x")
	if d := check(t, c, u); d.Allowed || d.Reason != ReasonServerError {
		t.Fatalf("got %+v", d)
	}
	clk.advance(ErrorTTL - time.Second)
	check(t, c, u)
	if n := s.requests.Load(); n != 1 {
		t.Fatalf("%d requests within ErrorTTL, want 1", n)
	}
	s.set(200, "User-agent: *\nDisallow: /y\n")
	clk.advance(2 * time.Second)
	if d := check(t, c, u); !d.Allowed || d.Reason != ReasonAllowed || s.requests.Load() != 2 {
		t.Fatalf("after ErrorTTL: %+v after %d requests", d, s.requests.Load())
	}
}

func TestStaleCopyStandsInForFailure(t *testing.T) {
	s := newSite(t, 200, "User-agent: *\nDisallow: /a\n")
	clk := newClock()
	st := newMemStore()
	c := New(newHTTPGetter(), st, agent, 0)
	c.Now = clk.Now
	check(t, c, s.url(t, "/a"))
	fetched := clk.Now()

	s.set(500, "")
	clk.advance(DefaultTTL + time.Minute)
	if d := check(t, c, s.url(t, "/a")); d.Allowed || d.Reason != ReasonDisallowed {
		t.Fatalf("with stale copy: %+v, want the old rules", d)
	}
	if d := check(t, c, s.url(t, "/b")); !d.Allowed {
		t.Fatalf("with stale copy: %+v, want the old rules", d)
	}
	rec, _ := st.get(s.srv.URL)
	if rec.Status != 200 || !rec.FetchedAt.Equal(fetched) || !rec.ExpiresAt.Equal(clk.Now().Add(ErrorTTL)) {
		t.Fatalf("stored %+v: want the old copy, retried after ErrorTTL", rec)
	}
	// Beyond StaleLimit the old copy is no longer used.
	clk.advance(StaleLimit)
	if d := check(t, c, s.url(t, "/b")); d.Allowed || d.Reason != ReasonServerError {
		t.Fatalf("after StaleLimit: %+v, want server-error", d)
	}
}

func TestSingleflight(t *testing.T) {
	s := newSite(t, 200, "User-agent: *\nDisallow: /a\n")
	block := make(chan struct{})
	started := make(chan struct{}, 1)
	s.mu.Lock()
	s.block, s.started = block, started
	s.mu.Unlock()
	c := New(newHTTPGetter(), newMemStore(), agent, 0)

	const n = 50
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			d, err := c.Check(context.Background(), s.url(t, fmt.Sprintf("/a/%d", i)))
			if err == nil && d.Allowed {
				err = fmt.Errorf("/a/%d allowed", i)
			}
			errs <- err
		})
	}
	<-started
	// A caller that gives up does not cancel the shared fetch for the others.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Check(ctx, s.url(t, "/a/z")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Check: %v", err)
	}
	close(block)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := s.requests.Load(); got != 1 {
		t.Fatalf("%d robots.txt requests for %d concurrent checks, want 1", got, n)
	}
}

func TestCancelWhileWaiting(t *testing.T) {
	s := newSite(t, 200, "")
	block := make(chan struct{})
	started := make(chan struct{}, 1)
	s.mu.Lock()
	s.block, s.started = block, started
	s.mu.Unlock()
	defer close(block)
	c := New(newHTTPGetter(), newMemStore(), agent, 0)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Check(ctx, s.url(t, "/x"))
		done <- err
	}()
	<-started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Check returned %v, want context.Canceled", err)
	}
}

func TestStoreErrors(t *testing.T) {
	s := newSite(t, 200, "")
	st := newMemStore()
	st.loadErr = errBoom
	c := New(newHTTPGetter(), st, agent, 0)
	if _, err := c.Check(context.Background(), s.url(t, "/x")); !errors.Is(err, errBoom) {
		t.Fatalf("load error: %v", err)
	}
	st.loadErr, st.saveErr = nil, errBoom
	if _, err := c.Check(context.Background(), s.url(t, "/x")); !errors.Is(err, errBoom) {
		t.Fatalf("save error: %v", err)
	}
	// The outcome is still cached in memory.
	if d := check(t, c, s.url(t, "/x")); !d.Allowed || s.requests.Load() != 1 {
		t.Fatalf("after save error: %+v after %d requests", d, s.requests.Load())
	}
}

func TestBadURLs(t *testing.T) {
	c := New(newHTTPGetter(), newMemStore(), agent, 0)
	for _, raw := range []string{"ftp://example.com/x", "/relative", "mailto:a@b"} {
		u := mustURL(t, raw)
		if _, err := c.Check(context.Background(), u); err == nil {
			t.Errorf("Check(%q) succeeded", raw)
		}
	}
	if _, err := c.Check(context.Background(), nil); err == nil {
		t.Error("Check(nil) succeeded")
	}
}

func TestMemoryBound(t *testing.T) {
	c := New(nil, newMemStore(), agent, 0)
	exp := time.Now().Add(time.Hour)
	for i := range MaxEntries + 500 {
		c.insert(&entry{origin: fmt.Sprintf("http://h%d", i), expires: exp, cost: entryCost, reason: ReasonUnavailable, allow: true})
	}
	if n := c.Len(); n != MaxEntries {
		t.Fatalf("Len() = %d, want %d", n, MaxEntries)
	}
	if _, ok := c.lookup("http://h0", time.Now()); ok {
		t.Error("oldest entry not evicted")
	}
	if _, ok := c.lookup(fmt.Sprintf("http://h%d", MaxEntries+499), time.Now()); !ok {
		t.Error("newest entry evicted")
	}
	// Big entries are bounded by size too.
	for i := range 10 {
		c.insert(&entry{origin: fmt.Sprintf("http://big%d", i), expires: exp, cost: maxCacheSize / 4})
	}
	c.mu.Lock()
	size := c.size
	c.mu.Unlock()
	if size > maxCacheSize {
		t.Fatalf("size %d over bound %d", size, maxCacheSize)
	}
}

func TestCompileBounds(t *testing.T) {
	// Inputs robotstxt rejected on its own: rules before a group, bad crawl delays, long
	// wildcard rules.
	for _, tt := range []struct {
		body  string
		rules int
		delay time.Duration
	}{
		{"Disallow: /x\nUser-agent: *\nDisallow: /y\n", 1, 0},
		{"User-agent: *\nCrawl-delay: -1\nCrawl-delay: NaN\nCrawl-delay: 1e400\nCrawl-delay: 0.5\n", 0, 500 * time.Millisecond},
		{"Crawl-delay: 5\n", 0, 0},
		{"User-agent: *\nDisallow: /" + strings.Repeat("*a", 2000) + "\n", 1, 0},
	} {
		c := compile([]byte(tt.body), "mundaneum")
		if len(c.rules) != tt.rules || c.crawlDelay != tt.delay {
			t.Errorf("compile(%q) = %d rules, delay %v; want %d, %v", tt.body, len(c.rules), c.crawlDelay, tt.rules, tt.delay)
		}
	}
	// Bounds: rule count.
	plain := append([]byte("User-agent: *\n"), bytes.Repeat([]byte("Disallow: /x\n"), 3*maxRules)...)
	if c := compile(plain, "mundaneum"); len(c.rules) != maxRules {
		t.Errorf("kept %d rules, want %d", len(c.rules), maxRules)
	}
	// A hostile pattern costs a substring search per literal run, not a backtracking match.
	wild := "User-agent: *\nDisallow: /" + strings.Repeat("*a", maxRuleLength/2-1) + "b\n"
	c := compile([]byte(wild), "mundaneum")
	path := matchPath("/"+strings.Repeat("a", 8000), "")
	start := time.Now()
	for range 100 {
		if !c.rules.allowed(path) {
			t.Fatal("an unmatched wildcard rule disallowed the path")
		}
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("100 checks of a hostile wildcard rule took %v", d)
	}
}

func TestSitemapLines(t *testing.T) {
	body := "Sitemap: https://example.com/a.xml\nUser-agent: *\nDisallow: /x\n" +
		"sitemap: /relative.xml\nSITEMAP: ftp://example.com/no.xml\nSitemap: http://EXAMPLE.com/b.xml.gz # gz\n"
	c := compile([]byte(body), "mundaneum")
	want := []string{"https://example.com/a.xml", "http://example.com/b.xml.gz"}
	if fmt.Sprint(c.sitemaps) != fmt.Sprint(want) {
		t.Errorf("sitemaps = %q, want %q", c.sitemaps, want)
	}
	if len(c.rules) != 1 {
		t.Errorf("a Sitemap line broke the group: %d rules", len(c.rules))
	}
	many := strings.Repeat("Sitemap: http://example.com/s.xml\n", 3*maxSitemaps)
	if c := compile([]byte(many), "mundaneum"); len(c.sitemaps) != maxSitemaps {
		t.Errorf("kept %d sitemaps, want %d", len(c.sitemaps), maxSitemaps)
	}
}
