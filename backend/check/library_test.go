package check

import (
	"context"
	"errors"
	"slices"
	"testing"
)

func TestLibraryTaskTestsEveryPointerOnceWithTheOtherTasks(t *testing.T) {
	t.Parallel()
	w := newTestWeb(t)
	st := openStore(t)
	ctx := context.Background()
	lib := LibraryFunc(func(_ context.Context, path string) ([]LibraryFolder, error) {
		if path != "/Research" {
			return nil, errors.New("no library " + path)
		}
		return []LibraryFolder{
			{Path: "/Research", Pointers: []LibraryPointer{{ID: 2, Title: "Docs", URL: w.URL + "/docs/"}, {ID: 3, Title: "Lost", URL: w.URL + "/missing"}}},
			{Path: "/Research/Old", Pointers: []LibraryPointer{{ID: 5, Title: "Moved", URL: w.URL + "/old"}, {ID: 6, Title: "Logo", URL: w.URL + "/logo.png"}}},
		}, nil
	})
	libTask := addTask(t, st, Task{Name: "links", Type: Library, Top: "/Research", Options: Options{Report: DefaultReport}})
	tree := addTask(t, st, Task{Name: "docs", Type: Tree, Top: w.URL + "/docs/"})
	res, err := Run(ctx, st, testConfig(), Request{Tasks: []Task{libTask, tree}, Library: lib}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, rr := range res.Reports {
		if rr.Err != "" {
			t.Fatalf("task %s: %s", rr.Task.Name, rr.Err)
		}
	}
	m := loadModel(t, st, res.Reports[0].ReportID)
	if got := docURLs(m); !slices.Equal(got, []string{"library:/Research", "library:/Research/Old"}) {
		t.Errorf("documents = %q", got)
	}
	// Pointers are leaves: tested, never traversed; /docs/ is the tree task's top as well,
	// and /logo.png a reference of its pages: each is requested once in the run (a 404
	// answer to HEAD is confirmed with a GET).
	if w.count("/docs/") != 1 || w.count("/logo.png") != 1 || w.hits["HEAD /missing"] != 1 {
		t.Errorf("requests: %v", w.hits)
	}
	if w.count("/about") != 0 {
		t.Errorf("a pointer's page was traversed: %v", w.hits)
	}
	if l := linkOf(m, w.URL+"/missing"); l == nil || l.Verdict != "broken" {
		t.Errorf("missing = %+v", l)
	}
	if l := linkOf(m, w.URL+"/old"); l == nil || l.Verdict != "redirected" || l.FinalURL != w.URL+"/new" {
		t.Errorf("old = %+v", l)
	}
	if len(m.News.Broken) != 1 || m.News.Broken[0].URL != w.URL+"/missing" || len(m.News.Moved) != 1 {
		t.Errorf("news = %+v", m.News)
	}

	// Without a library (or with a path it does not have) the task fails alone, saying why.
	res, err = Run(ctx, st, testConfig(), Request{Tasks: []Task{libTask}}, nil)
	if err != nil || len(res.Reports) != 1 || res.Reports[0].Err == "" {
		t.Fatalf("without a library: %+v, %v", res.Reports, err)
	}
	other := addTask(t, st, Task{Name: "elsewhere", Type: Library, Top: "/Nowhere"})
	res, err = Run(ctx, st, testConfig(), Request{Tasks: []Task{other}, Library: lib}, nil)
	if err != nil || len(res.Reports) != 1 || res.Reports[0].Err == "" {
		t.Fatalf("an unknown path: %+v, %v", res.Reports, err)
	}
}
