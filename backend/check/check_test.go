package check

import (
	"context"
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
	hist, err := st.History(context.Background(), w.URL+"/missing", 10)
	if err != nil || len(hist) != 1 || hist[0].Verdict != "broken" {
		t.Fatalf("history = %+v, %v", hist, err)
	}
	_ = time.Second
}
