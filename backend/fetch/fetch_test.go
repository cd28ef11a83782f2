package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const testUA = "Mundaneum-test/0.1 (+https://example.invalid; research crawler)"

func newClient(cfg Config) *Client {
	if cfg.UserAgent == "" {
		cfg.UserAgent = testUA
	}
	return New(cfg)
}

// serveBytes returns a handler sending body with the given headers.
func serveBytes(ctype, enc string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		} else {
			w.Header()["Content-Type"] = nil // no sniffing: really no type
		}
		if enc != "" {
			w.Header().Set("Content-Encoding", enc)
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	}
}

func TestDoSendsHeaders(t *testing.T) {
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	c := newClient(Config{From: "crawler@example.invalid"})
	if _, err := c.Do(context.Background(), Request{URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{
		"User-Agent":      testUA,
		"From":            "crawler@example.invalid",
		"Accept":          DefaultAcceptHeader,
		"Accept-Encoding": "gzip, deflate, br",
	} {
		if got.Get(k) != want {
			t.Errorf("%s = %q, want %q", k, got.Get(k), want)
		}
	}
}

func TestDoNoUserAgent(t *testing.T) {
	if _, err := New(Config{}).Do(context.Background(), Request{URL: "http://127.0.0.1:1/"}); err == nil {
		t.Fatal("want an error without a user agent")
	}
}

func TestDoUnwantedType(t *testing.T) {
	big := make([]byte, 4<<20)
	small := make([]byte, 1000)
	var bigSent atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/big.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Header().Set("Content-Length", strconv.Itoa(len(big)))
		n, _ := w.Write(big)
		bigSent.Store(int64(n))
	})
	mux.HandleFunc("/small.png", serveBytes("image/png", "", small))
	mux.HandleFunc("/none", serveBytes("", "", []byte("<html>no type</html>")))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := newClient(Config{})

	resp, err := c.Do(context.Background(), Request{URL: srv.URL + "/big.png"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Wanted || resp.Body != nil || resp.MediaType != "image/png" || resp.WireBytes != 0 {
		t.Errorf("big image: wanted %v body %d wire %d type %q", resp.Wanted, len(resp.Body), resp.WireBytes, resp.MediaType)
	}
	resp, err = c.Do(context.Background(), Request{URL: srv.URL + "/small.png"})
	if err != nil || resp.Wanted || resp.Body != nil || resp.WireBytes != 1000 {
		t.Errorf("small image: err %v wanted %v wire %d (want drained 1000)", err, resp.Wanted, resp.WireBytes)
	}
	// A body with no Content-Type at all is not wanted by the default Accept.
	resp, err = c.Do(context.Background(), Request{URL: srv.URL + "/none"})
	if err != nil || resp.Wanted || resp.MediaType != "" {
		t.Errorf("no type: err %v wanted %v type %q", err, resp.Wanted, resp.MediaType)
	}
	// A custom Accept takes images.
	c2 := newClient(Config{Accept: func(mt string) bool { return strings.HasPrefix(mt, "image/") }})
	resp, err = c2.Do(context.Background(), Request{URL: srv.URL + "/small.png"})
	if err != nil || !resp.Wanted || len(resp.Body) != 1000 {
		t.Errorf("custom accept: err %v wanted %v", err, resp.Wanted)
	}
}

func TestDoConditional(t *testing.T) {
	const etag = `"v1"`
	lastMod := time.Date(1994, 3, 1, 12, 0, 0, 0, time.UTC).Format(http.TimeFormat)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", etag)
		w.Header().Set("Last-Modified", lastMod)
		if r.Header.Get("If-None-Match") == etag || r.Header.Get("If-Modified-Since") == lastMod {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<title>v1</title>")
	}))
	defer srv.Close()
	c := newClient(Config{})
	first, err := c.Do(context.Background(), Request{URL: srv.URL})
	if err != nil || first.Status != 200 || string(first.Body) != "<title>v1</title>" {
		t.Fatalf("first fetch: %v", err)
	}
	for _, req := range []Request{
		{URL: srv.URL, ETag: first.Header.Get("ETag")},
		{URL: srv.URL, LastModified: first.Header.Get("Last-Modified")},
	} {
		resp, err := c.Do(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Status != http.StatusNotModified || resp.Body != nil || resp.Wanted {
			t.Errorf("%+v: status %d body %q", req, resp.Status, resp.Body)
		}
	}
}

func TestDoHead(t *testing.T) {
	var method string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		method = r.Method
		serveBytes("text/html", "", []byte("<p>body</p>"))(w, r)
	}))
	defer srv.Close()
	resp, err := newClient(Config{}).Do(context.Background(), Request{URL: srv.URL, Method: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	if method != "HEAD" || resp.Status != 200 || resp.Body != nil || resp.Wanted || resp.ContentLength != 11 {
		t.Errorf("method %s status %d body %q wanted %v cl %d", method, resp.Status, resp.Body, resp.Wanted, resp.ContentLength)
	}
	if _, err := newClient(Config{}).Do(context.Background(), Request{URL: srv.URL, Method: "POST"}); err == nil {
		t.Error("POST should be refused")
	}
}

func TestDoRedirectNotFollowed(t *testing.T) {
	var hits atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/old/page", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "../new/page?x=1", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/new/page", func(w http.ResponseWriter, r *http.Request) { hits.Add(1) })
	mux.HandleFunc("/abs", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "https://other.example/x#frag")
		w.WriteHeader(http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := newClient(Config{})
	resp, err := c.Do(context.Background(), Request{URL: srv.URL + "/old/page"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 301 || resp.Location != srv.URL+"/new/page?x=1" || hits.Load() != 0 {
		t.Errorf("status %d location %q hits %d", resp.Status, resp.Location, hits.Load())
	}
	if resp.Body != nil || resp.Wanted {
		t.Error("a redirect's body is not wanted")
	}
	resp, err = c.Do(context.Background(), Request{URL: srv.URL + "/abs"})
	if err != nil || resp.Location != "https://other.example/x#frag" {
		t.Errorf("absolute location: %v %q", err, resp.Location)
	}
}

func TestDoErrors(t *testing.T) {
	c := newClient(Config{})
	_, err := c.Do(context.Background(), Request{URL: "ftp://127.0.0.1/file"})
	if !errors.Is(err, ErrScheme) || Classify(err) != CodeScheme {
		t.Errorf("ftp: %v", err)
	}
	_, err = c.Do(context.Background(), Request{URL: "javascript:alert(1)"})
	if Classify(err) != CodeScheme {
		t.Errorf("javascript: %v", err)
	}
	// A port nobody listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, err = c.Do(context.Background(), Request{URL: "http://" + addr + "/"})
	if Classify(err) != CodeRefused {
		t.Errorf("closed port: %q %v", Classify(err), err)
	}
	// A cancelled context.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = c.Do(ctx, Request{URL: "http://" + addr + "/"})
	if Classify(err) != CodeCanceled {
		t.Errorf("cancelled: %q %v", Classify(err), err)
	}
	// A server that hangs up without answering.
	l, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			buf := make([]byte, 1024)
			conn.Read(buf)
			conn.Close()
		}
	}()
	_, err = c.Do(context.Background(), Request{URL: "http://" + l.Addr().String() + "/"})
	if Classify(err) != CodeReset {
		t.Errorf("hang-up: %q %v", Classify(err), err)
	}
}

func TestDoTLSError(t *testing.T) {
	srv := httptest.NewUnstartedServer(serveBytes("text/html", "", []byte("x")))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	defer srv.Close()
	_, err := newClient(Config{}).Do(context.Background(), Request{URL: srv.URL})
	if Classify(err) != CodeTLS {
		t.Errorf("self-signed certificate: %q %v", Classify(err), err)
	}
}

func TestClassifyTable(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{nil, ""},
		{fmt.Errorf("fetch x: %w", &net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}), CodeDNS},
		{fmt.Errorf("fetch x: %w", context.DeadlineExceeded), CodeTimeout},
		{fmt.Errorf("fetch x: %w", io.ErrUnexpectedEOF), CodeReset},
		{fmt.Errorf("fetch x: %w", &net.OpError{Op: "read", Err: errors.New("weird")}), CodeNetwork},
		{errors.New("something else"), CodeOther},
		{fmt.Errorf("x: %w", ErrTooLarge), CodeTooLarge},
	}
	for _, tt := range tests {
		if got := Classify(tt.err); got != tt.want {
			t.Errorf("Classify(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

// TestDoReusesConnections checks that pages, redirects, 404s and unwanted small
// bodies all leave their keep-alive connection reusable.
func TestDoReusesConnections(t *testing.T) {
	page := []byte(strings.Repeat("<p>text</p>", 2000))
	gz := gzipBytes(t, page)
	mux := http.NewServeMux()
	mux.HandleFunc("/page", serveBytes("text/html", "", page))
	mux.HandleFunc("/gz", serveBytes("text/html", "gzip", gz))
	mux.HandleFunc("/gzchunked", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		for i := 0; i < len(gz); i += 1000 {
			w.Write(gz[i:min(i+1000, len(gz))])
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/redir", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/page", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/img", serveBytes("image/gif", "", make([]byte, 500)))
	srv := httptest.NewUnstartedServer(mux)
	var conns atomic.Int32
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	c := newClient(Config{})
	for range 5 {
		for _, p := range []string{"/page", "/gz", "/gzchunked", "/redir", "/missing", "/img"} {
			resp, err := c.Do(context.Background(), Request{URL: srv.URL + p})
			if err != nil {
				t.Fatal(err)
			}
			if (p == "/gz" || p == "/gzchunked") && !bytes.Equal(resp.Body, page) {
				t.Fatalf("%s: body mismatch", p)
			}
		}
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("opened %d connections for 30 sequential requests, want 1", n)
	}
}
