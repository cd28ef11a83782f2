package check

import (
	"context"
	"errors"
	"io"
	"mime/quotedprintable"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mundaneum/backend/mailer/mailertest"
)

func TestAfterWritesIndexFilesAndMailsTheNews(t *testing.T) {
	t.Parallel()
	w := newTestWeb(t)
	st := openStore(t)
	ctx := context.Background()
	smtp := mailertest.Start(t, "mund", "pw")
	pwFile := filepath.Join(t.TempDir(), "smtp-password")
	os.WriteFile(pwFile, []byte("pw\n"), 0o600)
	s := DefaultSettings()
	s.SMTP = SMTP{Host: smtp.Host, Port: smtp.Port, TLS: "none", From: "mundaneum@example.org", Username: "mund", PasswordFile: pwFile}
	index := filepath.Join(t.TempDir(), "site.html")
	task := addTask(t, st, Task{Name: "site", Type: Site, Top: w.URL + "/",
		Options: Options{For: "owner@example.org", Email: true, Report: DefaultReport, IndexFile: index}})

	first := runTasks(t, st, task)
	notices, err := After(ctx, st, s, first)
	if err != nil {
		t.Fatal(err)
	}
	// The first run finds moved pages (news worth telling) but no dead link yet: the failing
	// ones are said not to be dead.
	if len(notices) != 1 || !strings.Contains(notices[0].Text, "moved") || strings.Contains(notices[0].Text, "dead link") ||
		!strings.Contains(notices[0].Text, "failing, none dead until 1 more failing check") {
		t.Fatalf("notices = %+v", notices)
	}
	if b, err := os.ReadFile(index); err != nil || !strings.Contains(string(b), "This is the first index") {
		t.Fatalf("index file: %v", err)
	}

	second := runTasks(t, st, task)
	notices, err = After(ctx, st, s, second)
	if err != nil {
		t.Fatal(err)
	}
	// Dead after the second failing check (testConfig); the moves are old news.
	if len(notices) != 1 || !strings.Contains(notices[0].Text, "dead links") || strings.Contains(notices[0].Text, "moved") {
		t.Fatalf("notices = %+v", notices)
	}
	b, _ := os.ReadFile(index)
	if !strings.Contains(string(b), `href="site.prev.html"`) {
		t.Error("the index does not link to its prior version")
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(index), "site.prev.html")); err != nil {
		t.Error(err)
	}
	msgs := smtp.Messages()
	if len(msgs) != 2 {
		t.Fatalf("%d mails, want one per run with news", len(msgs))
	}
	m, err := mail.ReadMessage(strings.NewReader(msgs[1]))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(quotedprintable.NewReader(m.Body))
	if !strings.Contains(m.Header.Get("Subject"), "dead links") || !strings.Contains(string(body), w.URL+"/missing") ||
		!strings.Contains(string(body), "cited by "+w.URL+"/") || m.Header.Get("To") != "<owner@example.org>" {
		t.Errorf("mail:\n%v\n%s", m.Header, body)
	}
	// Without the password the server refuses, and After says so.
	s.SMTP.PasswordFile = filepath.Join(t.TempDir(), "missing")
	if _, err := After(ctx, st, s, second); err == nil {
		t.Error("a missing password file went unnoticed")
	}
}

func TestSchedulerCatchesUp(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)
	tasks := []Task{
		{Name: "hourly", Options: Options{EveryMinutes: 60}, CreatedAt: now.Add(-48 * time.Hour), LastRunAt: now.Add(-61 * time.Minute)},
		{Name: "daily", Options: Options{EveryMinutes: 24 * 60}, CreatedAt: now.Add(-48 * time.Hour), LastRunAt: now.Add(-3 * time.Hour)},
		{Name: "never run", Options: Options{EveryMinutes: 24 * 60}, CreatedAt: now.Add(-time.Minute)},
		{Name: "by hand", CreatedAt: now.Add(-48 * time.Hour)},
	}
	var started [][]string
	busy := false
	s := NewScheduler(func(context.Context) ([]Task, error) { return tasks, nil }, func(due []Task) error {
		if busy {
			return ErrRunning
		}
		var names []string
		for _, t := range due {
			names = append(names, t.Name)
		}
		started = append(started, names)
		return nil
	})
	s.Now = func() time.Time { return now }
	if got := s.Tick(context.Background()); len(got) != 2 || got[0].Name != "hourly" || got[1].Name != "never run" {
		t.Fatalf("due = %+v", got)
	}
	// The machine slept through the night: the daily task is due once, not once per missed day.
	now = now.Add(30 * time.Hour)
	tasks[0].LastRunAt, tasks[2].LastRunAt = now.Add(-30*time.Hour), now.Add(-30*time.Hour)
	busy = true
	if got := s.Tick(context.Background()); got != nil {
		t.Fatalf("started while a run was under way: %+v", got)
	}
	busy = false
	if got := s.Tick(context.Background()); len(got) != 3 {
		t.Fatalf("after sleep: %+v", got)
	}
	if len(started) != 2 {
		t.Fatalf("started = %q", started)
	}
}

func TestJobsRunOneAtATime(t *testing.T) {
	t.Parallel()
	w := newTestWeb(t)
	st := openStore(t)
	jobs := NewJobs(st, nil)
	defer jobs.Close()
	task := addTask(t, st, Task{Name: "site", Type: Site, Top: w.URL + "/"})
	done := make(chan Result, 1)
	id, err := jobs.Start(testConfig(), Request{Tasks: []Task{task}}, nil, func(r Result, err error) { done <- r })
	if err != nil || id == 0 {
		t.Fatal(id, err)
	}
	if _, err := jobs.Start(testConfig(), Request{URLs: []string{w.URL}}, nil, nil); !errors.Is(err, ErrRunning) {
		t.Errorf("a second run: %v", err)
	}
	if jobs.Running() != id {
		t.Errorf("running = %d, want %d", jobs.Running(), id)
	}
	res := <-done
	if res.Run.ID != id || len(res.Reports) != 1 || res.Reports[0].ReportID == 0 {
		t.Errorf("result = %+v", res)
	}
	// A library task without a library is reported, not fatal.
	lib := addTask(t, st, Task{Name: "lib", Type: Library, Top: "/Research"})
	if _, err := jobs.Start(testConfig(), Request{Tasks: []Task{lib}}, nil, func(r Result, err error) { done <- r }); err != nil {
		t.Fatal(err)
	}
	if res := <-done; len(res.Reports) != 1 || !strings.Contains(res.Reports[0].Err, "library") {
		t.Errorf("library task without a library: %+v", res.Reports)
	}
}
