package app

import (
	"context"
	"errors"
	"log"
	"strings"

	"mundaneum/backend/check"
	"mundaneum/backend/check/record"
	"mundaneum/backend/crawl"
	"mundaneum/backend/store"
)

// Maintenance events, "domain:verb"; payloads are CheckProgress.
const (
	EventCheckProgress = "check:progress"
	EventCheckDone     = "check:done"
)

// maxLinks bounds the links one CheckLinks call takes.
const maxLinks = 10000

// CheckTasks lists the maintenance tasks by name.
func (a *App) CheckTasks() (result []CheckTask, _ error) {
	defer lists(&result)
	ts, err := check.Tasks(context.Background(), a.ws().st)
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]CheckTask, 0, len(ts))
	for _, t := range ts {
		out = append(out, taskDTO(t))
	}
	return out, nil
}

// SaveCheckTask adds a task (ID 0) or changes one.
func (a *App) SaveCheckTask(t CheckTask) (CheckTask, error) {
	ctx, st := context.Background(), a.ws().st
	var saved check.Task
	var err error
	if t.ID == 0 {
		saved, err = check.AddTask(ctx, st, taskFromDTO(t))
	} else {
		saved, err = check.UpdateTask(ctx, st, taskFromDTO(t))
	}
	if err != nil {
		return CheckTask{}, apiError(err)
	}
	return taskDTO(saved), nil
}

// DeleteCheckTask removes a task with its rules and reports.
func (a *App) DeleteCheckTask(name string) error {
	return apiError(check.DeleteTask(context.Background(), a.ws().st, name))
}

// RunCheckTasks starts a run of the named tasks (all of them when none is named); progress
// arrives as "check:progress" events and the end as "check:done".
func (a *App) RunCheckTasks(names []string) (result CheckProgress, _ error) {
	defer lists(&result)
	ctx := context.Background()
	w := a.ws()
	all, err := check.Tasks(ctx, w.st)
	if err != nil {
		return CheckProgress{}, apiError(err)
	}
	var tasks []check.Task
	for _, t := range all {
		if len(names) == 0 || contains(names, t.Name) {
			tasks = append(tasks, t)
		}
	}
	if len(tasks) == 0 {
		return CheckProgress{}, &Error{Code: CodeNotFound, Message: "no such task"}
	}
	return a.startCheck(w, check.Request{Tasks: tasks})
}

// CheckLinks starts a run that tests the given links now (one per line or list item).
func (a *App) CheckLinks(urls []string) (result CheckProgress, _ error) {
	defer lists(&result)
	var clean []string
	for _, u := range urls {
		clean = append(clean, strings.Fields(u)...)
	}
	switch {
	case len(clean) == 0:
		return CheckProgress{}, &Error{Code: CodeInvalid, Message: "no link to check"}
	case len(clean) > maxLinks:
		return CheckProgress{}, &Error{Code: CodeInvalid, Message: "at most 10000 links at a time"}
	}
	return a.startCheck(a.ws(), check.Request{URLs: clean})
}

// CancelCheck stops the run under way (what it tested is kept).
func (a *App) CancelCheck() error {
	if err := a.ws().checks.Cancel(); err != nil {
		return &Error{Code: CodeConflict, Message: err.Error()}
	}
	return nil
}

// CheckState returns the run under way, or state "idle".
func (a *App) CheckState() (result CheckProgress, _ error) {
	defer lists(&result)
	w := a.ws()
	if p, ok := w.lastProgress(); ok && p.State == record.RunRunning {
		return p, nil
	}
	return CheckProgress{State: "idle", Verdicts: map[string]int64{}}, nil
}

// CheckRuns lists the latest check runs, newest first.
func (a *App) CheckRuns(limit int) (result []CheckRun, _ error) {
	defer lists(&result)
	rs, err := a.ws().st.CheckRuns(context.Background(), clampLimit(limit, 100))
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]CheckRun, 0, len(rs))
	for _, r := range rs {
		out = append(out, runDTO(r))
	}
	return out, nil
}

// CheckRunLinks returns the links a run tested, at most limit of them.
func (a *App) CheckRunLinks(runID int64, limit int) (result []LinkCheck, _ error) {
	defer lists(&result)
	limit = clampLimit(limit, 10000)
	var out []LinkCheck
	errEnough := errors.New("enough")
	err := a.ws().st.RunChecks(context.Background(), runID, func(c record.Row) error {
		if len(out) == limit {
			return errEnough
		}
		out = append(out, linkCheckDTO(c))
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		return nil, apiError(err)
	}
	return out, nil
}

// LinkHistory returns the latest checks of a URL, newest first.
func (a *App) LinkHistory(url string, limit int) (result []LinkCheck, _ error) {
	defer lists(&result)
	rows, err := a.ws().st.CheckHistory(context.Background(), strings.TrimSpace(url), clampLimit(limit, 200))
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]LinkCheck, 0, len(rows))
	for _, r := range rows {
		out = append(out, linkCheckDTO(r))
	}
	return out, nil
}

func clampLimit(limit, max int) int {
	if limit <= 0 || limit > max {
		return max
	}
	return limit
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// startCheck runs req on workspace w in the background, with events, the follow-up
// (index files, e-mail) and desktop notifications.
func (a *App) startCheck(w *workspace, req check.Request) (CheckProgress, error) {
	ctx := context.Background()
	cfg, settings, err := checkConfig(ctx, w.st)
	if err != nil {
		return CheckProgress{}, apiError(err)
	}
	progress := func(p check.Progress) {
		dto := progressDTO(p)
		w.setProgress(dto)
		if p.State == record.RunRunning {
			a.emit(EventCheckProgress, dto)
		}
	}
	done := func(res check.Result, runErr error) {
		dto, _ := w.lastProgress()
		dto.State = res.Run.State
		notices, err := check.After(context.WithoutCancel(ctx), w.st, settings, res)
		if err = errors.Join(runErr, err); err != nil {
			dto.Error = err.Error()
			log.Printf("check run %d: %v", res.Run.ID, err)
		}
		for _, rr := range res.Reports {
			if rr.Err != "" {
				dto.Error = strings.TrimPrefix(dto.Error+"; ", "; ") + rr.Task.Name + ": " + rr.Err
			}
		}
		for _, n := range notices {
			dto.Notices = append(dto.Notices, CheckNotice{Task: n.Task, ReportID: n.ReportID, Title: n.Title, Text: n.Text})
			if settings.Notify && a.notifier != nil {
				if err := a.notifier.Notify(ctx, n.Title, n.Text); err != nil && !errors.Is(err, ErrNoSessionBus) {
					log.Printf("notify: %v", err)
				}
			}
		}
		w.setProgress(dto)
		a.emit(EventCheckDone, dto)
	}
	id, err := w.checks.Start(cfg, req, progress, done)
	if errors.Is(err, check.ErrRunning) {
		return CheckProgress{}, &Error{Code: CodeConflict, Message: err.Error()}
	}
	if err != nil {
		return CheckProgress{}, apiError(err)
	}
	p, _ := w.lastProgress()
	p.RunID = id
	return p, nil
}

// checkConfig reads a workspace's settings into a run's configuration.
func checkConfig(ctx context.Context, st *store.Store) (check.Config, check.Settings, error) {
	ws, err := st.Settings(ctx)
	if err != nil {
		return check.Config{}, check.Settings{}, err
	}
	cs, err := check.LoadSettings(ctx, st)
	if err != nil {
		return check.Config{}, check.Settings{}, err
	}
	return check.ConfigFor(CheckCrawling(ws), cs), cs, nil
}

// CheckCrawling is what a check run takes from the workspace's crawl settings: the
// crawler's User-Agent and From, its parallelism and its delay per host.
func CheckCrawling(ws store.Settings) check.Crawling {
	return check.Crawling{UserAgent: crawl.UserAgent(ws.UserAgentSuffix), From: ws.From,
		Agents: ws.Agents, PerHost: ws.PerHost, DelayMs: ws.DelayMs}
}

// startScheduler runs w's scheduled tasks while the app runs (catching up at launch).
func (a *App) startScheduler(w *workspace) {
	ctx, cancel := context.WithCancel(context.Background())
	w.stopScheduler = cancel
	s := check.NewScheduler(func(ctx context.Context) ([]check.Task, error) { return check.Tasks(ctx, w.st) },
		func(due []check.Task) error {
			_, err := a.startCheck(w, check.Request{Tasks: due})
			return err
		})
	go s.Run(ctx)
}
