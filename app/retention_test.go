package app

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// changingSite serves one page whose text setBody changes between crawls.
func changingSite(t *testing.T) (srv *httptest.Server, setBody func(string)) {
	var mu sync.Mutex
	body := "first"
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, `<title>T</title><p>%s words</p>`, body)
	}))
	t.Cleanup(srv.Close)
	return srv, func(b string) {
		mu.Lock()
		body = b
		mu.Unlock()
	}
}

func TestRetentionThroughBoundAPI(t *testing.T) {
	srv, setBody := changingSite(t)
	a, _, ev, _ := newJobApp(t)
	var id int64
	for _, b := range []string{"first", "second", "third"} {
		setBody(b)
		c, err := a.StartCrawl(CrawlRequest{Seeds: []string{srv.URL + "/"}, Scope: "list", DelayMs: 0, Refresh: true})
		if err != nil {
			t.Fatal(err)
		}
		id = c.ID
		<-ev.crawl
	}
	ws, err := a.Retention(0)
	if err != nil || ws.Keep != "all" || ws.Versions != 3 || ws.Bytes <= 0 {
		t.Fatalf("workspace retention %+v %v", ws, err)
	}
	cr, err := a.SetRetention(id, "last", 2)
	if err != nil || !cr.Own || cr.Keep != "last" || cr.Last != 2 || cr.Versions != 2 || cr.PrunedVersions != 1 {
		t.Fatalf("crawl retention %+v %v", cr, err)
	}
	cr, err = a.SetRetention(id, "default", 0)
	if err != nil || cr.Own || cr.Keep != "all" || cr.Versions != 2 {
		t.Errorf("back to the workspace's %+v %v", cr, err)
	}
	if _, err := a.SetRetention(0, "default", 0); !isCode(err, CodeInvalid) {
		t.Errorf("default for the workspace: %v", err)
	}
	if _, err := a.SetRetention(id, "last", 0); !isCode(err, CodeInvalid) {
		t.Errorf("last 0: %v", err)
	}
	if _, err := a.Retention(999); !isCode(err, CodeNotFound) {
		t.Errorf("no crawl: %v", err)
	}
}

// TestStartCrawlWithRetention sets a crawl's own retention from the crawl form: the setting
// holds from its first fetch, a bad one is refused before any crawl exists, and a resumed
// crawl keeps its setting unless the form names another.
func TestStartCrawlWithRetention(t *testing.T) {
	srv, setBody := changingSite(t)
	a, _, ev, _ := newJobApp(t)
	for _, bad := range []CrawlRequest{{Keep: "last", KeepLast: 0}, {Keep: "some"}, {Keep: "last", KeepLast: -2}} {
		bad.Seeds, bad.Scope = []string{srv.URL + "/"}, "list"
		if _, err := a.StartCrawl(bad); !isCode(err, CodeInvalid) {
			t.Errorf("StartCrawl keep %q last %d: %v, want invalid", bad.Keep, bad.KeepLast, err)
		}
	}
	if cs, _ := a.Crawls(); len(cs) != 0 {
		t.Fatalf("a refused retention left %d crawls", len(cs))
	}
	var id int64
	for i, b := range []string{"first", "second", "third"} {
		setBody(b)
		req := CrawlRequest{Seeds: []string{srv.URL + "/"}, Scope: "list", DelayMs: 0, Refresh: true}
		if i == 0 {
			req.Keep, req.KeepLast = "last", 2
		}
		c, err := a.StartCrawl(req)
		if err != nil {
			t.Fatal(err)
		}
		id = c.ID
		<-ev.crawl
	}
	cr, err := a.Retention(id)
	if err != nil || !cr.Own || cr.Keep != "last" || cr.Last != 2 || cr.Versions != 2 {
		t.Fatalf("crawl retention after three runs %+v %v, want its own last 2 with 2 versions", cr, err)
	}
	c, err := a.StartCrawl(CrawlRequest{Seeds: []string{srv.URL + "/"}, Scope: "list", DelayMs: 0, Keep: "default"})
	if err != nil || c.ID != id {
		t.Fatalf("rerun %+v %v", c, err)
	}
	<-ev.crawl
	if cr, err := a.Retention(id); err != nil || cr.Own {
		t.Errorf("keep default: %+v %v, want the workspace's", cr, err)
	}
}
