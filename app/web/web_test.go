package web

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"mundaneum/app"
	"mundaneum/backend/store"
)

// Calc is a bound object for the tests.
type Calc struct{}

type Req struct {
	Words []string `json:"words"`
	Inner struct {
		N int `json:"n"`
	} `json:"inner"`
}

func (Calc) Add(a, b int) (int, error)              { return a + b, nil }
func (Calc) Echo(r Req) Req                         { return r }
func (Calc) Nothing()                               {}
func (Calc) Fail(code string) error                 { return &app.Error{Code: code, Message: "it failed: " + code} }
func (Calc) Plain() error                           { return errors.New("plain failure") }
func (Calc) Panic() (string, error)                 { panic("boom") }
func (Calc) Pair(s string, n *int64) ([]any, error) { return []any{s, n}, nil }
func (Calc) hidden() string                         { return "secret" }

var _ = Calc.hidden

const testIndex = `<!doctype html>
<html><HEAD lang="en"><meta charset="utf-8"><title>t</title>
<script type="module" src="/assets/app.js"></script></HEAD><body><div id="app"></div></body></html>`

func testAssets() fstest.MapFS {
	return fstest.MapFS{
		"frontend/dist/index.html":    {Data: []byte(testIndex)},
		"frontend/dist/assets/app.js": {Data: []byte("console.log('app')")},
		"frontend/dist/appicon.png":   {Data: []byte("\x89PNG\r\n\x1a\n")},
		"frontend/dist/.gitkeep":      {Data: nil},
		"frontend/dist/assets/x.css":  {Data: []byte("body{}")},
	}
}

// start serves a Server on loopback and returns it with its base URL ("http://127.0.0.1:P").
func start(t *testing.T) (*Server, string) {
	t.Helper()
	srv, err := New(Options{Assets: testAssets(), Bind: []any{&Calc{}}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	return srv, serveOn(t, srv)
}

// serveOn serves srv on a loopback port until the test ends, and returns its base URL.
func serveOn(t *testing.T, srv *Server) string {
	t.Helper()
	ln, exposed, err := Listen("127.0.0.1:0", false)
	if err != nil || exposed {
		t.Fatalf("Listen = %v, exposed %v", err, exposed)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return after cancel")
		}
	})
	return strings.TrimSuffix(URL(ln), "/")
}

// openApp opens a fresh workspace and its App, closed when the test ends.
func openApp(t *testing.T) (*app.App, *store.Store) {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.Detach(a) }) // closes the workspace, and what its searcher started on it
	return a, st
}

// req describes one request; zero fields get the defaults of a well-behaved page.
type req struct {
	method, path, body, host, ctype string
	header                          map[string]string
	noToken                         bool
	token                           string
}

func do(t *testing.T, srv *Server, base string, r req) (*http.Response, string) {
	t.Helper()
	if r.method == "" {
		r.method = http.MethodPost
	}
	hr, err := http.NewRequest(r.method, base+r.path, strings.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	if r.host != "" {
		hr.Host = r.host
	}
	if strings.HasPrefix(r.path, "/api") && !r.noToken {
		tok := srv.Token()
		if r.token != "" {
			tok = r.token
		}
		hr.Header.Set(tokenHeader, tok)
	}
	if r.method == http.MethodPost {
		ct := r.ctype
		if ct == "" {
			ct = "application/json"
		}
		hr.Header.Set("Content-Type", ct)
	}
	for k, v := range r.header {
		hr.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func TestIndexInjectsTokenAndBridge(t *testing.T) {
	srv, base := start(t)
	res, body := do(t, srv, base, req{method: "GET", path: "/"})
	if res.StatusCode != 200 {
		t.Fatalf("GET / = %d", res.StatusCode)
	}
	head := `<HEAD lang="en">`
	want := head + "\n    <meta name=\"mundaneum-token\" content=\"" + srv.Token() + "\" />\n    <script src=\"/_mundaneum/bridge.js\"></script>"
	if !strings.Contains(body, want) {
		t.Fatalf("index lacks the injection right after <head>:\n%s", body)
	}
	if len(srv.Token()) != 64 {
		t.Errorf("token %q is not 32 random bytes in hex", srv.Token())
	}
	other, err := New(Options{Assets: testAssets()})
	if err != nil {
		t.Fatal(err)
	}
	if other.Token() == srv.Token() {
		t.Error("two servers share a token")
	}
	for _, h := range []struct{ name, want string }{
		{"Content-Type", "text/html; charset=utf-8"},
		{"X-Content-Type-Options", "nosniff"},
		{"Referrer-Policy", "no-referrer"},
		{"X-Frame-Options", "DENY"},
		{"Cache-Control", "no-store"},
		{"Cross-Origin-Opener-Policy", "same-origin"},
	} {
		if got := res.Header.Get(h.name); got != h.want {
			t.Errorf("%s = %q, want %q", h.name, got, h.want)
		}
	}
	csp := res.Header.Get("Content-Security-Policy")
	for _, d := range []string{"frame-ancestors 'none'", "script-src 'self';", "object-src 'none'", "base-uri 'none'", "connect-src 'self';"} {
		if !strings.Contains(csp, d) {
			t.Errorf("CSP %q lacks %q", csp, d)
		}
	}
	if strings.Contains(csp, "unsafe-eval") || strings.Contains(csp, "script-src 'self' 'unsafe-inline'") {
		t.Errorf("CSP %q allows inline or eval'd script", csp)
	}
}

func TestBridgeScript(t *testing.T) {
	srv, base := start(t)
	res, body := do(t, srv, base, req{method: "GET", path: "/_mundaneum/bridge.js"})
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/javascript; charset=utf-8" {
		t.Fatalf("bridge = %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	want := `var bindings = {"web":{"Calc":["Add","Echo","Fail","Nothing","Pair","Panic","Plain"]}};`
	if !strings.Contains(body, want) {
		t.Errorf("bridge lacks %s", want)
	}
	if strings.Contains(body, srv.Token()) {
		t.Error("the bridge script carries the token: another origin could load it with <script src>")
	}
}

func TestStaticFiles(t *testing.T) {
	_, base := start(t)
	for _, c := range []struct {
		method, path string
		status       int
		ctype        string
	}{
		{"GET", "/assets/app.js", 200, "text/javascript; charset=utf-8"},
		{"GET", "/assets/x.css", 200, "text/css; charset=utf-8"},
		{"HEAD", "/appicon.png", 200, "image/png"},
		{"GET", "/index.html", 200, "text/html; charset=utf-8"},
		{"GET", "/.gitkeep", 404, ""},
		{"GET", "/assets", 404, ""},
		{"GET", "/assets/", 404, ""},
		{"GET", "/nope.js", 404, ""},
		{"GET", "/assets/../index.html", 404, ""},
		{"GET", "/frontend/dist/index.html", 404, ""},
		{"POST", "/", 405, ""},
		{"PUT", "/assets/app.js", 405, ""},
		{"DELETE", "/", 405, ""},
		{"OPTIONS", "/", 405, ""},
	} {
		hr, _ := http.NewRequest(c.method, base+c.path, nil)
		hr.URL.Opaque = c.path // keep "..", as a hostile client would send it
		res, err := http.DefaultClient.Do(hr)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != c.status {
			t.Errorf("%s %s = %d, want %d", c.method, c.path, res.StatusCode, c.status)
		}
		if c.ctype != "" && res.Header.Get("Content-Type") != c.ctype {
			t.Errorf("%s %s Content-Type = %q, want %q", c.method, c.path, res.Header.Get("Content-Type"), c.ctype)
		}
		if res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("%s %s lacks the security headers", c.method, c.path)
		}
	}
}

func TestCalls(t *testing.T) {
	srv, base := start(t)
	for _, c := range []struct {
		name, path, body string
		status           int
		want             string
	}{
		{"result", "/api/Calc.Add", "[2, 3]", 200, "5"},
		{"struct", "/api/Calc.Echo", `[{"words":["a","<b>"],"inner":{"n":7}}]`, 200, `{"words":["a","\u003cb\u003e"],"inner":{"n":7}}`},
		{"no result", "/api/Calc.Nothing", "[]", 200, "null"},
		{"null is the zero value", "/api/Calc.Pair", `["x", null]`, 200, `["x",null]`},
		{"pointer", "/api/Calc.Pair", `["x", 9]`, 200, `["x",9]`},
		{"app error invalid", "/api/Calc.Fail", `["invalid"]`, 400, `{"code":"invalid","message":"it failed: invalid"}`},
		{"app error not found", "/api/Calc.Fail", `["not-found"]`, 404, `{"code":"not-found","message":"it failed: not-found"}`},
		{"app error conflict", "/api/Calc.Fail", `["conflict"]`, 409, `{"code":"conflict","message":"it failed: conflict"}`},
		{"app error internal", "/api/Calc.Fail", `["internal"]`, 500, `{"code":"internal","message":"it failed: internal"}`},
		{"plain error", "/api/Calc.Plain", `[]`, 500, `{"code":"internal","message":"plain failure"}`},
		{"panic", "/api/Calc.Panic", `[]`, 500, `{"code":"internal","message":"internal error: panic: boom"}`},
		{"unknown method", "/api/Calc.Sub", `[1, 2]`, 404, ""},
		{"unexported method", "/api/Calc.hidden", `[]`, 404, ""},
		{"no type", "/api/Add", `[1, 2]`, 404, ""},
		{"too few args", "/api/Calc.Add", `[1]`, 400, ""},
		{"too many args", "/api/Calc.Add", `[1, 2, 3]`, 400, ""},
		{"wrong type", "/api/Calc.Add", `["1", 2]`, 400, ""},
		{"float for int", "/api/Calc.Add", `[1.5, 2]`, 400, ""},
		{"overflow", "/api/Calc.Add", `[1e30, 2]`, 400, ""},
		{"unknown field", "/api/Calc.Echo", `[{"words":[],"admin":true}]`, 400, ""},
		{"unknown nested field", "/api/Calc.Echo", `[{"inner":{"n":1,"m":2}}]`, 400, ""},
		{"trailing data", "/api/Calc.Add", `[1, 2] [3]`, 400, ""},
		{"trailing garbage", "/api/Calc.Add", `[1, 2]x`, 400, ""},
		{"object body", "/api/Calc.Add", `{"a":1}`, 400, ""},
		{"null body", "/api/Calc.Nothing", `null`, 400, ""},
		{"empty body", "/api/Calc.Nothing", ``, 400, ""},
		{"truncated", "/api/Calc.Add", `[1, `, 400, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, body := do(t, srv, base, req{path: c.path, body: c.body})
			if res.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, c.status, body)
			}
			if c.want != "" && strings.TrimSpace(body) != c.want {
				t.Errorf("body %s, want %s", body, c.want)
			}
			var e apiError
			if c.status != 200 && (json.Unmarshal([]byte(body), &e) != nil || e.Code == "" || e.Message == "") {
				t.Errorf("error body %q is not {code, message}", body)
			}
			if ct := res.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
		})
	}
}

func TestBodyCapped(t *testing.T) {
	defer func(m int64) { maxBody = m }(maxBody)
	maxBody = 1 << 20 // the mechanism, without sending a hundred megabytes
	srv, base := start(t)
	big := `["` + strings.Repeat("a", int(maxBody)) + `", null]`
	res, body := do(t, srv, base, req{path: "/api/Calc.Pair", body: big})
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d: %.200s", res.StatusCode, body)
	}
}

// TestForeignRequestsRefused plays the requests a hostile page (another origin in the same
// browser, or a DNS-rebound name) can make: none reaches a method or the page's token.
func TestForeignRequestsRefused(t *testing.T) {
	srv, base := start(t)
	port := base[strings.LastIndex(base, ":")+1:]
	self := "http://127.0.0.1:" + port
	for _, c := range []struct {
		name string
		r    req
		want int
	}{
		{"well-behaved call", req{path: "/api/Calc.Add", body: "[1,2]", header: map[string]string{"Origin": self, "Sec-Fetch-Site": "same-origin"}}, 200},
		{"localhost host", req{path: "/api/Calc.Add", body: "[1,2]", host: "localhost:" + port}, 200},
		{"ipv6 loopback host", req{path: "/api/Calc.Add", body: "[1,2]", host: "[::1]:" + port}, 200},
		{"no token", req{path: "/api/Calc.Add", body: "[1,2]", noToken: true}, 403},
		{"wrong token", req{path: "/api/Calc.Add", body: "[1,2]", token: strings.Repeat("0", 64)}, 403},
		{"token prefix", req{path: "/api/Calc.Add", body: "[1,2]", token: srv.Token()[:32]}, 403},
		{"token in the query of a call", req{path: "/api/Calc.Add?token=" + srv.Token(), body: "[1,2]", noToken: true}, 403},
		{"other origin", req{path: "/api/Calc.Add", body: "[1,2]", header: map[string]string{"Origin": "http://evil.example"}}, 403},
		{"other port", req{path: "/api/Calc.Add", body: "[1,2]", header: map[string]string{"Origin": "http://127.0.0.1:1"}}, 403},
		{"localhost origin for 127.0.0.1", req{path: "/api/Calc.Add", body: "[1,2]", header: map[string]string{"Origin": "http://localhost:" + port}}, 403},
		{"https origin", req{path: "/api/Calc.Add", body: "[1,2]", header: map[string]string{"Origin": "https://127.0.0.1:" + port}}, 403},
		{"null origin (sandboxed frame)", req{path: "/api/Calc.Add", body: "[1,2]", header: map[string]string{"Origin": "null"}}, 403},
		{"cross-site fetch metadata", req{path: "/api/Calc.Add", body: "[1,2]", header: map[string]string{"Sec-Fetch-Site": "cross-site"}}, 403},
		{"same-site fetch metadata", req{path: "/api/Calc.Add", body: "[1,2]", header: map[string]string{"Sec-Fetch-Site": "same-site"}}, 403},
		{"form post", req{path: "/api/Calc.Add", body: "[1,2]", ctype: "application/x-www-form-urlencoded"}, 415},
		{"text/plain post", req{path: "/api/Calc.Add", body: "[1,2]", ctype: "text/plain"}, 415},
		{"GET a method", req{method: "GET", path: "/api/Calc.Add"}, 405},
		{"rebound name", req{path: "/api/Calc.Add", body: "[1,2]", host: "evil.example:" + port}, 403},
		{"rebound name, index", req{method: "GET", path: "/", host: "evil.example:" + port}, 403},
		{"rebound name without port", req{method: "GET", path: "/", host: "evil.example"}, 403},
		{"localhost subdomain", req{method: "GET", path: "/", host: "evil.localhost:" + port}, 403},
		{"right host, wrong port", req{method: "GET", path: "/", host: "127.0.0.1:1"}, 403},
		{"other address", req{method: "GET", path: "/", host: "10.0.0.1:" + port}, 403},
		{"events without token", req{method: "GET", path: "/api/events", noToken: true}, 403},
		{"events from another origin", req{method: "GET", path: "/api/events?token=" + srv.Token(), noToken: true, header: map[string]string{"Origin": "http://evil.example"}}, 403},
		{"events posted", req{path: "/api/events", body: "[]"}, 405},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, body := do(t, srv, base, c.r)
			if res.StatusCode != c.want {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, c.want, body)
			}
			if c.want == 403 && strings.Contains(body, srv.Token()) {
				t.Error("a refusal carries the token")
			}
		})
	}
}

func TestEvents(t *testing.T) {
	srv, base := start(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hr, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/events?token="+srv.Token(), nil)
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/event-stream; charset=utf-8" {
		t.Fatalf("events = %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	lines := bufio.NewScanner(res.Body)
	next := func() string {
		for lines.Scan() {
			if l := lines.Text(); strings.HasPrefix(l, "data: ") {
				return strings.TrimPrefix(l, "data: ")
			}
		}
		t.Fatalf("stream ended: %v", lines.Err())
		return ""
	}
	// The subscription is registered before the first bytes are sent; wait for them.
	if !lines.Scan() || !strings.HasPrefix(lines.Text(), "retry: ") {
		t.Fatalf("first line %q", lines.Text())
	}
	srv.Emit("crawl:progress", map[string]any{"id": 1, "title": "a\nb</script>"})
	srv.Emit("crawl:done", app.Crawl{ID: 1, State: "done"})
	var e1 struct {
		Name string         `json:"name"`
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal([]byte(next()), &e1); err != nil || e1.Name != "crawl:progress" || e1.Data["title"] != "a\nb</script>" {
		t.Fatalf("first event %+v, %v", e1, err)
	}
	var e2 struct {
		Name string    `json:"name"`
		Data app.Crawl `json:"data"`
	}
	if err := json.Unmarshal([]byte(next()), &e2); err != nil || e2.Name != "crawl:done" || e2.Data.State != "done" {
		t.Fatalf("second event %+v, %v", e2, err)
	}
	// Closing the server ends the stream.
	srv.Close()
	for lines.Scan() {
	}
}

func TestSlowStreamDropped(t *testing.T) {
	h := newHub()
	ch, ok := h.subscribe()
	if !ok {
		t.Fatal("subscribe refused")
	}
	for i := range streamQueue + 1 {
		h.emit("e", i)
	}
	n := 0
	for range ch {
		n++
	}
	if n != streamQueue {
		t.Errorf("got %d queued events before the drop, want %d", n, streamQueue)
	}
	h.unsubscribe(ch) // after a drop: no double close
	for range maxStreams {
		if _, ok := h.subscribe(); !ok {
			t.Fatal("refused below the limit")
		}
	}
	if _, ok := h.subscribe(); ok {
		t.Error("accepted more than maxStreams streams")
	}
	h.close()
	h.close()
	h.emit("after", 1)
}

func TestNewRefuses(t *testing.T) {
	for _, c := range []struct {
		name string
		opts Options
	}{
		{"no assets", Options{Bind: []any{&Calc{}}}},
		{"no index", Options{Assets: fstest.MapFS{"x.js": {}}}},
		{"no head", Options{Assets: fstest.MapFS{"index.html": {Data: []byte("<html><body>")}}}},
		{"value not pointer", Options{Assets: testAssets(), Bind: []any{Calc{}}}},
		{"nil pointer", Options{Assets: testAssets(), Bind: []any{(*Calc)(nil)}}},
		{"bound twice", Options{Assets: testAssets(), Bind: []any{&Calc{}, &Calc{}}}},
		{"func argument", Options{Assets: testAssets(), Bind: []any{&withFunc{}}}},
		{"variadic", Options{Assets: testAssets(), Bind: []any{&withVariadic{}}}},
		{"error first", Options{Assets: testAssets(), Bind: []any{&withBadResults{}}}},
	} {
		if _, err := New(c.opts); err == nil {
			t.Errorf("%s: New succeeded", c.name)
		}
	}
}

type withFunc struct{}

func (withFunc) Do(func()) {}

type withVariadic struct{}

func (withVariadic) Do(...int) {}

type withBadResults struct{}

//lint:ignore ST1008 the order is wrong on purpose: New must refuse it
func (withBadResults) Do() (error, int) { return nil, 0 }

func TestListen(t *testing.T) {
	for _, c := range []struct {
		addr            string
		exposed, failed bool
	}{
		{"127.0.0.1:0", false, false},
		{"localhost:0", false, false},
		{"LOCALHOST:0", false, false},
		{"127.0.0.2:0", false, false},
		{"[::1]:0", false, false},
		{"0.0.0.0:0", true, true},
		{":0", true, true},
		{"[::]:0", true, true},
		{"192.168.1.10:0", true, true},
		{"example.com:80", false, true},
		{"[fe80::1%eth0]:0", false, true},
		{"127.0.0.1", false, true},
	} {
		ln, exposed, err := Listen(c.addr, false)
		if (err != nil) != c.failed {
			t.Errorf("Listen(%q) error %v, want failure %v", c.addr, err, c.failed)
		}
		if ln != nil {
			if !strings.HasPrefix(URL(ln), "http://") {
				t.Errorf("URL %q", URL(ln))
			}
			ln.Close()
		}
		if c.exposed && !errors.Is(err, ErrNotLoopback) {
			t.Errorf("Listen(%q) = %v, want ErrNotLoopback", c.addr, err)
		}
		if exposed {
			t.Errorf("Listen(%q) listened on an exposed address without public", c.addr)
		}
		if e, _ := exposedHost(mustHost(c.addr)); e != c.exposed {
			t.Errorf("exposedHost(%q) = %v, want %v", c.addr, e, c.exposed)
		}
	}
}

func mustHost(addr string) string {
	h, _, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return h
}

func TestURL(t *testing.T) {
	for _, c := range []struct{ addr, want string }{
		{"127.0.0.1:8080", "http://127.0.0.1:8080/"},
		{"0.0.0.0:8080", "http://127.0.0.1:8080/"},
		{"[::]:8080", "http://[::1]:8080/"},
		{"[::1]:80", "http://[::1]:80/"},
	} {
		if got := URL(fakeListener{c.addr}); got != c.want {
			t.Errorf("URL(%s) = %s, want %s", c.addr, got, c.want)
		}
	}
}

type fakeListener struct{ addr string }

func (fakeListener) Accept() (net.Conn, error) { return nil, errors.New("fake") }
func (fakeListener) Close() error              { return nil }
func (f fakeListener) Addr() net.Addr {
	a, _ := net.ResolveTCPAddr("tcp", f.addr)
	return a
}

func TestHostOKWithoutConnection(t *testing.T) {
	// A handler called outside a server (no local address) refuses everything.
	srv, err := New(Options{Assets: testAssets()})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1/", nil))
	if rec.Code != 403 {
		t.Errorf("status %d", rec.Code)
	}
}

// handlerClient calls the API through ServeHTTP with a loopback connection's context.
type handlerClient struct {
	t   *testing.T
	srv *Server
}

func (h *handlerClient) call(method, body string) (int, string) {
	r := httptest.NewRequest("POST", "http://127.0.0.1:8080/api/"+method, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set(tokenHeader, h.srv.Token())
	local := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, local))
	rec := httptest.NewRecorder()
	h.srv.ServeHTTP(rec, r)
	return rec.Code, rec.Body.String()
}
