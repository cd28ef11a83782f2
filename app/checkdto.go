package app

import (
	"encoding/json"
	"time"

	"mundaneum/backend/check"
	"mundaneum/backend/check/record"
	"mundaneum/backend/check/report"
)

// Maintenance DTOs (MOMspider's tasks, runs, reports, rules and sites table).

// CheckTask is a maintenance task.
type CheckTask struct {
	ID           int64             `json:"id"`
	Name         string            `json:"name"`
	Type         string            `json:"type"` // site | tree | owner | library
	Top          string            `json:"top"`  // the top URL, or a library path
	Title        string            `json:"title"`
	For          string            `json:"for"`   // whom it is for (an e-mail address)
	Email        bool              `json:"email"` // mail the news to For
	Report       CheckReportChoice `json:"report"`
	EveryMinutes int               `json:"everyMinutes"` // 0: only when asked
	MaxPages     int               `json:"maxPages"`
	MaxDepth     int               `json:"maxDepth"`
	IndexFile    string            `json:"indexFile"`
	InternalOnly bool              `json:"internalOnly"`
	CreatedAt    string            `json:"createdAt"`
	LastRunAt    string            `json:"lastRunAt"`
	NextRunAt    string            `json:"nextRunAt"`
}

// CheckReportChoice is which news a task reports.
type CheckReportChoice struct {
	Moved        bool `json:"moved"`
	Broken       bool `json:"broken"`
	ChangedDays  int  `json:"changedDays"`
	ExpiringDays int  `json:"expiringDays"`
}

// CheckProgress is a check run as it goes (the "check:progress" and "check:done" events).
type CheckProgress struct {
	RunID     int64            `json:"runId"`
	State     string           `json:"state"` // running, done, cancelled, failed, idle
	Tasks     []string         `json:"tasks"`
	Tested    int64            `json:"tested"`
	Queued    int64            `json:"queued"`
	Documents int64            `json:"documents"`
	Requests  int64            `json:"requests"`
	Verdicts  map[string]int64 `json:"verdicts"`
	PerSec    float64          `json:"perSec"`
	ElapsedMs int64            `json:"elapsedMs"`
	Notices   []CheckNotice    `json:"notices"`
	Error     string           `json:"error"`
	Note      string           `json:"note"` // what the run says of itself: that this machine is offline
}

// CheckNotice is news worth telling from one task's report.
type CheckNotice struct {
	Task     string `json:"task"`
	ReportID int64  `json:"reportId"`
	Title    string `json:"title"`
	Text     string `json:"text"`
}

// CheckRun is a finished or running check run.
type CheckRun struct {
	ID         int64    `json:"id"`
	StartedAt  string   `json:"startedAt"`
	FinishedAt string   `json:"finishedAt"`
	State      string   `json:"state"`
	Tasks      []string `json:"tasks"`
	Tested     int64    `json:"tested"`
	Requests   int64    `json:"requests"`
	Error      string   `json:"error"`
}

// LinkCheck is one test of one link.
type LinkCheck struct {
	URL       string     `json:"url"`
	Verdict   string     `json:"verdict"` // ok redirected broken server_error blocked rate_limited timeout robots_excluded invalid
	Code      string     `json:"code"`
	Status    int        `json:"status"`
	FinalURL  string     `json:"finalUrl"`
	Permanent bool       `json:"permanent"`
	Chain     []CheckHop `json:"chain"`
	Reason    string     `json:"reason"`
	Method    string     `json:"method"`
	Ms        int64      `json:"ms"`
	Title     string     `json:"title"`
	At        string     `json:"at"`
	// Dead, Failures and FailingSince are the link's health after this test: a run's own
	// results and its reports say them (the command line's check --json); a run's stored
	// tests do not (false, 0, "").
	Dead         bool   `json:"dead"`
	Failures     int    `json:"failures"` // failing checks in a row, this one included
	FailingSince string `json:"failingSince"`
}

// CheckHop is one redirect of a chain.
type CheckHop struct {
	Status int    `json:"status"`
	URL    string `json:"url"`
}

// CheckReportInfo lists a report.
type CheckReportInfo struct {
	ID        int64           `json:"id"`
	RunID     int64           `json:"runId"`
	Task      string          `json:"task"`
	PriorID   int64           `json:"priorId"`
	CreatedAt string          `json:"createdAt"`
	Documents int             `json:"documents"`
	News      CheckNewsCounts `json:"news"`
}

// CheckNewsCounts counts a report's news, and its new items.
type CheckNewsCounts struct {
	Moved       int `json:"moved"`
	Broken      int `json:"broken"`
	Changed     int `json:"changed"`
	Expiring    int `json:"expiring"`
	NewMoved    int `json:"newMoved"`
	NewBroken   int `json:"newBroken"`
	NewChanged  int `json:"newChanged"`
	NewExpiring int `json:"newExpiring"`
	Fragments   int `json:"fragments"` // links to a part of a page that the page lacks
	Dead        int `json:"dead"`
	// Failing counts the broken links not dead yet; DeadFrom (a date, "" once passed) and
	// ChecksLeft say how soon one can be.
	Failing    int    `json:"failing"`
	DeadFrom   string `json:"deadFrom"`
	ChecksLeft int    `json:"checksLeft"`
}

// CheckReportPage is a report with one page of its documents.
type CheckReportPage struct {
	ID        int64           `json:"id"`
	Task      report.Task     `json:"task"`
	RunID     int64           `json:"runId"`
	PriorID   int64           `json:"priorId"`
	Generated string          `json:"generated"`
	Started   string          `json:"started"`
	Elapsed   string          `json:"elapsed"`
	Program   string          `json:"program"`
	Options   []report.Option `json:"options"`
	Note      string          `json:"note"`
	Counts    report.Counts   `json:"counts"`
	Offset    int             `json:"offset"`
	Links     []report.Link   `json:"links"` // the links of this page's documents
	Docs      []report.Doc    `json:"docs"`
	News      report.News     `json:"news"`
}

// AvoidRule is an Avoid or Leaf prefix (MOMspider's avoid file).
type AvoidRule struct {
	ID      int64  `json:"id"`
	TaskID  int64  `json:"taskId"` // 0: system-wide
	Action  string `json:"action"` // avoid | leaf
	Prefix  string `json:"prefix"`
	Expires string `json:"expires"` // RFC 3339, "" never
	Active  bool   `json:"active"`
	Note    string `json:"note"`
}

// RobotsSite is a row of the robots.txt table (MOMspider's sites file).
type RobotsSite struct {
	Origin    string `json:"origin"`
	Status    int    `json:"status"`
	Bytes     int    `json:"bytes"`
	FetchedAt string `json:"fetchedAt"`
	ExpiresAt string `json:"expiresAt"`
	Never     bool   `json:"never"` // kept until the user says otherwise ("[*]")
}

// CheckSettings are the maintenance settings.
type CheckSettings struct {
	DeadChecks int       `json:"deadChecks"`
	DeadDays   int       `json:"deadDays"`
	RobotsDays int       `json:"robotsDays"`
	Notify     bool      `json:"notify"`
	SMTP       CheckSMTP `json:"smtp"`
}

// CheckSMTP is the mail server for task e-mail (the password lives in a file, never in
// the workspace).
type CheckSMTP struct {
	Host         string `json:"host"`
	Port         int    `json:"port"`
	TLS          string `json:"tls"`
	From         string `json:"from"`
	Username     string `json:"username"`
	PasswordFile string `json:"passwordFile"`
}

// CheckImport says what an import did.
type CheckImport struct {
	Added    int      `json:"added"`
	Names    []string `json:"names"`
	Skipped  []string `json:"skipped"`
	Unknown  []string `json:"unknown"`
	Warnings []string `json:"warnings"`
}

func taskDTO(t check.Task) CheckTask {
	o := t.Options
	dto := CheckTask{ID: t.ID, Name: t.Name, Type: string(t.Type), Top: t.Top, Title: o.Title, For: o.For, Email: o.Email,
		Report:       CheckReportChoice{Moved: o.Report.Moved, Broken: o.Report.Broken, ChangedDays: o.Report.ChangedDays, ExpiringDays: o.Report.ExpiringDays},
		EveryMinutes: o.EveryMinutes, MaxPages: o.MaxPages, MaxDepth: o.MaxDepth, IndexFile: o.IndexFile,
		InternalOnly: o.InternalOnly, CreatedAt: rfcTime(t.CreatedAt), LastRunAt: rfcTime(t.LastRunAt), NextRunAt: rfcTime(t.NextRun())}
	return dto
}

func taskFromDTO(d CheckTask) check.Task {
	return check.Task{ID: d.ID, Name: d.Name, Type: check.Type(d.Type), Top: d.Top, Options: check.Options{
		Title: d.Title, For: d.For, Email: d.Email,
		Report:       check.Report{Moved: d.Report.Moved, Broken: d.Report.Broken, ChangedDays: d.Report.ChangedDays, ExpiringDays: d.Report.ExpiringDays},
		EveryMinutes: d.EveryMinutes, MaxPages: d.MaxPages, MaxDepth: d.MaxDepth, IndexFile: d.IndexFile, InternalOnly: d.InternalOnly}}
}

func rfcTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func progressDTO(p check.Progress) CheckProgress {
	out := CheckProgress{RunID: p.RunID, State: p.State, Tasks: p.Tasks, Tested: p.Tested, Queued: p.Queued,
		Documents: p.Documents, Requests: p.Requests, Verdicts: map[string]int64{}, PerSec: p.PerSec,
		ElapsedMs: p.Elapsed.Milliseconds(), Note: p.Note}
	for k, n := range p.Verdicts {
		out.Verdicts[string(k)] = n
	}
	return out
}

func runDTO(r record.Run) CheckRun {
	return CheckRun{ID: r.ID, StartedAt: rfc3339(r.StartedAt), FinishedAt: rfc3339(r.FinishedAt), State: r.State,
		Tasks: r.Tasks, Tested: r.Tested, Requests: r.Requests, Error: r.Error}
}

func linkCheckDTO(c record.Row) LinkCheck {
	out := LinkCheck{URL: c.URL, Verdict: c.Verdict, Code: c.Code, Status: c.Status, FinalURL: c.FinalURL, Permanent: c.Permanent,
		Reason: c.Reason, Method: c.Method, Ms: c.Ms, Title: c.Title, At: rfc3339(c.At)}
	if c.Chain != "" {
		var hops []check.Hop
		if json.Unmarshal([]byte(c.Chain), &hops) == nil {
			for _, h := range hops {
				out.Chain = append(out.Chain, CheckHop{Status: h.Status, URL: h.URL})
			}
		}
	}
	return out
}

func reportInfoDTO(r record.Report) CheckReportInfo {
	out := CheckReportInfo{ID: r.ID, RunID: r.RunID, Task: r.Task, PriorID: r.PriorID, CreatedAt: rfc3339(r.CreatedAt), Documents: r.Docs}
	var n report.News
	if json.Unmarshal(r.News, &n) == nil {
		count := func(items []report.Item, total, fresh *int) {
			*total = len(items)
			for _, it := range items {
				if it.New {
					*fresh++
				}
				if it.Dead {
					out.News.Dead++
				}
			}
		}
		for _, it := range n.Broken {
			if it.Dead {
				continue
			}
			c := &out.News
			c.Failing++
			if it.DeadFrom != "" && (c.DeadFrom == "" || it.DeadFrom < c.DeadFrom) {
				c.DeadFrom = it.DeadFrom
			}
			if c.Failing == 1 || it.ChecksLeft < c.ChecksLeft {
				c.ChecksLeft = it.ChecksLeft
			}
		}
		count(n.Moved, &out.News.Moved, &out.News.NewMoved)
		count(n.Broken, &out.News.Broken, &out.News.NewBroken)
		count(n.Changed, &out.News.Changed, &out.News.NewChanged)
		count(n.Expiring, &out.News.Expiring, &out.News.NewExpiring)
		var fresh int
		count(n.Fragments, &out.News.Fragments, &fresh)
	}
	return out
}

func reportPageDTO(m *report.Model, offset int) CheckReportPage {
	out := CheckReportPage{ID: m.ID, Task: m.Task, RunID: m.RunID, PriorID: m.PriorID, Generated: rfcTime(m.Generated),
		Started: rfcTime(m.Started), Elapsed: m.Elapsed, Program: m.Program, Options: m.Options, Note: m.Note,
		Counts: m.Counts, Offset: offset, Links: m.Links, Docs: m.Docs, News: m.News}
	return out
}

func ruleDTO(r check.Rule) AvoidRule {
	return AvoidRule{ID: r.ID, TaskID: r.TaskID, Action: r.Action, Prefix: r.Prefix, Expires: rfcTime(r.Expires),
		Active: r.Active(time.Now()), Note: r.Note}
}

// SiteOf is a stored robots.txt table row as the window, serve and the CLI's --json show it.
func SiteOf(s record.RobotsSite) RobotsSite {
	never := s.ExpiresAt > 0 && time.UnixMilli(s.ExpiresAt).Year() >= 9999
	out := RobotsSite{Origin: s.Origin, Status: s.Status, Bytes: s.Bytes, FetchedAt: rfc3339(s.FetchedAt), Never: never}
	if !never {
		out.ExpiresAt = rfc3339(s.ExpiresAt)
	}
	return out
}
