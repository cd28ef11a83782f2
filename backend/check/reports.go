package check

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"mundaneum/backend/check/record"
	"mundaneum/backend/check/report"
)

// defaultWindow is the changed and expiring window of the index when a task reports
// neither (the index lists all four kinds of news; the task chooses what it is told).
const defaultWindow = 7

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

// reports builds and stores every task's report of the run.
func (r *run) reports(ctx context.Context) []ReportResult {
	if err := r.assignIDs(ctx); err != nil {
		r.saveErr = err
		return nil
	}
	out := make([]ReportResult, 0, len(r.tasks))
	for _, tr := range r.tasks {
		rr := ReportResult{Task: tr.task}
		if msg := r.taskErrs[tr.task.Name]; msg != "" {
			rr.Err = msg
			out = append(out, rr)
			continue
		}
		id, counts, err := r.saveReport(ctx, tr)
		if err != nil {
			rr.Err = err.Error()
		}
		rr.ReportID, rr.News = id, counts
		out = append(out, rr)
	}
	for name, msg := range r.taskErrs {
		found := false
		for _, rr := range out {
			found = found || rr.Task.Name == name
		}
		if !found {
			out = append(out, ReportResult{Task: Task{Name: name}, Err: msg})
		}
	}
	return out
}

// assignIDs gives every target the reports refer to a check_urls id (those never tested
// in this run, avoided by a rule or library folders, have none yet).
func (r *run) assignIDs(ctx context.Context) error {
	var missing []*target
	seen := make([]bool, len(r.targets))
	need := func(i int32) {
		if !seen[i] && r.targets[i].id == 0 {
			seen[i] = true
			missing = append(missing, r.targets[i])
		}
	}
	for _, tr := range r.tasks {
		for _, d := range tr.docs {
			need(d.t)
			for _, rf := range r.shownRefs(d.t) {
				need(rf.t)
			}
		}
	}
	for len(missing) > 0 {
		n := min(len(missing), 4096)
		urls := make([]string, n)
		for i, t := range missing[:n] {
			urls[i] = t.url
		}
		ids, err := r.st.URLIDs(ctx, urls)
		if err != nil {
			return err
		}
		for i, t := range missing[:n] {
			t.id = ids[i]
		}
		missing = missing[n:]
	}
	return nil
}

// saveReport builds a task's report and stores it.
func (r *run) saveReport(ctx context.Context, tr *taskRun) (int64, NewsCounts, error) {
	prior := priorNews(ctx, r.st, tr.task.ID)
	m := r.summary(tr)
	news, counts := r.news(tr, prior, &m.Counts)
	m.News = report.News{}
	sum, err := json.Marshal(m)
	if err != nil {
		return 0, counts, err
	}
	nj, err := json.Marshal(news)
	if err != nil {
		return 0, counts, err
	}
	docs := make([]record.Doc, len(tr.docs))
	for i, d := range tr.docs {
		t := r.targets[d.t]
		refs := r.shownRefs(d.t)
		prs := make([]packedRef, len(refs))
		for j, rf := range refs {
			prs[j] = packedRef{ID: r.targets[rf.t].id, Kind: rf.kind}
		}
		docs[i] = record.Doc{Seq: i, URLID: t.id, Depth: int(d.depth), Refs: packRefs(prs)}
	}
	id, err := r.st.SaveReport(ctx, record.Report{RunID: r.rec.ID, TaskID: tr.task.ID, Summary: sum, News: nj}, docs)
	return id, counts, err
}

// summary is a report's header: the task, how and when the run went, its counts.
func (r *run) summary(tr *taskRun) report.Model {
	t := tr.task
	m := report.Model{
		Task:    report.Task{Name: t.Name, Type: string(t.Type), Top: t.Top, Title: t.Options.Title, For: t.Options.For},
		RunID:   r.rec.ID,
		Started: r.start.UTC().Truncate(time.Second), Generated: time.Now().UTC().Truncate(time.Second),
		Elapsed: time.Since(r.start).Round(time.Millisecond).String(),
		Program: r.cfg.UserAgent,
		Options: []report.Option{
			{Name: "parallel requests", Value: strconv.Itoa(r.cfg.Agents)},
			{Name: "requests per host at a time", Value: strconv.Itoa(r.cfg.PerHost)},
			{Name: "delay between requests to a host", Value: r.cfg.Delay.String()},
			{Name: "timeout", Value: r.cfg.Timeout.String()},
			{Name: "retries", Value: strconv.Itoa(r.cfg.Retries)},
			{Name: "dead after", Value: fmt.Sprintf("%d failing checks over %s", r.cfg.Dead.Checks, days(r.cfg.Dead.Span))},
		},
	}
	if t.Options.MaxDepth > 0 {
		m.Options = append(m.Options, report.Option{Name: "depth limit", Value: strconv.Itoa(t.Options.MaxDepth)})
	}
	if tr.limited {
		m.Note = fmt.Sprintf("Stopped traversing at %d documents (the task's limit): further documents were only tested.", tr.max)
	}
	if off := r.offlineNote(); off != "" {
		m.Note = strings.TrimSpace(m.Note + " " + strings.ToUpper(off[:1]) + off[1:] + ".")
	}
	return m
}

func days(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		n := int(d / (24 * time.Hour))
		return fmt.Sprintf("%d day%s", n, plural(n))
	}
	return d.String()
}

// priorNews reads the news of a task's latest report, by kind and URL (dead links marked).
func priorNews(ctx context.Context, st Store, taskID int64) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	reps, err := st.Reports(ctx, taskID, 1)
	if err != nil || len(reps) == 0 {
		return out
	}
	var n report.News
	if json.Unmarshal(reps[0].News, &n) != nil {
		return out
	}
	for _, l := range n.Lists() {
		set := map[string]bool{}
		for _, it := range l.Items {
			set[it.URL] = true
			if it.Dead {
				set["dead "+it.URL] = true
			}
		}
		out[l.Kind] = set
	}
	return out
}

// news finds MOMspider's four kinds of news among a task's references, and counts the
// report's totals on the way.
func (r *run) news(tr *taskRun, prior map[string]map[string]bool, c *report.Counts) (report.News, NewsCounts) {
	var n report.News
	var nc NewsCounts
	rep := tr.task.Options.Report
	now := time.Now()
	changedWin := windowDays(rep.ChangedDays)
	expireWin := windowDays(rep.ExpiringDays)
	c.Verdicts = map[string]int{}
	add := func(list *[]report.Item, kind string, t *target, it report.Item) {
		it.URL, it.Title = t.url, t.res.title
		it.New = !prior[kind][t.url]
		*list = append(*list, it)
	}
	seen := make(map[int32]bool, len(tr.roles))       // the report's URLs, documents and references
	referenced := make(map[int32]bool, len(tr.roles)) // the URLs the documents reference
	isDoc := make(map[int32]bool, len(tr.docs))
	for _, d := range tr.docs {
		isDoc[d.t] = true
	}
	visit := func(i int32) {
		if seen[i] {
			return
		}
		seen[i] = true
		t := r.targets[i]
		if t.res == nil || t.bad == errNotRequested {
			return
		}
		c.Tested++
		v := t.res.v
		c.Verdicts[string(v.Kind)]++
		dead := t.health.DeadAt > 0
		if dead {
			c.Dead++
		}
		switch {
		case v.Kind == Redirected:
			add(&n.Moved, report.NewsMoved, t, report.Item{Verdict: string(v.Kind), Status: v.Status, Detail: v.Reason,
				FinalURL: v.FinalURL, Permanent: v.Permanent})
			if it := &n.Moved[len(n.Moved)-1]; it.New && v.Permanent && rep.Moved {
				nc.TellMoved++
			}
		case v.Kind == FragmentMissing:
			add(&n.Fragments, report.NewsFragments, t, report.Item{Verdict: string(v.Kind), Status: v.Status, Detail: v.Reason})
		case v.Kind.Failing():
			add(&n.Broken, report.NewsBroken, t, report.Item{Verdict: string(v.Kind), Status: v.Status,
				Detail: failDetail(v, t.health, r.cfg.Dead), Dead: dead, Failures: t.health.Failures})
			it := &n.Broken[len(n.Broken)-1]
			it.New = !prior[report.NewsBroken][t.url] || dead && !prior[report.NewsBroken]["dead "+t.url]
			if it.New && dead && rep.Broken {
				nc.TellDead++
			}
			if !dead {
				it.DeadFrom, it.ChecksLeft = deadFrom(t.health, r.cfg.Dead, now)
				c.Failing++
				if it.DeadFrom != "" && (c.DeadFrom == "" || it.DeadFrom < c.DeadFrom) {
					c.DeadFrom = it.DeadFrom
				}
				if c.Failing == 1 || it.ChecksLeft < c.ChecksLeft {
					c.ChecksLeft = it.ChecksLeft
				}
			}
		}
		if v.Kind == OK || v.Kind == Redirected {
			if when, why, ok := changed(t, now, changedWin); ok {
				add(&n.Changed, report.NewsChanged, t, report.Item{Verdict: string(v.Kind), Status: v.Status, Detail: why, When: when})
				if n.Changed[len(n.Changed)-1].New && rep.ChangedDays > 0 {
					nc.TellChanged++
				}
			}
		}
		if isDoc[i] && t.res.expires != "" {
			if when, why, ok := expiring(t.res.expires, now, expireWin); ok {
				add(&n.Expiring, report.NewsExpiring, t, report.Item{Verdict: string(v.Kind), Status: v.Status, Detail: why, When: when})
				if n.Expiring[len(n.Expiring)-1].New && rep.ExpiringDays > 0 {
					nc.TellExpire++
				}
			}
		}
	}
	for _, d := range tr.docs {
		c.Documents++
		visit(d.t)
		refs := r.shownRefs(d.t)
		c.References += len(refs)
		for _, rf := range refs {
			if !referenced[rf.t] {
				referenced[rf.t] = true
				c.Links++
			}
			visit(rf.t)
		}
	}
	crossReference(r, tr, &n)
	nc.Moved, nc.Broken, nc.Changed, nc.Expiring = len(n.Moved), len(n.Broken), len(n.Changed), len(n.Expiring)
	nc.Fragments = len(n.Fragments)
	nc.Failing, nc.DeadFrom, nc.ChecksLeft = c.Failing, c.DeadFrom, c.ChecksLeft
	return n, nc
}

// crossReference lists with each piece of news the first documents (breadth-first) that
// reference it, and counts the others. One URL may be news of several kinds (moved and
// changed): each of its items gets the references.
func crossReference(r *run, tr *taskRun, n *report.News) {
	type cited struct {
		items []*report.Item
		last  int // the last document counted
		docs  int // documents that reference it
	}
	byTarget := map[int32]*cited{}
	for _, l := range n.Lists() {
		for k := range l.Items {
			t, ok := r.byURL[l.Items[k].URL]
			if !ok {
				continue
			}
			c := byTarget[t.idx]
			if c == nil {
				c = &cited{last: -1}
				byTarget[t.idx] = c
			}
			c.items = append(c.items, &l.Items[k])
		}
	}
	if len(byTarget) == 0 {
		return
	}
	for di, d := range tr.docs {
		from := r.targets[d.t]
		for _, rf := range r.shownRefs(d.t) {
			c := byTarget[rf.t]
			if c == nil || c.last == di {
				continue // a document that references it twice (a link and an image) counts once
			}
			c.last = di
			c.docs++
			for _, it := range c.items {
				if len(it.From) < report.MaxFrom {
					it.From = append(it.From, from.url)
				}
			}
		}
	}
	for _, c := range byTarget {
		for _, it := range c.items {
			it.FromMore = c.docs - len(it.From)
		}
	}
}

func windowDays(d int) time.Duration {
	if d <= 0 {
		d = defaultWindow
	}
	return time.Duration(d) * 24 * time.Hour
}

// failDetail says why a link fails and how far it is from being dead.
func failDetail(v Verdict, h record.Health, p DeadPolicy) string {
	if h.DeadAt > 0 {
		return fmt.Sprintf("%s; dead: failing since %s (%d checks)", v.Reason, day(h.FailingSince), h.Failures)
	}
	if h.Failures <= 1 {
		return fmt.Sprintf("%s; first failure (dead after %d failing checks over %s)", v.Reason, p.Checks, days(p.Span))
	}
	return fmt.Sprintf("%s; failing since %s (%d of %d checks)", v.Reason, day(h.FailingSince), h.Failures, p.Checks)
}

// deadFrom says how soon a failing link that is not dead yet can be called dead: the day
// its streak has lasted the policy's span ("" when that is past) and the failing checks
// still needed.
func deadFrom(h record.Health, p DeadPolicy, now time.Time) (string, int) {
	when := ""
	if at := time.UnixMilli(h.FailingSince).Add(p.Span); h.FailingSince > 0 && at.After(now) {
		when = at.UTC().Format("2006-01-02")
	}
	return when, max(p.Checks-h.Failures, 0)
}

func day(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02") }

// changed reports whether a tested URL is recently modified: Last-Modified within the
// window, or content (hash, ETag, Last-Modified) different from the previous check.
func changed(t *target, now time.Time, window time.Duration) (when, why string, ok bool) {
	if t.health.ChangedAt > 0 && t.health.ChangedAt == t.res.at {
		return time.UnixMilli(t.res.at).UTC().Format(time.RFC3339), "changed since the last check", true
	}
	lm, err := http.ParseTime(t.res.lastModified)
	if err != nil || lm.After(now.Add(time.Hour)) || now.Sub(lm) > window {
		return "", "", false
	}
	return lm.UTC().Format(time.RFC3339), "modified " + lm.UTC().Format("2006-01-02 15:04 MST"), true
}

// expiring reports whether a document's expiry date is past or within the window.
func expiring(expires string, now time.Time, window time.Duration) (when, why string, ok bool) {
	e, err := http.ParseTime(expires)
	if err != nil {
		return "", "", false
	}
	when = e.UTC().Format(time.RFC3339)
	switch {
	case !e.After(now):
		return when, "expired " + e.UTC().Format("2006-01-02"), true
	case e.Sub(now) <= window:
		return when, "expires " + e.UTC().Format("2006-01-02"), true
	}
	return "", "", false
}
