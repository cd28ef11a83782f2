package check

import (
	"context"
	"testing"
)

// TestRunCountsTheReportsDocuments: a run's card and its report count documents one way. A
// library task's documents are its libraries (each pointer a reference), read from the
// library rather than downloaded: the run said "5 tested · 0 documents" beside a report of
// "3 documents".
func TestRunCountsTheReportsDocuments(t *testing.T) {
	t.Parallel()
	w := newTestWeb(t)
	st := openStore(t)
	ctx := context.Background()
	lib := LibraryFunc(func(_ context.Context, path string) ([]LibraryFolder, error) {
		return []LibraryFolder{
			{Path: "/Research", Pointers: []LibraryPointer{{ID: 2, Title: "Docs", URL: w.URL + "/docs/"}, {ID: 3, Title: "Lost", URL: w.URL + "/missing"}}},
			{Path: "/Research/Old", Pointers: []LibraryPointer{{ID: 5, Title: "Moved", URL: w.URL + "/old"}}},
			{Path: "/Research/Empty"},
		}, nil
	})
	task := addTask(t, st, Task{Name: "links", Type: Library, Top: "/Research", Options: Options{Report: DefaultReport}})
	var last Progress
	res, err := Run(ctx, st, testConfig(), Request{Tasks: []Task{task}, Library: lib}, func(p Progress) { last = p })
	if err != nil || len(res.Reports) != 1 || res.Reports[0].Err != "" {
		t.Fatalf("run: %+v, %v", res.Reports, err)
	}
	m := loadModel(t, st, res.Reports[0].ReportID)
	if m.Counts.Documents != 3 || last.Documents != int64(m.Counts.Documents) || last.Tested != 3 {
		t.Errorf("the run counted %d documents and %d tested, its report %d documents", last.Documents, last.Tested, m.Counts.Documents)
	}
}
