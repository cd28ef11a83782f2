package store

import (
	"context"
	"errors"
	"testing"

	"mundaneum/backend/check/record"
)

func TestCheckTasksAndRules(t *testing.T) {
	ctx := context.Background()
	st := openTest(t)
	task, err := st.CreateTask(ctx, record.Task{Name: "docs", Type: "tree", Top: "http://a.example/docs/", Options: []byte(`{}`)})
	if err != nil || task.ID == 0 || task.CreatedAt == 0 {
		t.Fatalf("create = %+v, %v", task, err)
	}
	if _, err := st.CreateTask(ctx, record.Task{Name: "docs", Type: "site", Top: "http://b/", Options: []byte(`{}`)}); !errors.Is(err, ErrExists) {
		t.Fatalf("duplicate name: %v", err)
	}
	task.Top = "http://a.example/docs/v2/"
	if got, err := st.UpdateTask(ctx, task); err != nil || got.Top != task.Top {
		t.Fatalf("update = %+v, %v", got, err)
	}
	n, err := st.AddRules(ctx, []record.Rule{
		{Action: "avoid", Prefix: "http://a.example/cgi/"},
		{TaskID: task.ID, Action: "leaf", Prefix: "http://a.example/docs/big/", ExpiresAt: 1000},
		{TaskID: task.ID, Action: "avoid", Prefix: "http://a.example/cgi/"},
	})
	if err != nil || n != 3 {
		t.Fatalf("add = %d, %v", n, err)
	}
	// The same prefix again replaces the rule instead of doubling it.
	if n, err := st.AddRules(ctx, []record.Rule{{Action: "leaf", Prefix: "http://a.example/cgi/", Note: "again"}}); err != nil || n != 0 {
		t.Fatalf("re-add = %d, %v", n, err)
	}
	sys, _ := st.CheckRules(ctx, 0)
	mine, _ := st.CheckRules(ctx, task.ID)
	if len(sys) != 1 || sys[0].Action != "leaf" || sys[0].Note != "again" || len(mine) != 2 || mine[1].ExpiresAt != 1000 {
		t.Fatalf("system %+v task %+v", sys, mine)
	}
	if err := st.DeleteRule(ctx, sys[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteTask(ctx, "docs"); err != nil {
		t.Fatal(err)
	}
	if rs, _ := st.CheckRules(ctx, task.ID); len(rs) != 0 {
		t.Fatalf("a deleted task's rules stay: %+v", rs)
	}
	if err := st.DeleteTask(ctx, "docs"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("delete twice: %v", err)
	}
}

func TestSaveChecksKeepsHistoryAndHealth(t *testing.T) {
	ctx := context.Background()
	st := openTest(t)
	count := func(prev record.Health, r *record.Test) record.Health {
		h := record.Health{Verdict: r.Verdict, Status: r.Status, CheckedAt: r.At, Hash: r.Hash}
		if r.Verdict == "broken" {
			h.Failures = prev.Failures + 1
		}
		return h
	}
	for i := range 3 {
		run, err := st.StartCheckRun(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		saved, err := st.SaveChecks(ctx, run.ID, []record.Test{
			{URL: "http://a/x", At: int64(i + 1), Verdict: "broken", Status: 404, Size: -1},
			{URL: "http://a/y", At: int64(i + 1), Verdict: "ok", Status: 200, Hash: "h", Size: 10},
		}, count)
		if err != nil {
			t.Fatal(err)
		}
		if saved[0].Prev.Failures != i || saved[0].Next.Failures != i+1 || saved[1].ID == saved[0].ID {
			t.Fatalf("run %d: %+v", i, saved)
		}
		run.State, run.Tested = record.RunDone, 2
		if err := st.FinishCheckRun(ctx, run); err != nil {
			t.Fatal(err)
		}
	}
	hist, err := st.CheckHistory(ctx, "http://a/x", 10)
	if err != nil || len(hist) != 3 || hist[0].At != 3 || hist[0].Status != 404 {
		t.Fatalf("history = %+v, %v", hist, err)
	}
	h, err := st.LinkHealth(ctx, []string{"http://a/x", "http://a/y", "http://a/never"})
	if err != nil || len(h) != 2 || h["http://a/x"].Failures != 3 || h["http://a/y"].Hash != "h" {
		t.Fatalf("health = %+v, %v", h, err)
	}
	runs, _ := st.CheckRuns(ctx, 10)
	if len(runs) != 3 || runs[0].State != record.RunDone || runs[0].Tested != 2 {
		t.Fatalf("runs = %+v", runs)
	}
	// A run left running by a dead process shows as interrupted.
	r, _ := st.StartCheckRun(ctx, []string{"t"})
	if err := st.MarkInterrupted(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.CheckRunByID(ctx, r.ID); got.State != record.RunInterrupted || got.Tasks[0] != "t" {
		t.Fatalf("interrupted run = %+v", got)
	}
}

func TestReportsLinkToTheirPriorAndPruneDocs(t *testing.T) {
	ctx := context.Background()
	st := openTest(t)
	task, _ := st.CreateTask(ctx, record.Task{Name: "t", Type: "site", Top: "http://a/", Options: []byte(`{}`)})
	ids, err := st.URLIDs(ctx, []string{"http://a/", "http://a/b"})
	if err != nil || ids[0] == ids[1] {
		t.Fatal(ids, err)
	}
	again, _ := st.URLIDs(ctx, []string{"http://a/b"})
	if again[0] != ids[1] {
		t.Fatal("URLIDs gave a second id to a known URL")
	}
	var reports []int64
	for range keepReportDocs + 2 {
		run, _ := st.StartCheckRun(ctx, []string{"t"})
		id, err := st.SaveReport(ctx, record.Report{RunID: run.ID, TaskID: task.ID, Summary: []byte(`{}`), News: []byte(`{}`)},
			[]record.Doc{{Seq: 0, URLID: ids[0], Refs: []byte{1, 2}}, {Seq: 1, URLID: ids[1], Depth: 1}})
		if err != nil {
			t.Fatal(err)
		}
		reports = append(reports, id)
	}
	last, err := st.Report(ctx, reports[len(reports)-1])
	if err != nil || last.PriorID != reports[len(reports)-2] || last.Docs != 2 || last.Task != "t" {
		t.Fatalf("last = %+v, %v", last, err)
	}
	first, _ := st.Report(ctx, reports[0])
	if first.PriorID != 0 || first.Docs != 0 {
		t.Fatalf("the oldest report keeps its documents: %+v", first)
	}
	var urls []string
	st.ReportDocs(ctx, last.ID, 1, 10, func(d record.Doc) error { urls = append(urls, d.URL); return nil })
	if len(urls) != 1 || urls[0] != "http://a/b" {
		t.Fatalf("page of docs = %q", urls)
	}
	if list, _ := st.Reports(ctx, task.ID, 3); len(list) != 3 || list[0].ID != last.ID {
		t.Fatalf("reports = %+v", list)
	}
}
