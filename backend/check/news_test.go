package check

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mundaneum/backend/check/report"
)

// citingWeb is a site whose top links to 8 pages; each page (and the top) links to a page
// that is missing and to one that moved permanently to a page modified today (so that the
// moved URL is news of two kinds: moved and changed).
func citingWeb(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	html := func(rw http.ResponseWriter, body string) {
		rw.Header().Set("Content-Type", "text/html")
		fmt.Fprint(rw, page("p", "", body))
	}
	mux.HandleFunc("/{$}", func(rw http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		for i := range 8 {
			fmt.Fprintf(&b, `<a href="/p%d.html">%d</a> `, i, i)
		}
		html(rw, b.String()+`<a href="/missing">m</a> <a href="/old">o</a>`)
	})
	for i := range 8 {
		mux.HandleFunc(fmt.Sprintf("/p%d.html", i), func(rw http.ResponseWriter, r *http.Request) {
			html(rw, `<a href="/missing">m</a> <img src="/missing"> <a href="/old">o</a>`)
		})
	}
	mux.HandleFunc("/old", func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, "/new", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/new", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Last-Modified", time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat))
		html(rw, "new")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func newsItem(items []report.Item, url string) *report.Item {
	for i := range items {
		if items[i].URL == url {
			return &items[i]
		}
	}
	return nil
}

// The news lists the first documents that cite each item and counts the rest; an item
// that is news of two kinds is cross-referenced in both; JSON has lists, never null.
func TestNewsSaysWhoElseCitesIt(t *testing.T) {
	t.Parallel()
	srv := citingWeb(t)
	st := openStore(t)
	task := addTask(t, st, Task{Name: "cites", Type: Site, Top: srv.URL + "/", Options: Options{Report: DefaultReport}})
	res := runTasks(t, st, task)
	m := loadModel(t, st, res.Reports[0].ReportID)

	// The top and its 8 pages cite /missing (the pages twice: a link and an image).
	broken := newsItem(m.News.Broken, srv.URL+"/missing")
	if broken == nil || len(broken.From) != report.MaxFrom || broken.FromMore != 9-report.MaxFrom {
		t.Fatalf("broken = %+v", broken)
	}
	if broken.From[0] != srv.URL+"/" {
		t.Errorf("the first citing document is %s, not the top", broken.From[0])
	}
	moved := newsItem(m.News.Moved, srv.URL+"/old")
	changed := newsItem(m.News.Changed, srv.URL+"/old")
	if moved == nil || changed == nil {
		t.Fatalf("/old is not news of both kinds: moved %+v, changed %+v", moved, changed)
	}
	for _, it := range []*report.Item{moved, changed} {
		if len(it.From) != report.MaxFrom || it.FromMore != 9-report.MaxFrom {
			t.Errorf("%s: cited by %v and %d more, want %d and %d more", it.URL, it.From, it.FromMore, report.MaxFrom, 9-report.MaxFrom)
		}
	}

	subject, body := MailText(task, m)
	if !strings.Contains(body, "and by 4 more documents") {
		t.Errorf("the mail does not say who else cites it (%s):\n%s", subject, body)
	}
	var html bytes.Buffer
	if err := report.WriteHTML(&html, m); err != nil || !strings.Contains(html.String(), "and 4 more documents") {
		t.Errorf("the HTML index does not say who else cites it (%v)", err)
	}

	var js bytes.Buffer
	if err := report.WriteJSON(&js, m); err != nil {
		t.Fatal(err)
	}
	var raw struct {
		News map[string]json.RawMessage `json:"news"`
	}
	if err := json.Unmarshal(js.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	if got := string(raw.News["expiring"]); got != "[]" {
		t.Errorf(`"expiring": %s, want []`, got)
	}
	empty, err := json.Marshal(report.News{})
	if err != nil || string(empty) != `{"moved":[],"broken":[],"changed":[],"expiring":[],"fragments":[]}` {
		t.Errorf("empty news = %s, %v", empty, err)
	}
}

// A report counts its distinct URLs among the references (never more URLs than
// references), and says of a broken link that is not dead yet how soon it can be (issue
// 28, item 11).
func TestReportCountsAndFailingLinks(t *testing.T) {
	t.Parallel()
	srv := citingWeb(t)
	st := openStore(t)
	lib := LibraryFunc(func(_ context.Context, path string) ([]LibraryFolder, error) {
		return []LibraryFolder{
			{Path: "/Res", Pointers: []LibraryPointer{{ID: 2, URL: srv.URL + "/old"}, {ID: 3, URL: srv.URL + "/missing"}, {ID: 4, URL: srv.URL + "/new"}}},
			{Path: "/Res/Sub", Pointers: []LibraryPointer{{ID: 6, URL: srv.URL + "/old"}}},
		}, nil
	})
	task := addTask(t, st, Task{Name: "links", Type: Library, Top: "/Res", Options: Options{Report: DefaultReport}})
	cfg := testConfig()
	cfg.Dead = DeadPolicy{Checks: 3, Span: 7 * 24 * time.Hour}
	res, err := Run(context.Background(), st, cfg, Request{Tasks: []Task{task}, Library: lib}, nil)
	if err != nil || res.Reports[0].Err != "" {
		t.Fatalf("run: %v %+v", err, res.Reports)
	}
	m := loadModel(t, st, res.Reports[0].ReportID)
	c := m.Counts
	if c.Documents != 2 || c.References != 4 || c.Links != 3 || c.Tested != 3 {
		t.Errorf("counts = %+v, want 2 libraries, 4 pointers, 3 distinct URLs, 3 tested", c)
	}
	if got, want := c.Summary("library"), "2 libraries with 4 pointers to 3 distinct URLs; 3 URLs tested"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	week := time.Now().Add(7 * 24 * time.Hour).UTC().Format("2006-01-02")
	if c.Failing != 1 || c.DeadFrom != week || c.ChecksLeft != 2 {
		t.Errorf("failing %d, dead from %q after %d checks; want 1, %s, 2", c.Failing, c.DeadFrom, c.ChecksLeft, week)
	}
	want := "1 failing, not dead until " + week + " and 2 more failing checks"
	if got := report.FailingText(c.Failing, c.DeadFrom, c.ChecksLeft); got != want {
		t.Errorf("failing text %q, want %q", got, want)
	}
	if n := res.Reports[0].News; n.FailingText() != want {
		t.Errorf("the run's news says %q, want %q", n.FailingText(), want)
	}
	it := newsItem(m.News.Broken, srv.URL+"/missing")
	if it == nil || it.DeadFrom != week || it.ChecksLeft != 2 {
		t.Errorf("broken item = %+v", it)
	}
	// Referenced by: the library that holds the moved pointer.
	if mv := newsItem(m.News.Moved, srv.URL+"/old"); mv == nil || len(mv.From) != 2 || mv.From[0] != "library:/Res" {
		t.Errorf("moved item = %+v", mv)
	}
	_, body := MailText(task, m)
	if !strings.Contains(body, "2 libraries with 4 pointers to 3 distinct URLs") || !strings.Contains(body, want) {
		t.Errorf("mail:\n%s", body)
	}
}
