package fetch

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

func TestGetRobots(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots-final.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gzipBytes(t, []byte("User-agent: *\nDisallow: /private/\n")))
	}))
	defer other.Close()
	big := bytes.Repeat([]byte("Disallow: /x\n"), 100000)
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/hop/1", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/hop/", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/hop/"))
		if n < 3 {
			http.Redirect(w, r, "/hop/"+strconv.Itoa(n+1), http.StatusFound)
			return
		}
		http.Redirect(w, r, other.URL+"/robots-final.txt", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/big", serveBytes("text/html", "", big)) // wrong type is still read
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "gone", http.StatusGone) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := newClient(Config{})

	status, body, err := c.GetRobots(context.Background(), srv.URL+"/robots.txt")
	if err != nil || status != 200 || string(body) != "User-agent: *\nDisallow: /private/\n" {
		t.Errorf("redirected robots: %d %q %v", status, body, err)
	}
	status, body, err = c.GetRobots(context.Background(), srv.URL+"/loop")
	if err != nil || status != 302 || body != nil {
		t.Errorf("redirect loop: %d %q %v", status, body, err)
	}
	status, body, err = c.GetRobots(context.Background(), srv.URL+"/big")
	if err != nil || status != 200 || !bytes.Equal(body, big[:RobotsMaxBody]) {
		t.Errorf("big robots: %d %d bytes %v", status, len(body), err)
	}
	status, body, err = c.GetRobots(context.Background(), srv.URL+"/gone")
	if err != nil || status != 410 || body != nil {
		t.Errorf("gone: %d %q %v", status, body, err)
	}
	if _, _, err := c.GetRobots(context.Background(), "file:///etc/passwd"); Classify(err) != CodeScheme {
		t.Errorf("file scheme: %v", err)
	}
}
