package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"mundaneum/backend/store"
)

func TestCrawlThroughBoundAPI(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			fmt.Fprint(w, `<title>Répertoire bibliographique universel</title><a href="/two">two</a>`)
			return
		}
		if r.URL.Path == "/two" {
			fmt.Fprint(w, `<title>Second card</title><p>classification</p>`)
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a := New(st)
	var mu sync.Mutex
	events := map[string][]Crawl{}
	done := make(chan struct{}, 1)
	a.startup(context.Background(), func(name string, payload any) {
		mu.Lock()
		events[name] = append(events[name], payload.(Crawl))
		mu.Unlock()
		if name == EventCrawlDone {
			done <- struct{}{}
		}
	})
	defer a.shutdown()

	c, err := a.StartCrawl(CrawlRequest{Seeds: []string{srv.URL + "/"}, Scope: "site", DelayMs: 0})
	if err != nil {
		t.Fatal(err)
	}
	if c.ID == 0 || c.State != store.CrawlRunning {
		t.Fatalf("started crawl = %+v", c)
	}
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("no crawl:done event")
	}
	mu.Lock()
	last := events[EventCrawlDone][0]
	mu.Unlock()
	if last.ID != c.ID || last.State != store.CrawlDone || last.Fetched != 2 {
		t.Fatalf("done event = %+v", last)
	}
	res, err := a.Search("classification", 10)
	if err != nil || res.Total != 1 || res.Results[0].URL != srv.URL+"/two" || res.Results[0].Score != 1000 {
		t.Fatalf("search = %+v, %v", res, err)
	}
	s, err := a.Status()
	if err != nil || s.Fetched != 2 || s.Hosts != 1 {
		t.Fatalf("status = %+v, %v", s, err)
	}
	cs, err := a.Crawls()
	if err != nil || len(cs) != 1 || cs[0].StartedAt == "" || cs[0].FinishedAt == "" {
		t.Fatalf("crawls = %+v, %v", cs, err)
	}
	if _, err := time.Parse(time.RFC3339, cs[0].StartedAt); err != nil {
		t.Fatalf("startedAt not RFC 3339: %v", err)
	}
}

func TestErrorsCarryCodes(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a := New(st)
	defer a.shutdown()
	for _, tc := range []struct {
		err  error
		code string
	}{
		{func() error { _, err := a.StartCrawl(CrawlRequest{Seeds: []string{"javascript:alert(1)"}}); return err }(), CodeInvalid},
		{func() error { _, err := a.ResumeCrawl(999); return err }(), CodeNotFound},
		{a.PauseCrawl(999), CodeConflict},
	} {
		var e *Error
		if !errors.As(tc.err, &e) || e.Code != tc.code {
			t.Errorf("err %v: want code %s", tc.err, tc.code)
			continue
		}
		var decoded Error
		if err := json.Unmarshal([]byte(e.Error()), &decoded); err != nil || decoded.Code != tc.code {
			t.Errorf("message %q does not carry the code as JSON", e.Error())
		}
	}
}
