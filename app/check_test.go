package app

import (
	"context"
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

// recordingNotifier keeps the notifications the app would show.
type recordingNotifier struct {
	mu  sync.Mutex
	got []string
}

func (r *recordingNotifier) Notify(_ context.Context, title, body string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, title+": "+body)
	return nil
}

func TestMaintenanceThroughBoundAPI(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<title>Home</title><a href="/old">old</a> <a href="/missing">missing</a> <a href="/skip/me">skip</a>`)
		case "/old":
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
		case "/new":
			fmt.Fprint(w, `<title>New</title>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
	notes := &recordingNotifier{}
	a.notifier = notes
	done := make(chan CheckProgress, 4)
	var progress int
	var mu sync.Mutex
	a.startup(context.Background(), func(name string, payload any) {
		switch name {
		case EventCheckDone:
			done <- payload.(CheckProgress)
		case EventCheckProgress:
			mu.Lock()
			progress++
			mu.Unlock()
		}
	})
	defer a.shutdown()
	set, err := a.Settings()
	if err != nil {
		t.Fatal(err)
	}
	set.DelayMs, set.PerHost, set.Agents = 0, 2, 4
	if _, err := a.SaveSettings(set); err != nil {
		t.Fatal(err)
	}

	task, err := a.SaveCheckTask(CheckTask{Name: "home", Type: "site", Top: srv.URL + "/",
		Report: CheckReportChoice{Moved: true, Broken: true}})
	if err != nil || task.ID == 0 {
		t.Fatal(task, err)
	}
	if _, err := a.SaveCheckTask(CheckTask{Name: "home", Type: "site", Top: srv.URL + "/"}); apiCode(err) != CodeConflict {
		t.Errorf("duplicate name: %v", err)
	}
	if _, err := a.SaveCheckTask(CheckTask{Name: "x", Type: "galaxy", Top: srv.URL}); apiCode(err) != CodeInvalid {
		t.Errorf("bad type: %v", err)
	}
	if _, err := a.AddAvoidRule(AvoidRule{TaskID: task.ID, Action: "avoid", Prefix: srv.URL + "/skip/", Expires: "2999-01-01"}); err != nil {
		t.Fatal(err)
	}
	if imp, err := a.ImportCheckFile("avoid", "", "Leaf "+srv.URL+"/never-mind [*]\n"); err != nil || imp.Added != 1 {
		t.Fatal(imp, err)
	}
	if _, err := a.ImportCheckFile("avoid", "", "Avoid nothing\n"); apiCode(err) != CodeInvalid {
		t.Errorf("a bad avoid file: %v", err)
	}

	started, err := a.RunCheckTasks(nil)
	if err != nil || started.RunID == 0 {
		t.Fatal(started, err)
	}
	var end CheckProgress
	select {
	case end = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("no check:done")
	}
	if end.State != "done" || end.Tested != 3 || len(end.Notices) != 1 || !strings.Contains(end.Notices[0].Text, "moved") {
		t.Fatalf("done = %+v", end)
	}
	if len(notes.got) != 1 || !strings.HasPrefix(notes.got[0], "Mundaneum: home") {
		t.Errorf("notifications = %q", notes.got)
	}
	reps, err := a.CheckReports("home", 10)
	if err != nil || len(reps) != 1 || reps[0].News.Broken != 1 || reps[0].News.Moved != 1 || reps[0].Documents != 2 {
		t.Fatalf("reports = %+v, %v", reps, err)
	}
	page, err := a.CheckReport(reps[0].ID, 0, 50)
	if err != nil || len(page.Docs) != 2 || page.Task.Name != "home" || page.Counts.Tested < 3 {
		t.Fatalf("report = %+v, %v", page, err)
	}
	html, err := a.ExportCheckReport(reps[0].ID, "html")
	if err != nil || !strings.Contains(html, "Interesting changes") {
		t.Fatalf("html export: %v", err)
	}
	if csv, err := a.ExportCheckReport(reps[0].ID, "csv"); err != nil || !strings.Contains(csv, srv.URL+"/missing") {
		t.Fatalf("csv export: %v", err)
	}

	run, err := a.CheckLinks([]string{srv.URL + "/new\n" + srv.URL + "/missing", "mailto:x@example.org"})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case end = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("no check:done")
	}
	links, err := a.CheckRunLinks(run.RunID, 100)
	if err != nil || len(links) != 3 {
		t.Fatalf("links = %+v, %v", links, err)
	}
	verdicts := map[string]string{}
	for _, l := range links {
		verdicts[l.URL] = l.Verdict
	}
	if verdicts[srv.URL+"/new"] != "ok" || verdicts[srv.URL+"/missing"] != "broken" || verdicts["mailto:x@example.org"] != "invalid" {
		t.Errorf("verdicts = %v", verdicts)
	}
	hist, err := a.LinkHistory(srv.URL+"/missing", 10)
	if err != nil || len(hist) != 2 {
		t.Errorf("history = %+v, %v", hist, err)
	}
	if s, _ := a.CheckState(); s.State != "idle" {
		t.Errorf("state after the run = %+v", s)
	}
	sites, err := a.RobotsSites()
	if err != nil || len(sites) != 1 {
		t.Fatalf("sites = %+v, %v", sites, err)
	}
	if err := a.SetRobotsExpiry(sites[0].Origin, "never"); err != nil {
		t.Fatal(err)
	}
	if sites, _ := a.RobotsSites(); !sites[0].Never {
		t.Errorf("never: %+v", sites)
	}
	if txt, err := a.ExportCheckFile("sites", ""); err != nil || !strings.Contains(txt, "[*]") {
		t.Errorf("sites export: %q, %v", txt, err)
	}
	if err := a.DeleteCheckTask("home"); err != nil {
		t.Fatal(err)
	}
	if rs, _ := a.CheckReports("", 10); len(rs) != 0 {
		t.Errorf("a deleted task's reports stay: %+v", rs)
	}
}

func apiCode(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Code
	}
	return ""
}
