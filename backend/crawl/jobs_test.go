package crawl

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"mundaneum/backend/store"
)

// TestJobsRunAgainOnceEnded: whoever hears that a crawl ended can start it again at once (the
// window's Resume after crawl:done); it is not told the crawl still runs.
func TestJobsRunAgainOnceEnded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>T</title><p>words</p>`)
	}))
	defer srv.Close()
	st := openStore(t)
	j := NewJobs(st.Store, st.idx)
	defer j.Close()
	cfg := Config{Seeds: []string{srv.URL + "/"}, Scope: "list", Delay: 0, Refresh: true}
	again := make(chan error, 1)
	second := make(chan Progress, 1)
	_, err := j.Start(context.Background(), cfg, func(p Progress) {
		if p.State == store.CrawlRunning {
			return
		}
		_, err := j.Start(context.Background(), cfg, func(p Progress) {
			if p.State != store.CrawlRunning {
				second <- p
			}
		})
		again <- err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-again; err != nil {
		t.Fatalf("starting the crawl again from its end: %v", err)
	}
	if p := <-second; p.State != store.CrawlDone {
		t.Errorf("second run ended %s", p.State)
	}
}
