package check

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// offlineWeb is a site on this machine whose page links to hosts that cannot be reached
// (.invalid names never resolve: RFC 6761) and to a missing page of its own.
func offlineWeb(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html")
		fmt.Fprint(rw, page("links", "", `<a href="http://a.invalid/">a</a> <a href="http://b.invalid/x">b</a>
			<a href="http://c.invalid/">c</a> <a href="http://d.invalid/y">d</a> <a href="http://e.invalid/">e</a>
			<a href="/missing">missing</a> <a href="/ok">ok</a>`))
	})
	mux.HandleFunc("/ok", func(rw http.ResponseWriter, r *http.Request) { fmt.Fprint(rw, "fine") })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

var unreachable = []string{"http://a.invalid/", "http://b.invalid/x", "http://c.invalid/", "http://d.invalid/y", "http://e.invalid/"}

// With no network, no link to another host is broken: the run says the machine is offline,
// records those links as "offline" and leaves their health alone, while a page of a host
// on this machine that is missing is still broken (issue 29, item 15).
func TestOfflineIsNotBroken(t *testing.T) {
	t.Parallel()
	srv := offlineWeb(t)
	st := openStore(t)
	ctx := context.Background()
	task := addTask(t, st, Task{Name: "site", Type: Site, Top: srv.URL + "/", Options: Options{Report: DefaultReport}})
	cfg := testConfig()
	cfg.Probe = offlineProbe
	var mu sync.Mutex
	var notes []string
	progress := func(p Progress) {
		mu.Lock()
		notes = append(notes, p.Note)
		mu.Unlock()
	}
	var res Result
	for range 2 { // two failing checks would make a link dead (testConfig's policy)
		var err error
		if res, err = Run(ctx, st, cfg, Request{Tasks: []Task{task}}, progress); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(res.Offline, "this machine was offline") || !strings.Contains(res.Offline, "5 links") {
		t.Errorf("the run's offline note: %q", res.Offline)
	}
	mu.Lock()
	said := strings.Join(notes, "\n")
	mu.Unlock()
	if !strings.Contains(said, "offline") {
		t.Errorf("the progress never said the machine is offline: %q", said)
	}
	m := loadModel(t, st, res.Reports[0].ReportID)
	for _, u := range unreachable {
		if l := linkOf(m, u); l == nil || l.Verdict != string(Offline) || l.Dead {
			t.Errorf("%s: %+v, want offline", u, l)
		}
	}
	if l := linkOf(m, srv.URL+"/missing"); l == nil || l.Verdict != string(Broken) || !l.Dead {
		t.Errorf("a missing page on this machine: %+v, want broken and dead", l)
	}
	if len(m.News.Broken) != 1 || m.News.Broken[0].URL != srv.URL+"/missing" {
		t.Errorf("broken news: %+v", m.News.Broken)
	}
	if m.Counts.Verdicts[string(Offline)] != len(unreachable) || !strings.Contains(m.Note, "offline") {
		t.Errorf("counts %v, note %q", m.Counts.Verdicts, m.Note)
	}
	health, err := st.LinkHealth(ctx, unreachable)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range unreachable {
		if h := health[u]; h.Failures != 0 || h.DeadAt != 0 || h.Verdict != string(Offline) {
			t.Errorf("%s: health %+v, want untouched (never tested online)", u, h)
		}
	}
	hist, err := st.CheckHistory(ctx, unreachable[0], 10)
	if err != nil || len(hist) != 2 || hist[0].Verdict != string(Offline) {
		t.Errorf("history of %s: %+v, %v", unreachable[0], hist, err)
	}

	// Links checked one by one say the same.
	res, err = Run(ctx, st, cfg, Request{URLs: []string{unreachable[1], srv.URL + "/ok"}}, nil)
	if err != nil || res.Links[0].Verdict.Kind != Offline || res.Links[1].Verdict.Kind != OK || res.Offline == "" {
		t.Errorf("links: %+v, offline %q, %v", res.Links, res.Offline, err)
	}

	// Online (the probe connects), the same links are broken: their names do not resolve.
	cfg.Probe = onlineProbe
	res, err = Run(ctx, st, cfg, Request{URLs: unreachable}, nil)
	if err != nil || res.Offline != "" {
		t.Fatalf("online: offline %q, %v", res.Offline, err)
	}
	for _, l := range res.Links {
		if l.Verdict.Kind != Broken || l.Verdict.Code != CodeDNS {
			t.Errorf("online: %s is %s/%s", l.URL, l.Verdict.Kind, l.Verdict.Code)
		}
	}
}

// Where a link's host is decides whether its failure can mean "offline": this machine and
// its local network say nothing of the internet.
func TestOutside(t *testing.T) {
	for origin, want := range map[string]bool{
		"http://example.org": true, "https://a.invalid": true, "http://93.184.216.34": true,
		"http://127.0.0.1:8080": false, "http://[::1]:80": false, "http://localhost": false, "http://x.localhost": false,
		"http://192.168.1.2": false, "http://10.0.0.1": false, "http://printer.local": false, "http://169.254.1.1": false,
	} {
		if got := outside(origin); got != want {
			t.Errorf("outside(%s) = %v, want %v", origin, got, want)
		}
	}
}
