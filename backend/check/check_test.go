package check

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestCheckURLsGivesEveryVerdict(t *testing.T) {
	t.Parallel()
	w := newTestWeb(t)
	st := openStore(t)
	want := []struct {
		path   string
		kind   Kind
		code   string
		status int
	}{
		{"/", OK, CodeOK, 200},
		{"/missing", Broken, CodeNotFound, 404},
		{"/gone", Broken, CodeGone, 410},
		{"/nohead", OK, CodeOK, 200},
		{"/busy", OK, CodeOK, 200},
		{"/old", Redirected, CodeMoved, 200},
		{"/temp", Redirected, CodeFound, 200},
		{"/loop1", Broken, CodeLoop, 302},
		{"/private/diary", RobotsExcluded, CodeRobots, 0},
		{"/walled", Blocked, CodeBotWall, 403},
		{"/login", Blocked, CodeAuth, 401},
		{"/broken-server", ServerError, CodeServer, 500},
		{"/slow", Timeout, CodeTimeout, 0},
		{"http://nonexistent.invalid/page", Broken, CodeDNS, 0},
		{w.refusedURL(), Broken, CodeRefused, 0},
		{"ftp://example.org/file", Invalid, CodeScheme, 0},
		{"http://[::1", Invalid, CodeBadURL, 0},
	}
	var urls []string
	for _, c := range want {
		u := c.path
		if u[0] == '/' {
			u = w.URL + u
		}
		urls = append(urls, u)
	}
	res, err := Run(context.Background(), st, testConfig(), Request{URLs: urls}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Links) != len(want) {
		t.Fatalf("%d results for %d links", len(res.Links), len(want))
	}
	for i, c := range want {
		v := res.Links[i].Verdict
		if v.Kind != c.kind || v.Code != c.code || v.Status != c.status {
			t.Errorf("%s: %s/%s %d (%s), want %s/%s %d", c.path, v.Kind, v.Code, v.Status, v.Reason, c.kind, c.code, c.status)
		}
	}
	old := res.Links[5].Verdict
	if !old.Permanent || old.FinalURL != w.URL+"/new" || len(old.Chain) != 2 || old.Chain[0].Status != 301 || old.Chain[1].Status != 308 {
		t.Errorf("/old: %+v", old)
	}
	if res.Links[6].Verdict.Permanent {
		t.Error("/temp's 302 is not a permanent move")
	}
	if w.count("/private/diary") != 0 {
		t.Error("robots.txt was not honoured")
	}
	if got := w.hits["HEAD /busy"] + w.hits["GET /busy"]; got != 2 {
		t.Errorf("/busy asked %d times, want 2 (429, then a retry after Retry-After)", got)
	}
	if res.Run.State != "done" || res.Run.Tested != int64(len(want)) {
		t.Errorf("run = %+v", res.Run)
	}
	// Every check is kept.
	hist, err := st.CheckHistory(context.Background(), w.URL+"/missing", 10)
	if err != nil || len(hist) != 1 || hist[0].Verdict != "broken" {
		t.Fatalf("history = %+v, %v", hist, err)
	}
	_ = time.Second
}

func TestHostsThatFailAreGivenUp(t *testing.T) {
	t.Parallel()
	var limited, pages atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/limited/", func(rw http.ResponseWriter, r *http.Request) {
		limited.Add(1)
		rw.Header().Set("Retry-After", "3600") // longer than a run waits
		rw.WriteHeader(http.StatusTooManyRequests)
	})
	var body strings.Builder
	for i := range 40 {
		fmt.Fprintf(&body, `<a href="http://nonexistent.invalid/%d">x</a> <a href="/limited/%d">y</a>`, i, i)
	}
	mux.HandleFunc("/{$}", func(rw http.ResponseWriter, r *http.Request) {
		pages.Add(1)
		rw.Header().Set("Content-Type", "text/html")
		fmt.Fprint(rw, page("links", "", body.String()))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	st := openStore(t)
	task := addTask(t, st, Task{Name: "t", Type: Site, Top: srv.URL + "/"})
	res := runTasks(t, st, task)
	m := loadModel(t, st, res.Reports[0].ReportID)
	var dns, rl int
	for _, l := range m.Links {
		switch {
		case l.Verdict == "broken" && strings.Contains(l.Reason, "DNS"):
			dns++
		case l.Verdict == "rate_limited":
			rl++
		}
	}
	if dns != 40 || rl != 40 {
		t.Errorf("dns %d rate-limited %d, want 40 each", dns, rl)
	}
	// A host that keeps answering 429 is asked a few times, not forty.
	if n := limited.Load(); n > hostLimited+1 {
		t.Errorf("the rate-limited host was asked %d times", n)
	}
}

func TestInternalOnlyLeavesOtherSitesUntested(t *testing.T) {
	t.Parallel()
	w := newTestWeb(t)
	st := openStore(t)
	task := addTask(t, st, Task{Name: "t", Type: Site, Top: w.URL + "/", Options: Options{InternalOnly: true}})
	res := runTasks(t, st, task)
	m := loadModel(t, st, res.Reports[0].ReportID)
	if l := linkOf(m, "http://nonexistent.invalid/page"); l == nil || l.Tested {
		t.Errorf("a link elsewhere: %+v", l)
	}
	if l := linkOf(m, w.URL+"/missing"); l == nil || l.Verdict != "broken" {
		t.Errorf("a link inside: %+v", l)
	}
}
