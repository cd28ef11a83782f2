package check

import (
	"fmt"
	"time"

	"mundaneum/backend/check/record"
	"mundaneum/backend/check/report"
)

// Result is what a run did.
type Result struct {
	Run     record.Run
	Links   []LinkResult   // the verdicts of Request.URLs, in their order
	Reports []ReportResult // one per task
	// Offline says why this machine was offline during the run and how many links it left
	// untested ("" when it was not).
	Offline string
}

// ReportResult is a task's report of the run.
type ReportResult struct {
	Task     Task
	ReportID int64
	News     NewsCounts // how many items of each kind, and how many are worth telling
	Err      string     // why the task has no report
}

// NewsCounts counts a report's news, and the part of it worth telling the task's owner:
// what the task reports that was not in its previous report (permanent moves, dead links,
// changes, expiries).
type NewsCounts struct {
	Moved, Broken, Changed, Expiring             int
	Fragments                                    int // links to a part of a page that the page lacks
	TellMoved, TellDead, TellChanged, TellExpire int
	// Failing counts the broken links that are not dead yet, and DeadFrom and ChecksLeft
	// say how soon one can be (report.Counts).
	Failing    int
	DeadFrom   string
	ChecksLeft int
}

// FailingText is report.FailingText of the counts ("" when no link fails).
func (n NewsCounts) FailingText() string {
	return report.FailingText(n.Failing, n.DeadFrom, n.ChecksLeft)
}

// Tell is how many items are worth a notification.
func (n NewsCounts) Tell() int { return n.TellMoved + n.TellDead + n.TellChanged + n.TellExpire }

// Progress is a snapshot of a running check.
type Progress struct {
	RunID     int64
	State     string // running, then the run's end state
	Tasks     []string
	Tested    int64 // URLs tested
	Queued    int64 // requests waiting
	Documents int64 // as the reports count them: pages read for their links, libraries
	Requests  int64
	Verdicts  map[Kind]int64
	PerSec    float64 // URLs tested per second, smoothed
	Elapsed   time.Duration
	Note      string
}

// LinkResult is the verdict on one link, with its history.
type LinkResult struct {
	URL          string
	Verdict      Verdict
	Method       string
	Ms           int64
	Dead         bool
	Failures     int       // failing checks in a row, this one included
	FailingSince time.Time // first failing check of the streak
}

func linkResult(t *target) LinkResult {
	lr := LinkResult{URL: t.url}
	if t.res == nil {
		lr.Verdict = Verdict{Reason: "not tested: the run was stopped"}
		return lr
	}
	if t.base != nil && t.res == t.base.res {
		t = t.base // the part was found (or not looked for): the page's check and health
	}
	lr.Verdict, lr.Method, lr.Ms = t.res.v, t.res.method, t.res.ms
	lr.Dead, lr.Failures = t.health.DeadAt > 0, t.health.Failures
	if t.health.FailingSince > 0 {
		lr.FailingSince = time.UnixMilli(t.health.FailingSince)
	}
	return lr
}

func (lr LinkResult) String() string {
	return fmt.Sprintf("%s %s %d %s", lr.Verdict.Kind, lr.URL, lr.Verdict.Status, lr.Verdict.Reason)
}
