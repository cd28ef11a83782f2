package crawl

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"testing"
	"time"
)

// A robots.txt Crawl-delay holds between every two requests to the host, the robots.txt
// itself and the first page included (issue 18: the first two went 10 ms apart, two later
// ones at the same moment).
func TestCrawlDelayFromTheFirstRequest(t *testing.T) {
	var mu sync.Mutex
	var times []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		times = append(times, time.Now())
		mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nCrawl-delay: 1\n")
			return
		}
		fmt.Fprint(w, page("p", `<a href="/a">a</a> <a href="/b">b</a> <a href="/c">c</a>`))
	}))
	defer srv.Close()
	st := openStore(t)
	run(t, st, Config{Seeds: []string{srv.URL + "/"}, Scope: ScopeSite, PerHost: 2, Agents: 4})
	mu.Lock()
	defer mu.Unlock()
	sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
	if len(times) != 5 {
		t.Fatalf("%d requests, want 5 (robots.txt and 4 pages)", len(times))
	}
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); gap < 950*time.Millisecond {
			t.Errorf("request %d came %v after the one before; Crawl-delay is 1 s", i+1, gap.Round(time.Millisecond))
		}
	}
}

// A --max-pages run whose first page is deferred (it keeps its distance from the
// robots.txt just fetched) still fetches it: the page's place under the limit is given
// back while its host's slot is already free again (the slot is released once the
// response is read, and that wakes the scheduler before the visit ends).
func TestPageLimitWithDeferredFirstPage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nAllow: /\n")
			return
		}
		fmt.Fprint(w, page("p", `<a href="/a">a</a> <a href="/b">b</a>`))
	}))
	defer srv.Close()
	for i := range 3 {
		st := openStore(t)
		p := run(t, st, Config{Seeds: []string{srv.URL + "/"}, Scope: ScopeSite, MaxPages: 1, Delay: 200 * time.Millisecond})
		if p.Fetched != 1 {
			t.Fatalf("run %d: fetched %d pages, want 1 (%+v)", i, p.Fetched, p)
		}
		if p.Note != "page limit reached (1)" {
			t.Errorf("run %d: note %q", i, p.Note)
		}
	}
}
