package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
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
	a, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
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
	res, err := a.Search(SearchRequest{Query: "classification", Limit: 10})
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
	a, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
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

func TestSettingsAndWorkspaceSwitch(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(context.Background(), filepath.Join(dir, "one.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
	defer a.shutdown()
	var switched []any
	a.startup(context.Background(), func(name string, payload any) {
		if name == EventWorkspaceChanged {
			switched = append(switched, payload)
		}
	})
	s, err := a.Settings()
	if err != nil || s.Agents != 16 || s.Theme != "system" {
		t.Fatalf("default settings = %+v, %v", s, err)
	}
	s.From, s.UserAgentSuffix, s.DelayMs, s.Theme = "me@example.org", "+mailto:me@example.org", 250, "dark"
	if got, err := a.SaveSettings(s); err != nil || got != s {
		t.Fatalf("saved = %+v, %v", got, err)
	}
	for _, bad := range []Settings{{DelayMs: -1, PerHost: 1, Agents: 1, Theme: "dark"}, {PerHost: 1, Agents: 1, Theme: "neon"},
		{PerHost: 1, Agents: 1, Theme: "dark", UserAgentSuffix: "x)\\r\\nEvil: 1"}, {PerHost: 1, Agents: 1, Theme: "dark", From: "not mail"}} {
		var e *Error
		if _, err := a.SaveSettings(bad); !errors.As(err, &e) || e.Code != CodeInvalid {
			t.Errorf("settings %+v accepted: %v", bad, err)
		}
	}
	if _, err := a.ChooseWorkspace(false); err == nil {
		t.Error("file dialog without a window")
	}
	two := filepath.Join(dir, "two.mundaneum")
	if _, err := a.OpenWorkspace(two, false); err == nil {
		t.Error("opened a workspace that does not exist without create")
	}
	info, err := a.OpenWorkspace(two, true)
	if err != nil || info.Path != two || len(switched) != 1 {
		t.Fatalf("new workspace = %+v, %v, events %v", info, err, switched)
	}
	if s, _ := a.Settings(); s.Theme != "system" {
		t.Errorf("settings leaked across workspaces: %+v", s)
	}
	if _, err := a.OpenWorkspace(two, true); err == nil {
		t.Error("create overwrote an existing workspace")
	}
	// The first workspace was closed: its lock is free again.
	one, err := store.Open(context.Background(), filepath.Join(dir, "one.mundaneum"), store.Options{})
	if err != nil {
		t.Fatalf("old workspace still locked: %v", err)
	}
	if s, _ := one.Settings(context.Background()); s.Theme != "dark" {
		t.Errorf("old workspace lost its settings: %+v", s)
	}
	one.Close()
}

func TestSavedViews(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
	defer a.shutdown()
	if _, err := a.SaveView("otlet", "otlet -library", false); err != nil {
		t.Fatal(err)
	}
	var conflict *Error
	if _, err := a.SaveView("otlet", "otlet", false); !errors.As(err, &conflict) || conflict.Code != CodeConflict {
		t.Errorf("saved over a view without replace: %v", err)
	}
	vs, err := a.Views()
	if err != nil || len(vs) != 1 || vs[0].Query != "otlet -library" {
		t.Fatalf("views = %+v, %v", vs, err)
	}
	r, err := a.OpenView("otlet", 10)
	if err != nil || r.View.Name != "otlet" || r.Results.Total != 0 {
		t.Fatalf("open = %+v, %v", r, err)
	}
	var e *Error
	if _, err := a.OpenView("nope", 10); !errors.As(err, &e) || e.Code != CodeNotFound {
		t.Errorf("unknown view: %v", err)
	}
	if _, err := a.SaveView("  ", "x", false); !errors.As(err, &e) || e.Code != CodeInvalid {
		t.Errorf("blank name: %v", err)
	}
	if err := a.DeleteView("otlet"); err != nil {
		t.Fatal(err)
	}
	if vs, _ := a.Views(); len(vs) != 0 {
		t.Errorf("views after delete = %+v", vs)
	}
}

// The crawl form starts from the CLI's defaults with the workspace's settings, and a
// request the CLI would refuse is refused with a message the form can show (issue 18).
func TestCrawlDefaultsAndValidation(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
	defer a.shutdown()
	set := store.DefaultSettings()
	set.DelayMs, set.MaxPerHost = 250, 500
	if err := st.SaveSettings(context.Background(), set); err != nil {
		t.Fatal(err)
	}
	d, err := a.CrawlDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if d.Scope != "site" || d.MaxPages != 0 || d.MaxDepth != 0 || d.DelayMs != 250 || d.MaxPerHost != 500 ||
		d.MaxQueryVariants != set.MaxQueryVariants || d.Agents != set.Agents {
		t.Errorf("defaults = %+v", d)
	}
	var e *Error
	_, err = a.StartCrawl(CrawlRequest{Seeds: []string{"http://127.0.0.1:1/"}, MaxPages: -5, DelayMs: -1})
	if !errors.As(err, &e) || e.Code != CodeInvalid || !strings.Contains(e.Message, "max-pages must not be negative") {
		t.Errorf("negative max pages: %v", err)
	}
	if cs, _ := a.Crawls(); len(cs) != 0 {
		t.Errorf("a refused crawl was recorded: %+v", cs)
	}
}
