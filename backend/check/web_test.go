package check

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mundaneum/backend/store"
)

// testWeb is a small site with a link for every verdict: HEAD refused, 429 then fine,
// redirect chains and loops, DNS failure, refused connections, slow answers, bot walls,
// robots.txt exclusions, Expires, Owner meta and content that changes between runs.
type testWeb struct {
	*httptest.Server
	mu      sync.Mutex
	hits    map[string]int // requests per "METHOD path"
	version atomic.Int64   // bumps /changing's content
	busy    atomic.Int64   // 429s still to send for /busy
	refused string         // a URL whose port refuses connections
}

func page(title, head, body string) string {
	return "<!doctype html><html><head><title>" + title + "</title>" + head + "</head><body>" + body + "</body></html>"
}

func newTestWeb(t *testing.T) *testWeb {
	t.Helper()
	w := &testWeb{hits: map[string]int{}}
	w.busy.Store(1)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	w.refused = "http://" + l.Addr().String() + "/nobody-home"
	l.Close()

	mux := http.NewServeMux()
	html := func(path, body string, hdr ...string) {
		mux.HandleFunc(path, func(rw http.ResponseWriter, r *http.Request) {
			rw.Header().Set("Content-Type", "text/html; charset=utf-8")
			for i := 0; i+1 < len(hdr); i += 2 {
				rw.Header().Set(hdr[i], hdr[i+1])
			}
			fmt.Fprint(rw, body)
		})
	}
	mux.HandleFunc("/robots.txt", func(rw http.ResponseWriter, r *http.Request) {
		fmt.Fprint(rw, "User-agent: *\nDisallow: /private/\n")
	})
	html("/{$}", page("Home", `<meta http-equiv="Owner" content="Webmaster">`, `
		<a href="/docs/">docs</a> <a href="/about">about</a>
		<a href="/missing">missing</a> <a href="/gone">gone</a>
		<a href="/nohead">no head</a> <a href="/busy">busy</a>
		<a href="/old">old</a> <a href="/temp">temp</a> <a href="/loop1">loop</a>
		<a href="/private/diary">diary</a> <a href="/walled">walled</a> <a href="/login">login</a>
		<a href="/broken-server">500</a> <a href="/slow">slow</a>
		<a href="http://nonexistent.invalid/page">nowhere</a>
		<a href="`+w.refusedURL()+`">refused</a>
		<a href="/changing">changing</a> <a href="/expiring">expiring</a>
		<a href="/avoided/x">avoided</a> <a href="mailto:someone@example.org">mail</a>
		<form action="/search"><input name=q></form>
		<img src="/logo.png" alt="logo"> <a href="/paper.pdf">paper</a>
		<a href="http://[::1">bad</a>`))
	html("/about", page("About", `<meta name="owner" content="someone-else">`, `<a href="/">home</a> <a href="/about/team">team</a>`))
	html("/about/team", page("Team", "", `team`))
	html("/docs/", page("Docs", `<meta name="owner" content="webmaster">`, `<a href="guide.html">guide</a> <a href="/">up</a> <a href="/other/x.html">outside the tree</a>`))
	html("/docs/guide.html", page("Guide", "", `<a href="/docs/">index</a> <img src="/logo.png">`))
	html("/other/x.html", page("Other", "", `<a href="/other/y.html">y</a>`))
	html("/new", page("New home", "", "moved here"))
	html("/expiring", page("Expiring", `<meta http-equiv="Expires" content="`+time.Now().Add(48*time.Hour).UTC().Format(http.TimeFormat)+`">`, "soon gone"))
	mux.HandleFunc("/changing", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html")
		fmt.Fprint(rw, page("Changing", "", fmt.Sprintf("version %d", w.version.Load())))
	})
	logoModified := time.Now().Add(-24 * time.Hour).UTC().Format(http.TimeFormat)
	mux.HandleFunc("/logo.png", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "image/png")
		rw.Header().Set("Last-Modified", logoModified)
		rw.Write([]byte("\x89PNG...."))
	})
	mux.HandleFunc("/paper.pdf", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "application/pdf")
		rw.Write([]byte(strings.Repeat("%PDF", 1000)))
	})
	mux.HandleFunc("/nohead", func(rw http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			rw.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		fmt.Fprint(rw, "fine")
	})
	mux.HandleFunc("/busy", func(rw http.ResponseWriter, r *http.Request) {
		if w.busy.Add(-1) >= 0 {
			rw.Header().Set("Retry-After", "1")
			rw.WriteHeader(http.StatusTooManyRequests)
			return
		}
		fmt.Fprint(rw, "now fine")
	})
	mux.HandleFunc("/gone", func(rw http.ResponseWriter, r *http.Request) { rw.WriteHeader(http.StatusGone) })
	mux.HandleFunc("/old", func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, "/older", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/older", func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, "/new", http.StatusPermanentRedirect)
	})
	mux.HandleFunc("/temp", func(rw http.ResponseWriter, r *http.Request) { http.Redirect(rw, r, "/new", http.StatusFound) })
	mux.HandleFunc("/loop1", func(rw http.ResponseWriter, r *http.Request) { http.Redirect(rw, r, "/loop2", http.StatusFound) })
	mux.HandleFunc("/loop2", func(rw http.ResponseWriter, r *http.Request) { http.Redirect(rw, r, "/loop1", http.StatusFound) })
	mux.HandleFunc("/walled", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Cf-Mitigated", "challenge")
		rw.WriteHeader(http.StatusForbidden)
	})
	mux.HandleFunc("/login", func(rw http.ResponseWriter, r *http.Request) { rw.WriteHeader(http.StatusUnauthorized) })
	mux.HandleFunc("/broken-server", func(rw http.ResponseWriter, r *http.Request) { rw.WriteHeader(http.StatusInternalServerError) })
	mux.HandleFunc("/slow", func(rw http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(10 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/", func(rw http.ResponseWriter, r *http.Request) { http.NotFound(rw, r) })
	w.Server = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w.mu.Lock()
		w.hits[r.Method+" "+r.URL.Path]++
		w.mu.Unlock()
		mux.ServeHTTP(rw, r)
	}))
	t.Cleanup(w.Close)
	return w
}

func (w *testWeb) refusedURL() string { return w.refused }

// count returns the requests made for a path, by any method.
func (w *testWeb) count(path string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.hits["GET "+path] + w.hits["HEAD "+path]
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// testConfig makes a run fast against loopback: no delay, short timeouts and retries. Its
// probe finds this machine online (the tests' own idea of "the internet" is a loopback
// listener: the machine the tests run on may have no network at all).
func testConfig() Config {
	return Config{UserAgent: "Mundaneum-test/0.1 (check tests)", Agents: 8, PerHost: 4, Timeout: 1500 * time.Millisecond,
		Retries: 1, MaxRetryAfter: 2 * time.Second, Dead: DeadPolicy{Checks: 2, Span: 0}, Probe: onlineProbe}
}

var (
	internetOnce sync.Once
	internet     string // a loopback listener that accepts connections, standing for the internet
)

// onlineProbe connects to a listener that is always there: this machine is online.
func onlineProbe(ctx context.Context) error {
	internetOnce.Do(func() {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			panic(err)
		}
		internet = l.Addr().String()
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		}()
	})
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", internet)
	if err == nil {
		c.Close()
	}
	return err
}

// offlineProbe connects to a port where nothing listens: this machine is offline.
func offlineProbe(ctx context.Context) error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	addr := l.Addr().String()
	l.Close()
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err == nil {
		c.Close()
		return nil
	}
	return fmt.Errorf("no connection to the internet: %w", err)
}
