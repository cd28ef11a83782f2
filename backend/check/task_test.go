package check

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"mundaneum/backend/check/report"
	"mundaneum/backend/store"
)

func addTask(t *testing.T, st CheckStore, task Task) Task {
	t.Helper()
	got, err := AddTask(context.Background(), st, task)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func runTasks(t *testing.T, st Store, tasks ...Task) Result {
	t.Helper()
	res, err := Run(context.Background(), st, testConfig(), Request{Tasks: tasks}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, rr := range res.Reports {
		if rr.Err != "" {
			t.Fatalf("task %s: %s", rr.Task.Name, rr.Err)
		}
	}
	return res
}

// loadModel reads a report back the way the window and the exports do.
func loadModel(t *testing.T, st *store.Store, id int64) *report.Model {
	t.Helper()
	m, err := LoadReport(context.Background(), st, id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func docURLs(m *report.Model) []string {
	var out []string
	for _, d := range m.Docs {
		out = append(out, m.Links[d.Link].URL)
	}
	return out
}

func linkOf(m *report.Model, url string) *report.Link {
	for i := range m.Links {
		if m.Links[i].URL == url {
			return &m.Links[i]
		}
	}
	return nil
}

func TestSiteTaskTraversesTheSiteAndTestsEveryReference(t *testing.T) {
	t.Parallel()
	w := newTestWeb(t)
	st := openStore(t)
	ctx := context.Background()
	task := addTask(t, st, Task{Name: "site", Type: Site, Top: w.URL + "/", Options: Options{Report: DefaultReport}})
	if _, err := AddRules(ctx, st, []Rule{{Action: ActionAvoid, Prefix: w.URL + "/avoided/"}}); err != nil {
		t.Fatal(err)
	}
	res := runTasks(t, st, task)
	m := loadModel(t, st, res.Reports[0].ReportID)
	docs := docURLs(m)
	for _, want := range []string{"/", "/docs/", "/about", "/about/team", "/docs/guide.html", "/other/x.html", "/changing"} {
		if !slices.Contains(docs, w.URL+want) {
			t.Errorf("%s was not traversed (documents: %q)", want, docs)
		}
	}
	// /old and /temp both lead to /new: it is traversed once, under the first that got there.
	if slices.Contains(docs, w.URL+"/old") == slices.Contains(docs, w.URL+"/temp") || slices.Contains(docs, w.URL+"/new") {
		t.Errorf("/new is not traversed exactly once: %q", docs)
	}
	if slices.Contains(docs, w.URL+"/other/y.html") || w.count("/other/y.html") != 1 {
		t.Errorf("a broken link was traversed, or not tested once: %q", docs)
	}
	if docs[0] != w.URL+"/" {
		t.Errorf("the top is not the first document: %q", docs)
	}
	// Leaves are tested, not traversed: the PDF and the image with HEAD, once each.
	if w.hits["HEAD /paper.pdf"] != 1 || w.hits["GET /paper.pdf"] != 0 || w.hits["HEAD /logo.png"] != 1 {
		t.Errorf("leaves: %v", w.hits)
	}
	if l := linkOf(m, w.URL+"/avoided/x"); l == nil || l.Tested || w.count("/avoided/x") != 0 {
		t.Errorf("an avoided link was tested: %+v", l)
	}
	if w.count("/search") != 0 {
		t.Error("a form's target was requested")
	}
	if l := linkOf(m, "http://nonexistent.invalid/page"); l == nil || l.Verdict != "broken" {
		t.Errorf("the link elsewhere was not tested: %+v", l)
	}
	// The closing table: moved, broken, changed, expiring.
	urls := func(items []report.Item) []string {
		var out []string
		for _, it := range items {
			out = append(out, it.URL)
		}
		return out
	}
	if got := urls(m.News.Moved); !slices.Contains(got, w.URL+"/old") || !slices.Contains(got, w.URL+"/temp") {
		t.Errorf("moved = %q", got)
	}
	broken := urls(m.News.Broken)
	for _, want := range []string{"/missing", "/gone", "/loop1", "/broken-server", "/slow"} {
		if !slices.Contains(broken, w.URL+want) {
			t.Errorf("%s not in broken %q", want, broken)
		}
	}
	for _, not := range []string{"/walled", "/login", "/private/diary", "/busy", "/nohead"} {
		if slices.Contains(broken, w.URL+not) {
			t.Errorf("%s cried wolf: listed broken", not)
		}
	}
	if got := urls(m.News.Changed); !slices.Contains(got, w.URL+"/logo.png") {
		t.Errorf("changed = %q (the logo's Last-Modified is a day old)", got)
	}
	if got := urls(m.News.Expiring); len(got) != 1 || got[0] != w.URL+"/expiring" {
		t.Errorf("expiring = %q", got)
	}
	for _, it := range m.News.Broken {
		if it.URL == w.URL+"/missing" && (len(it.From) == 0 || it.From[0] != w.URL+"/" || !it.New || it.Dead) {
			t.Errorf("/missing: %+v", it)
		}
	}
	if m.Counts.Documents != len(m.Docs) || m.Counts.Verdicts["broken"] == 0 {
		t.Errorf("counts = %+v", m.Counts)
	}
	// The top's header information and its typed references.
	top := m.Docs[0]
	if l := m.Links[top.Link]; l.Title != "Home" || l.Owner != "Webmaster" {
		t.Errorf("top = %+v", l)
	}
	kinds := map[string]bool{}
	for _, rf := range top.Refs {
		kinds[rf.Kind] = true
	}
	if !kinds["a"] || !kinds["img"] {
		t.Errorf("reference kinds = %v", kinds)
	}
}

func TestTreeAndOwnerScopes(t *testing.T) {
	t.Parallel()
	w := newTestWeb(t)
	st := openStore(t)
	tree := addTask(t, st, Task{Name: "tree", Type: Tree, Top: w.URL + "/docs/"})
	res := runTasks(t, st, tree)
	m := loadModel(t, st, res.Reports[0].ReportID)
	if got := docURLs(m); !slices.Equal(got, []string{w.URL + "/docs/", w.URL + "/docs/guide.html"}) {
		t.Errorf("tree documents = %q", got)
	}
	if w.count("/other/x.html") != 1 || w.count("/other/y.html") != 0 {
		t.Errorf("outside the tree: tested once, not traversed: %v", w.hits)
	}

	w2 := newTestWeb(t)
	owner := addTask(t, st, Task{Name: "Webmaster", Type: Owner, Top: w2.URL + "/"})
	res = runTasks(t, st, owner)
	m = loadModel(t, st, res.Reports[0].ReportID)
	docs := docURLs(m)
	if !slices.Contains(docs, w2.URL+"/docs/") || slices.Contains(docs, w2.URL+"/about") {
		t.Errorf("owner documents = %q (docs/ is the webmaster's, about is someone else's)", docs)
	}
	if w2.count("/about/team") != 0 {
		t.Error("a document of another owner was traversed")
	}
}

func TestTasksShareTheirTests(t *testing.T) {
	t.Parallel()
	w := newTestWeb(t)
	st := openStore(t)
	site := addTask(t, st, Task{Name: "site", Type: Site, Top: w.URL + "/"})
	tree := addTask(t, st, Task{Name: "docs", Type: Tree, Top: w.URL + "/docs/"})
	res := runTasks(t, st, site, tree)
	if len(res.Reports) != 2 {
		t.Fatalf("reports = %+v", res.Reports)
	}
	// /logo.png is referenced by both infostructures, /docs/guide.html by both; each is
	// requested once in the run.
	if w.count("/logo.png") != 1 || w.hits["GET /docs/guide.html"] != 1 || w.hits["GET /docs/"] != 1 {
		t.Errorf("requests: %v", w.hits)
	}
	for _, rr := range res.Reports {
		m := loadModel(t, st, rr.ReportID)
		if l := linkOf(m, w.URL+"/logo.png"); l == nil || !l.Tested || l.Verdict != "ok" {
			t.Errorf("%s: logo = %+v", rr.Task.Name, l)
		}
	}
}

func TestAvoidEntriesExpire(t *testing.T) {
	t.Parallel()
	w := newTestWeb(t)
	st := openStore(t)
	ctx := context.Background()
	task := addTask(t, st, Task{Name: "site", Type: Site, Top: w.URL + "/"})
	_, err := AddRules(ctx, st, []Rule{
		{Action: ActionAvoid, Prefix: w.URL + "/gone", Expires: time.Now().Add(-time.Hour)}, // expired: tested
		{Action: ActionAvoid, Prefix: w.URL + "/missing", Expires: time.Now().Add(time.Hour)},
		{TaskID: task.ID, Action: ActionLeaf, Prefix: w.URL + "/about"},
		{Action: ActionAvoid, Prefix: w.URL + "/docs/"},
		{TaskID: task.ID, Action: ActionLeaf, Prefix: w.URL + "/docs/"}, // the task's own rule wins
	})
	if err != nil {
		t.Fatal(err)
	}
	runTasks(t, st, task)
	if w.count("/gone") == 0 || w.count("/missing") != 0 {
		t.Errorf("expiry: /gone %d (expired avoid), /missing %d (active avoid)", w.count("/gone"), w.count("/missing"))
	}
	if w.hits["HEAD /about"] != 1 || w.count("/about/team") != 0 {
		t.Errorf("a leaf was traversed: %v", w.hits)
	}
	if w.hits["HEAD /docs/"] != 1 || w.count("/docs/guide.html") != 0 {
		t.Errorf("the task's leaf rule did not win over the system-wide avoid: %v", w.hits)
	}
}

func TestRepeatedRunsFindDeadLinksAndChanges(t *testing.T) {
	t.Parallel()
	w := newTestWeb(t)
	st := openStore(t)
	task := addTask(t, st, Task{Name: "site", Type: Site, Top: w.URL + "/", Options: Options{Report: DefaultReport}})
	first := runTasks(t, st, task)
	if first.Reports[0].News.TellDead != 0 {
		t.Errorf("dead on first sight: %+v", first.Reports[0].News)
	}
	w.version.Add(1)
	second := runTasks(t, st, task)
	m := loadModel(t, st, second.Reports[0].ReportID)
	if m.PriorID != first.Reports[0].ReportID {
		t.Errorf("prior = %d, want %d", m.PriorID, first.Reports[0].ReportID)
	}
	var dead, newDead []string
	for _, it := range m.News.Broken {
		if it.Dead {
			dead = append(dead, it.URL)
			if it.New {
				newDead = append(newDead, it.URL)
			}
		}
	}
	// testConfig: dead after 2 failing checks (over no time at all).
	if !slices.Contains(dead, w.URL+"/missing") || !slices.Equal(dead, newDead) || second.Reports[0].News.TellDead != len(dead) {
		t.Errorf("dead %q, new %q, counts %+v", dead, newDead, second.Reports[0].News)
	}
	var changed []string
	for _, it := range m.News.Changed {
		if it.Detail == "changed since the last check" {
			changed = append(changed, it.URL)
		}
	}
	if !slices.Equal(changed, []string{w.URL + "/changing"}) {
		t.Errorf("changed since the last check: %q", changed)
	}
	// Old news is not news: the moved links of the first report are not new now.
	for _, it := range m.News.Moved {
		if it.New {
			t.Errorf("moved again: %+v", it)
		}
	}
	js, _ := json.Marshal(m)
	if len(js) == 0 {
		t.Fatal("empty model")
	}
}

func TestAStoppedRunKeepsItsChecksButMakesNoReport(t *testing.T) {
	t.Parallel()
	w := newTestWeb(t)
	st := openStore(t)
	task := addTask(t, st, Task{Name: "site", Type: Site, Top: w.URL + "/", Options: Options{EveryMinutes: 60}})
	ctx, cancel := context.WithCancel(context.Background())
	res, err := Run(ctx, st, testConfig(), Request{Tasks: []Task{task}}, func(p Progress) {
		if p.Tested >= 5 {
			cancel()
		}
	})
	if err == nil || res.Run.State != "cancelled" || len(res.Reports) != 0 {
		t.Fatalf("stopped run: %+v, %v", res, err)
	}
	runs, _ := st.CheckRuns(context.Background(), 1)
	if runs[0].State != "cancelled" || runs[0].Tested < 5 {
		t.Errorf("run record = %+v", runs[0])
	}
	// What it tested is history; the task is still due (its schedule counts from runs that ended).
	if h, _ := st.CheckHistory(context.Background(), w.URL+"/", 5); len(h) != 1 {
		t.Errorf("history of the top = %+v", h)
	}
	again, _ := TaskNamed(context.Background(), st, "site")
	if !again.LastRunAt.IsZero() || !again.Due(time.Now()) {
		t.Errorf("task after a stopped run = %+v", again)
	}
}

// TestOwnerByHeader: MOMspider's Owner infostructure takes a document's owner from its
// Owner meta element or, without one, its Owner header.
func TestOwnerByHeader(t *testing.T) {
	t.Parallel()
	hits := map[string]int{}
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.Method+" "+r.URL.Path]++
		mu.Unlock()
		rw.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/":
			fmt.Fprint(rw, `<title>Top</title><a href="/by-header">h</a> <a href="/nobody">n</a>`)
		case "/by-header":
			rw.Header().Set("Owner", "Webmaster")
			fmt.Fprint(rw, `<title>Header</title><a href="/below-header">b</a>`)
		case "/nobody":
			fmt.Fprint(rw, `<title>Nobody</title><a href="/below-nobody">b</a>`)
		default:
			fmt.Fprint(rw, `<title>Leaf</title>`)
		}
	}))
	defer srv.Close()
	st := openStore(t)
	task := addTask(t, st, Task{Name: "Webmaster", Type: Owner, Top: srv.URL + "/"})
	m := loadModel(t, st, runTasks(t, st, task).Reports[0].ReportID)
	docs := docURLs(m)
	if !slices.Contains(docs, srv.URL+"/by-header") || slices.Contains(docs, srv.URL+"/nobody") {
		t.Errorf("owner documents = %q (by-header is the webmaster's by its Owner header, nobody is no one's)", docs)
	}
	if l := linkOf(m, srv.URL+"/below-header"); l == nil || !l.Tested {
		t.Errorf("the header-owned document's link was not tested: %+v", l)
	}
	mu.Lock()
	defer mu.Unlock()
	if hits["GET /below-nobody"] != 0 {
		t.Errorf("a document of no owner was traversed: %v", hits)
	}
}
