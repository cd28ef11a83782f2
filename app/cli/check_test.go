package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mundaneum/app"
	"mundaneum/backend/store"
)

func checkSite(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<title>Home</title><a href="/old">old</a> <a href="/missing">missing</a> <img src="/logo.png">`)
		case "/old":
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
		case "/new":
			fmt.Fprint(w, "<title>New \x1b]0;pwned\x07</title>")
		case "/logo.png":
			w.Header().Set("Content-Type", "image/png")
		case "/busy":
			w.WriteHeader(http.StatusForbidden)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestCheckURLsJSONAndExitCode(t *testing.T) {
	srv := checkSite(t)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	code, out, errOut := run(t, "check", "--db", db, "--json", "--delay", "0", srv.URL+"/", srv.URL+"/old", srv.URL+"/missing", srv.URL+"/busy")
	if code != ExitBroken {
		t.Fatalf("exit %d, want %d: %s", code, ExitBroken, errOut)
	}
	var res checkJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// finalUrl is where a redirect led, "" when none did (as the window's link checks say it).
	want := []struct{ verdict, final string }{{"ok", ""}, {"redirected", srv.URL + "/new"}, {"broken", ""}, {"blocked", ""}}
	if len(res.Links) != 4 {
		t.Fatalf("links = %+v", res.Links)
	}
	for i, w := range want {
		l := res.Links[i]
		if l.Verdict != w.verdict || l.FinalURL != w.final || l.Reason == "" || (l.Status == 0) {
			t.Errorf("link %d = %+v, want %s -> %s", i, l, w.verdict, w.final)
		}
	}
	// Every link fine: exit 0.
	if code, _, errOut := run(t, "check", "--db", db, "--delay", "0", srv.URL+"/new"); code != ExitOK {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if code, _, _ := run(t, "check", "--db", db, "--all", srv.URL); code != ExitUsage {
		t.Errorf("URLs and --all: exit %d", code)
	}
}

func TestTasksReportsRulesSites(t *testing.T) {
	srv := checkSite(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "w.mundaneum")
	index := filepath.Join(dir, "home.html")
	code, _, errOut := run(t, "task", "add", "home", "--db", db, "--type", "site", "--top", srv.URL+"/", "--every", "1d",
		"--report", "moved,broken", "--index-file", index)
	if code != ExitOK {
		t.Fatalf("task add: %d %s", code, errOut)
	}
	if code, _, _ := run(t, "task", "add", "home", "--db", db, "--top", srv.URL+"/"); code != ExitUsage {
		t.Errorf("a duplicate task: exit %d", code)
	}
	if code, _, _ := run(t, "task", "add", "x", "--db", db, "--type", "galaxy", "--top", srv.URL+"/"); code != ExitUsage {
		t.Errorf("a bad type: exit %d", code)
	}
	if code, _, errOut := run(t, "task", "edit", "home", "--db", db, "--every", "12h"); code != ExitOK {
		t.Fatalf("task edit: %d %s", code, errOut)
	}
	code, out, _ := run(t, "task", "ls", "--db", db, "--json")
	var tasks []app.CheckTask
	if err := json.Unmarshal([]byte(out), &tasks); err != nil || code != ExitOK || len(tasks) != 1 || tasks[0].EveryMinutes != 720 ||
		!tasks[0].Report.Moved || tasks[0].Report.ChangedDays != 0 {
		t.Fatalf("task ls = %s (%v)", out, err)
	}
	if code, _, errOut := run(t, "avoid", "add", "leaf", srv.URL+"/old", "--task", "home", "--db", db); code != ExitOK {
		t.Fatalf("rules add: %s", errOut)
	}
	avoid := filepath.Join(dir, "avoid.mom")
	os.WriteFile(avoid, []byte("Avoid "+srv.URL+"/logo [*]\n"), 0o644)
	if code, _, errOut := run(t, "avoid", "import", avoid, "--db", db); code != ExitOK {
		t.Fatalf("rules import: %s", errOut)
	}
	os.WriteFile(avoid, []byte("Avoid "+srv.URL+"/logo [*]\nBogus line\n"), 0o644)
	if code, _, errOut := run(t, "avoid", "import", avoid, "--db", db); code != ExitUsage || !strings.Contains(errOut, "line 2") {
		t.Errorf("a bad avoid file: %d %s", code, errOut)
	}

	code, out, errOut = run(t, "check", "--db", db, "--json", "--delay", "0", "--task", "home")
	if code != ExitOK {
		t.Fatalf("check --task: %d %s", code, errOut)
	}
	var res checkJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Tasks) != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	tr := res.Tasks[0]
	verdicts := map[string]string{}
	for _, l := range tr.Links {
		verdicts[l.URL] = l.Verdict
	}
	if tr.ReportID == 0 || verdicts[srv.URL+"/missing"] != "broken" || verdicts[srv.URL+"/old"] != "redirected" || verdicts[srv.URL+"/logo.png"] != "" {
		t.Fatalf("task run = %+v", tr)
	}
	if tr.News.Broken != 1 || tr.News.Moved != 1 {
		t.Errorf("news = %+v", tr.News)
	}
	if b, err := os.ReadFile(index); err != nil || !strings.Contains(string(b), "Interesting changes") {
		t.Errorf("index file: %v", err)
	}

	code, out, _ = run(t, "report", "home", "--db", db)
	if code != ExitOK || !strings.Contains(out, "broken (1)") || strings.Contains(out, "\x1b") {
		t.Errorf("report: %d\n%q", code, out)
	}
	for format, want := range map[string]string{"html": "<h2 id=\"news\">", "csv": "document,document_title", "json": "\"documents\""} {
		code, out, _ := run(t, "report", "home", "--db", db, "--format", format)
		if code != ExitOK || !strings.Contains(out, want) {
			t.Errorf("--format %s: %d %.200s", format, code, out)
		}
	}
	code, out, _ = run(t, "sites", "--db", db, "--json")
	if code != ExitOK || !strings.Contains(out, strings.TrimSuffix(srv.URL, "/")) {
		t.Errorf("sites: %s", out)
	}
	if code, _, errOut := run(t, "sites", "expire", srv.URL, "never", "--db", db); code != ExitOK {
		t.Errorf("sites expire: %s", errOut)
	}
	if code, out, _ := run(t, "sites", "export", "--db", db); code != ExitOK || !strings.Contains(out, "[*]") {
		t.Errorf("sites export: %s", out)
	}
	// The task just ran: nothing is due.
	if code, _, errOut := run(t, "check", "--db", db, "--due"); code != ExitOK || !strings.Contains(errOut, "no task is due") {
		t.Errorf("check --due: %d %s", code, errOut)
	}
	if code, _, _ := run(t, "task", "rm", "home", "--db", db); code != ExitOK {
		t.Error("task rm")
	}
	if code, _, _ := run(t, "report", "home", "--db", db); code != ExitUsage {
		t.Error("a removed task's report")
	}
}

// A workspace open in the window (or serve) runs its own schedule: cron's --due leaves it.
func TestCheckDueLeavesAnOpenWorkspace(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if code, _, errOut := run(t, "check", "--db", db, "--due"); code != ExitOK || !strings.Contains(errOut, "runs the due tasks itself") {
		t.Errorf("--due: %d %s", code, errOut)
	}
	if code, _, _ := run(t, "check", "--db", db, "--all"); code != ExitLocked {
		t.Errorf("--all: exit %d, want %d", code, ExitLocked)
	}
}

func TestTaskAddLibrary(t *testing.T) {
	srv := checkSite(t)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	must := func(args ...string) {
		t.Helper()
		if code, _, errOut := run(t, append(args, "--db", db)...); code != ExitOK {
			t.Fatalf("%q: %d %s", args, code, errOut)
		}
	}
	must("library", "mkdir", "-p", "/Research/Old")
	must("library", "add", srv.URL+"/", "--title", "Home", "--to", "/Research")
	must("library", "add", srv.URL+"/missing", "--title", "Lost", "--to", "/Research")
	must("library", "add", srv.URL+"/old", "--title", "Moved", "--to", "/Research/Old")
	must("library", "add", srv.URL+"/busy", "--title", "Elsewhere", "--to", "/")
	must("task", "add", "links", "--library", "/Research")
	if code, _, _ := run(t, "task", "add", "x", "--db", db, "--library", "/Research", "--type", "site"); code != ExitUsage {
		t.Errorf("--library with another type: exit %d", code)
	}
	code, out, _ := run(t, "task", "ls", "--db", db, "--json")
	var tasks []app.CheckTask
	if err := json.Unmarshal([]byte(out), &tasks); err != nil || code != ExitOK || len(tasks) != 1 || tasks[0].Type != "library" || tasks[0].Top != "/Research" {
		t.Fatalf("task ls = %s (%v)", out, err)
	}
	code, out, errOut := run(t, "check", "--db", db, "--json", "--delay", "0", "--task", "links")
	var res checkJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Tasks) != 1 || res.Tasks[0].Error != "" {
		t.Fatalf("check --task links: %d %s %s", code, out, errOut)
	}
	got := map[string]string{}
	for _, l := range res.Tasks[0].Links {
		got[l.URL] = l.Verdict
	}
	want := map[string]string{srv.URL + "/": "ok", srv.URL + "/missing": "broken", srv.URL + "/old": "redirected"}
	for u, v := range want {
		if got[u] != v {
			t.Errorf("%s: %q, want %q (links %v)", u, got[u], v, got)
		}
	}
	if _, ok := got[srv.URL+"/busy"]; ok || len(got) != 3 {
		t.Errorf("links outside /Research, or pointers' pages traversed: %v", got)
	}
	// The report's documents are the libraries.
	code, out, _ = run(t, "report", "links", "--db", db, "--format", "json")
	if code != ExitOK || !strings.Contains(out, `"library:/Research/Old"`) {
		t.Errorf("report: %d %s", code, out)
	}
	// The library shows each pointer's health.
	code, out, _ = run(t, "library", "ls", "/Research", "--db", db, "--json")
	var ls []app.LibPosting
	if err := json.Unmarshal([]byte(out), &ls); err != nil || code != ExitOK {
		t.Fatalf("library ls: %d %s", code, out)
	}
	health := map[string]string{}
	for _, p := range ls {
		if p.Health != nil {
			health[p.Title] = p.Health.Verdict
		}
	}
	if health["Home"] != "ok" || health["Lost"] != "broken" || len(health) != 2 {
		t.Errorf("pointers' health = %v", health)
	}
	if _, out, _ = run(t, "library", "ls", "/Research", "--db", db); !strings.Contains(out, "link: broken 404") {
		t.Errorf("library ls:\n%s", out)
	}
	// A path the library does not have: the task fails alone, saying so.
	must("task", "add", "nowhere", "--library", "/Nowhere")
	_, out, _ = run(t, "check", "--db", db, "--json", "--delay", "0", "--task", "nowhere")
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Tasks) != 1 || !strings.Contains(res.Tasks[0].Error, "Nowhere") {
		t.Errorf("an unknown library path: %s", out)
	}
}

// TestMaintenanceJSONShapes: the robots.txt table and the MOMspider imports print --json as
// every other verb does: camelCase keys, times as RFC 3339, empty lists as [].
func TestMaintenanceJSONShapes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>T</title>`)
	}))
	defer srv.Close()
	dir := t.TempDir()
	db := filepath.Join(dir, "w.mundaneum")
	if code, _, errOut := run(t, "check", "--db", db, "--delay", "0", srv.URL+"/"); code != ExitOK {
		t.Fatalf("check: %d %s", code, errOut)
	}
	keys := func(what, out string, want ...string) map[string]any {
		t.Helper()
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%s: %v\n%s", what, err, out)
		}
		for _, k := range want {
			if _, ok := m[k]; !ok {
				t.Errorf("%s: no %q in %s", what, k, out)
			}
		}
		return m
	}
	code, out, _ := run(t, "sites", "--db", db, "--json")
	var sites []json.RawMessage
	if err := json.Unmarshal([]byte(out), &sites); code != ExitOK || err != nil || len(sites) != 1 {
		t.Fatalf("sites --json: %d %v\n%s", code, err, out)
	}
	site := keys("sites", string(sites[0]), "origin", "status", "bytes", "fetchedAt", "expiresAt", "never")
	if at, _ := site["fetchedAt"].(string); at == "" {
		t.Errorf("sites: fetchedAt %v, want an RFC 3339 time", site["fetchedAt"])
	} else if _, err := time.Parse(time.RFC3339, at); err != nil {
		t.Errorf("sites: fetchedAt %q: %v", at, err)
	}

	file := filepath.Join(dir, "sites.mom")
	host := strings.TrimPrefix(srv.URL, "http://")
	os.WriteFile(file, []byte("Site "+host+" [*]\n"), 0o644)
	code, out, _ = run(t, "sites", "import", file, "--db", db, "--json")
	if m := keys("sites import", out, "updated", "unknown"); code != ExitOK || m["updated"] != 1.0 {
		t.Errorf("sites import: %d %s", code, out)
	}
	os.WriteFile(file, []byte("<Site\n Name S\n TopURL "+srv.URL+"/\n>\n"), 0o644)
	code, out, _ = run(t, "task", "import", file, "--db", db, "--json")
	if m := keys("task import", out, "added", "skipped", "warnings"); code != ExitOK || fmt.Sprint(m["added"]) != "[S]" {
		t.Errorf("task import: %d %s", code, out)
	}
}
