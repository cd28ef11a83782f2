package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

func TestProbe(t *testing.T) {
	var mu sync.Mutex
	var log []string
	mux := http.NewServeMux()
	record := func(r *http.Request) {
		mu.Lock()
		log = append(log, r.Method+" "+r.URL.Path+" "+r.Header.Get("Referer"))
		mu.Unlock()
	}
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		record(r)
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(strings.Repeat("x", 100<<10)))
	})
	mux.HandleFunc("/nohead", func(w http.ResponseWriter, r *http.Request) {
		record(r)
		if r.Method == http.MethodHead {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Write([]byte("fine"))
	})
	mux.HandleFunc("/liar/", func(w http.ResponseWriter, r *http.Request) {
		record(r)
		if r.Method == http.MethodHead {
			w.WriteHeader(http.StatusNotFound) // some servers do
			return
		}
		w.Write([]byte("fine"))
	})
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) {
		record(r)
		w.WriteHeader(http.StatusGone)
	})
	mux.HandleFunc("/busy", func(w http.ResponseWriter, r *http.Request) {
		record(r)
		w.WriteHeader(http.StatusTooManyRequests)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := newClient(Config{})
	ctx := context.Background()
	probe := func(path string) *Response {
		t.Helper()
		mu.Lock()
		log = nil
		mu.Unlock()
		resp, err := c.Probe(ctx, Request{URL: srv.URL + path, Referer: "http://from.example/doc"})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return resp
	}
	requests := func() string {
		mu.Lock()
		defer mu.Unlock()
		return strings.Join(log, "; ")
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	if r := probe("/ok"); r.Status != 200 || r.Method != "HEAD" || r.Body != nil || requests() != "HEAD /ok http://from.example/doc" {
		t.Errorf("/ok: %d %s %q", r.Status, r.Method, requests())
	}
	if r := probe("/gone"); r.Status != 410 || r.Method != "GET" || !strings.Contains(requests(), "GET /gone") {
		t.Errorf("/gone is confirmed by GET: %d %s %q", r.Status, r.Method, requests())
	}
	if r := probe("/busy"); r.Status != 429 || requests() != "HEAD /busy http://from.example/doc" {
		t.Errorf("/busy is not asked twice: %d %q", r.Status, requests())
	}
	if c.LiesAboutHEAD(host) {
		t.Fatal("a host whose HEAD answers were confirmed by GET is taken for a liar")
	}
	if r := probe("/nohead"); r.Status != 200 || r.Method != "GET" || requests() != "HEAD /nohead http://from.example/doc; GET /nohead http://from.example/doc" {
		t.Errorf("/nohead: %d %s %q", r.Status, r.Method, requests())
	}
	if !c.LiesAboutHEAD(host) {
		t.Fatal("the host that refused HEAD is not remembered")
	}
	if r := probe("/liar/b"); r.Status != 200 || requests() != "GET /liar/b http://from.example/doc" {
		t.Errorf("a known liar is probed with GET only: %d %q", r.Status, requests())
	}
	c2 := newClient(Config{})
	if r, err := c2.Probe(ctx, Request{URL: srv.URL + "/liar/a"}); err != nil || r.Status != 200 || r.Method != "GET" || !c2.LiesAboutHEAD(host) {
		t.Errorf("HEAD 404, GET 200: %+v %v", r, err)
	}
}
