// Package check watches the web a researcher cares about for rot and change: MOMspider's
// maintenance tasks in a modern form. A run traverses each task's infostructure
// breadth-first from its top, tests every reference once (however many tasks share it)
// with HEAD, falling back to GET, behind robots.txt and per-host politeness, and turns
// what it saw into verdicts (one closed type, classified in one place: classify), a
// history per URL that makes a link dead only after repeated failures, and per task a
// report of its documents and MOMspider's four kinds of news.
//
// A run's calls go one way down its files. Run (run.go) sets a run up and ends it; the
// scheduler (sched.go) takes jobs from the per-host queue the crawl's frontier uses too
// (backend/hostq), sends them to the workers as politeness allows and hands their
// outcomes to the requests and results (request.go: request, done, finish, the fragments
// waiting for their pages), which tell the tasks' traversals (traverse.go, library.go,
// reached through the small board interface they declare) and queue what they ask for,
// unless the host was given up (hosthealth.go) or the machine is offline (offline.go, a
// watch that returns what it held back rather than finishing it). Below these: the run's
// state (state.go), its targets (table.go, target.go), the worker that makes requests
// (work.go) and the verdicts (verdict.go). A target moves from probe to document only
// through target.upgrade and target.reread. Reports are built in reports.go and read back
// by check/report, which owns their model and stored form.
package check

import (
	"context"
	"errors"
	"time"

	"mundaneum/backend/check/record"
)

// ErrRunning is returned when a check run is already under way in this process.
var ErrRunning = errors.New("a check run is already running")

// Run runs one check: every task of req and every URL of req. Progress is called a few
// times a second and once at the end. A run stopped by ctx keeps what it tested (as
// history) but makes no reports.
func Run(ctx context.Context, st Store, cfg Config, req Request, progress func(Progress)) (Result, error) {
	cfg.defaults()
	if progress == nil {
		progress = func(Progress) {}
	}
	names := make([]string, 0, len(req.Tasks))
	for _, t := range req.Tasks {
		names = append(names, t.Name)
	}
	rec, err := st.StartCheckRun(ctx, names)
	if err != nil {
		return Result{}, err
	}
	r := newRun(st, cfg, rec)
	r.start = time.Now()
	progress(r.snapshot())
	for _, t := range req.Tasks {
		if err := r.addTask(ctx, t, req.Library); err != nil {
			r.taskErrs[t.Name] = err.Error()
		}
	}
	links := make([]*target, 0, len(req.URLs))
	for _, raw := range req.URLs {
		t := r.addURL(raw)
		links = append(links, t)
	}
	r.schedule(ctx, progress)
	if ctx.Err() == nil {
		r.finishHeld(r.net.settle(ctx))
	}
	r.verdicts.close()
	fctx := context.WithoutCancel(ctx)
	res := Result{Run: rec, Offline: r.offlineNote()}
	res.Run.State, res.Run.Tested, res.Run.Requests = record.RunDone, r.verdicts.tested, r.verdicts.requests
	switch {
	case ctx.Err() != nil:
		res.Run.State = record.RunCancelled
	case r.verdicts.err != nil:
		res.Run.State, res.Run.Error = record.RunFailed, r.verdicts.err.Error()
	default:
		res.Reports = r.reports(fctx)
		// A task's schedule counts from runs that ended: one stopped by a quit is due again
		// at the next launch.
		for _, tr := range r.tasks {
			if err := st.MarkTaskRun(fctx, tr.task.ID, r.start.UnixMilli()); err != nil {
				r.verdicts.fail(err)
			}
		}
	}
	for _, t := range links {
		res.Links = append(res.Links, linkResult(t))
	}
	if err := st.FinishCheckRun(fctx, res.Run); err != nil {
		r.verdicts.fail(err)
	}
	p := r.snapshot()
	p.State = res.Run.State
	progress(p)
	if r.verdicts.err != nil {
		return res, r.verdicts.err
	}
	if ctx.Err() != nil {
		return res, context.Cause(ctx)
	}
	return res, nil
}

// addTask starts a task's traversal.
func (r *run) addTask(ctx context.Context, t Task, lib LibrarySource) error {
	system, err := Rules(ctx, r.st, 0)
	if err != nil {
		return err
	}
	own, err := Rules(ctx, r.st, t.ID)
	if err != nil {
		return err
	}
	tr := newTaskRun(t, newRuleSet(time.Now(), system, own))
	r.tasks = append(r.tasks, tr)
	if t.Type == Library {
		return tr.startLibrary(ctx, r, lib)
	}
	tr.start(r)
	return nil
}

// addURL queues a link given on its own: tested as a leaf.
func (r *run) addURL(raw string) *target {
	t := r.tab.forRaw(raw)
	r.request(t, modeProbe, waiter{}, "")
	return t
}
