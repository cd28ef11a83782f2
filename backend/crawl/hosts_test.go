package crawl

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mundaneum/backend/fetch"
	"mundaneum/backend/store"
)

// resetServer accepts connections on a loopback port and resets each at once (a host that
// does not answer, not even for its robots.txt), counting them.
func resetServer(t *testing.T) (addr string, conns *atomic.Int64, stop func()) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conns = &atomic.Int64{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			c.(*net.TCPConn).SetLinger(0) // RST, not FIN
			c.Close()
		}
	}()
	stop = func() { l.Close(); wg.Wait() }
	t.Cleanup(stop)
	return l.Addr().String(), conns, stop
}

// A host whose connections are reset is tried a bounded number of times, then given up for
// the run: its pages are recorded as failed with the cause, the progress says so while the
// rest of the crawl goes on, and the next run tries them again (issue 29, item 17: such a
// host held a crawl's end for a quarter of an hour, robots.txt asked after 1, 4, 16, 64,
// 256 and then 600 s).
func TestHostThatDoesNotAnswerIsGivenUp(t *testing.T) {
	bad, conns, stopBad := resetServer(t)
	badURL := func(p string) string { return "http://" + bad + p }
	var links strings.Builder
	for i := range 6 {
		fmt.Fprintf(&links, `<a href="%s">%d</a> `, badURL(fmt.Sprintf("/p%d.html", i)), i)
	}
	good := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, page("Good", links.String()+`<a href="/a">a</a>`))
		case "/a":
			fmt.Fprint(w, page("A", "fine"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer good.Close()

	st := openStore(t)
	cfg := Config{Seeds: []string{good.URL + "/", badURL("/")}, Delay: 0}
	cr, err := Open(context.Background(), st.Store, st.idx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	policy := HostPolicy{Tries: 3, Within: 20 * time.Second}
	cr.hosts = newHostWatch(policy)
	// A guard, not a measure: before the bound the run took a quarter of an hour.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var mu sync.Mutex
	var runningNotes []string
	p, err := cr.Run(ctx, func(p Progress) {
		if p.State == store.CrawlRunning && p.Note != "" {
			mu.Lock()
			runningNotes = append(runningNotes, p.Note)
			mu.Unlock()
		}
	})
	if err != nil || p.State != store.CrawlDone {
		t.Fatalf("run: state %s, %v (the guard cut it?)", p.State, err)
	}
	if pageOf(t, st, good.URL+"/a").state != store.StateFetched {
		t.Errorf("the answering host's page was not fetched")
	}
	for _, u := range []string{badURL("/"), badURL("/p0.html"), badURL("/p5.html")} {
		if got := pageOf(t, st, u); got.state != store.StateFailed || got.reason != fetch.CodeReset {
			t.Errorf("%s: %+v, want failed/reset", u, got)
		}
	}
	// Tries of pages sent together count once; each try asks for robots.txt first.
	if n := conns.Load(); n > int64(2*policy.Tries+2) {
		t.Errorf("the host was asked %d times, want at most %d", n, 2*policy.Tries+2)
	}
	mu.Lock()
	said := strings.Join(runningNotes, "\n")
	mu.Unlock()
	if !strings.Contains(said, "gave up on a host that does not answer: "+bad+" (connection closed by the server") {
		t.Errorf("the progress never said the host was given up: %q", said)
	}
	if rec, _ := st.Crawl(context.Background(), p.CrawlID); !strings.Contains(rec.Note, bad) || !strings.Contains(rec.Note, "tried again on the next run") {
		t.Errorf("the run's note: %q", rec.Note)
	}

	// The next run tries its pages again: now something answers there.
	stopBad()
	l, err := net.Listen("tcp", bad)
	if err != nil {
		t.Skipf("the port was taken meanwhile: %v", err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, page("Back", "answering now"))
	}))
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	defer srv.Close()
	run(t, st, cfg)
	for _, u := range []string{badURL("/"), badURL("/p3.html")} {
		if got := pageOf(t, st, u); got.state != store.StateFetched {
			t.Errorf("next run: %s is %+v, want fetched", u, got)
		}
	}
}
