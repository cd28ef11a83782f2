package robots

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// httpGetter is a Getter over net/http: it follows up to 5 redirects (then returns the
// redirect response itself) and reads at most MaxBodySize+1 bytes.
type httpGetter struct {
	client *http.Client
}

func newHTTPGetter() *httpGetter {
	return &httpGetter{client: &http.Client{
		Timeout: 10 * time.Second,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > 5 {
				return http.ErrUseLastResponse
			}
			return nil
		},
	}}
}

func (g *httpGetter) GetRobots(ctx context.Context, robotsURL string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, robotsURL, nil)
	if err != nil {
		return 0, nil, err
	}
	resp, err := g.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBodySize+1))
	if err != nil {
		return 0, nil, err
	}
	return resp.StatusCode, body, nil
}

// memStore is a map-backed Store.
type memStore struct {
	mu      sync.Mutex
	m       map[string]Record
	loads   int
	saves   int
	loadErr error
	saveErr error
}

func newMemStore() *memStore { return &memStore{m: map[string]Record{}} }

func (s *memStore) LoadRobots(ctx context.Context, origin string) (Record, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.loads++
	if s.loadErr != nil {
		return Record{}, false, s.loadErr
	}
	r, ok := s.m[origin]
	return r, ok, nil
}

func (s *memStore) SaveRobots(ctx context.Context, origin string, r Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.saves++
	if s.saveErr != nil {
		return s.saveErr
	}
	s.m[origin] = r
	return nil
}

func (s *memStore) get(origin string) (Record, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.m[origin]
	return r, ok
}

// clock is a settable time source for Cache.Now.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// site is a test origin: an httptest server whose /robots.txt answer can change, counting
// robots.txt requests.
type site struct {
	srv      *httptest.Server
	base     *url.URL
	requests atomic.Int64
	mu       sync.Mutex
	status   int
	body     string
	block    chan struct{} // when non-nil, robots.txt requests wait for it to close
	started  chan struct{} // receives a value when a robots.txt request begins (if non-nil)
}

func newSite(t *testing.T, status int, body string) *site {
	t.Helper()
	s := &site{status: status, body: body}
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		s.mu.Lock()
		status, body, block, started := s.status, s.body, s.block, s.started
		s.mu.Unlock()
		if started != nil {
			select {
			case started <- struct{}{}:
			default:
			}
		}
		if block != nil {
			<-block
		}
		if status >= 300 && status < 400 {
			http.Redirect(w, r, body, status) // body is the redirect target
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(status)
		io.WriteString(w, body)
	})
	mux.HandleFunc("/real-robots.txt", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /moved-rules\n")
	})
	mux.HandleFunc("/loop/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/robots.txt", http.StatusFound)
	})
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	u, err := url.Parse(s.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	s.base = u
	return s
}

func (s *site) set(status int, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status, s.body = status, body
}

func (s *site) url(t *testing.T, pathQuery string) *url.URL {
	t.Helper()
	u, err := url.Parse(s.srv.URL + pathQuery)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func check(t *testing.T, c *Cache, u *url.URL) Decision {
	t.Helper()
	d, err := c.Check(context.Background(), u)
	if err != nil {
		t.Fatalf("Check(%s): %v", u, err)
	}
	return d
}

var errBoom = errors.New("boom")
