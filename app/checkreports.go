package app

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"mundaneum/backend/check"
	"mundaneum/backend/check/report"
)

// reportPage bounds the documents of a report returned at once.
const reportPage = 200

// CheckReports lists reports, newest first: a task's, or every task's when task is "".
func (a *App) CheckReports(task string, limit int) (result []CheckReportInfo, _ error) {
	defer lists(&result)
	ctx, st := context.Background(), a.ws().st
	var taskID int64
	if task != "" {
		t, err := check.TaskNamed(ctx, st, task)
		if err != nil {
			return nil, apiError(err)
		}
		taskID = t.ID
	}
	rs, err := st.Reports(ctx, taskID, clampLimit(limit, 500))
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]CheckReportInfo, 0, len(rs))
	for _, r := range rs {
		out = append(out, reportInfoDTO(r))
	}
	return out, nil
}

// CheckReport returns a report with documents offset.. (at most limit, 200 at most) and
// the links they reference.
func (a *App) CheckReport(id int64, offset, limit int) (result CheckReportPage, _ error) {
	defer lists(&result)
	if offset < 0 {
		offset = 0
	}
	m, err := report.LoadPage(context.Background(), a.ws().st, id, offset, clampLimit(limit, reportPage))
	if err != nil {
		return CheckReportPage{}, apiError(err)
	}
	return reportPageDTO(m, offset), nil
}

// ExportCheckReport returns a report as a document: format html (MOMspider's index), csv
// or json.
func (a *App) ExportCheckReport(id int64, format string) (string, error) {
	m, err := report.Load(context.Background(), a.ws().st, id)
	if err != nil {
		return "", apiError(err)
	}
	var buf bytes.Buffer
	switch format {
	case "html", "":
		err = report.WriteHTML(&buf, m)
	case "csv":
		err = report.WriteCSV(&buf, m)
	case "json":
		err = report.WriteJSON(&buf, m)
	default:
		return "", &Error{Code: CodeInvalid, Message: "format is html, csv or json"}
	}
	if err != nil {
		return "", apiError(err)
	}
	return buf.String(), nil
}

// SaveCheckReport asks where to save a report (the window's file dialog) and writes it
// there as html, csv or json; it returns the path, "" when cancelled. The browser front
// door has no dialogs: it downloads ExportCheckReport's text instead.
func (a *App) SaveCheckReport(id int64, format string) (string, error) {
	if a.dialogs == nil {
		return "", &Error{Code: CodeUnavailable, Message: "file dialogs exist only in the desktop window"}
	}
	text, err := a.ExportCheckReport(id, format)
	if err != nil {
		return "", err
	}
	if format == "" {
		format = "html"
	}
	path, err := a.dialogs.SaveDocument("Save the report", fmt.Sprintf("report-%d.%s", id, format))
	if err != nil || path == "" {
		return "", apiError(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return "", apiError(err)
	}
	return path, nil
}

// AvoidRules lists the avoid and leaf rules of a task, or the system-wide ones (task "").
func (a *App) AvoidRules(task string) (result []AvoidRule, _ error) {
	defer lists(&result)
	ctx := context.Background()
	id, err := a.taskID(ctx, task)
	if err != nil {
		return nil, err
	}
	rs, err := check.Rules(ctx, a.ws().st, id)
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]AvoidRule, 0, len(rs))
	for _, r := range rs {
		out = append(out, ruleDTO(r))
	}
	return out, nil
}

// AddAvoidRule adds (or replaces, for the same prefix) an avoid or leaf rule; Expires is
// RFC 3339 or a date (YYYY-MM-DD), "" for never.
func (a *App) AddAvoidRule(r AvoidRule) (AvoidRule, error) {
	rule := check.Rule{TaskID: r.TaskID, Action: r.Action, Prefix: r.Prefix, Note: r.Note}
	if e := strings.TrimSpace(r.Expires); e != "" {
		t, err := parseDate(e)
		if err != nil {
			return AvoidRule{}, err
		}
		rule.Expires = t
	}
	if _, err := check.AddRules(context.Background(), a.ws().st, []check.Rule{rule}); err != nil {
		return AvoidRule{}, apiError(err)
	}
	return ruleDTO(rule), nil
}

// DeleteAvoidRule removes an avoid or leaf rule.
func (a *App) DeleteAvoidRule(id int64) error {
	return apiError(a.ws().st.DeleteRule(context.Background(), id))
}

// ImportCheckFile imports one of MOMspider's files given as text: kind "avoid" (into the
// task's rules, or the system-wide ones for task ""), "sites" or "instructions" (tasks).
func (a *App) ImportCheckFile(kind, task, text string) (result CheckImport, _ error) {
	defer lists(&result)
	ctx, st := context.Background(), a.ws().st
	r := strings.NewReader(text)
	var out CheckImport
	switch kind {
	case "avoid":
		id, err := a.taskID(ctx, task)
		if err != nil {
			return out, err
		}
		n, err := check.ImportRules(ctx, st, id, r)
		if err != nil {
			return out, apiError(err)
		}
		out.Added = n
	case "sites":
		si, err := check.ImportSites(ctx, st, r)
		if err != nil {
			return out, apiError(err)
		}
		out.Added, out.Unknown = si.Updated, si.Unknown
	case "instructions":
		ti, err := check.ImportTasks(ctx, st, r)
		if err != nil {
			return out, apiError(err)
		}
		out.Added, out.Names, out.Skipped, out.Warnings = len(ti.Added), ti.Added, ti.Skipped, ti.Warnings
	default:
		return out, &Error{Code: CodeInvalid, Message: "kind is avoid, sites or instructions"}
	}
	return out, nil
}

// ExportCheckFile writes the rules of a task (or the system-wide ones) as a MOMspider
// avoid file (kind "avoid"), or the robots.txt table as a sites file (kind "sites").
func (a *App) ExportCheckFile(kind, task string) (string, error) {
	ctx, st := context.Background(), a.ws().st
	var buf bytes.Buffer
	switch kind {
	case "avoid":
		id, err := a.taskID(ctx, task)
		if err != nil {
			return "", err
		}
		rs, err := check.Rules(ctx, st, id)
		if err == nil {
			err = check.ExportRules(&buf, rs)
		}
		if err != nil {
			return "", apiError(err)
		}
	case "sites":
		ss, err := st.RobotsSites(ctx)
		if err == nil {
			err = check.ExportSites(&buf, ss)
		}
		if err != nil {
			return "", apiError(err)
		}
	default:
		return "", &Error{Code: CodeInvalid, Message: "kind is avoid or sites"}
	}
	return buf.String(), nil
}

// RobotsSites lists the sites whose robots.txt is kept, with until when.
func (a *App) RobotsSites() (result []RobotsSite, _ error) {
	defer lists(&result)
	ss, err := a.ws().st.RobotsSites(context.Background())
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]RobotsSite, 0, len(ss))
	for _, s := range ss {
		out = append(out, SiteOf(s))
	}
	return out, nil
}

// SetRobotsExpiry changes until when a site's robots.txt holds: "now" (fetch it again at
// the next request), "never" (MOMspider's [*]), or a date.
func (a *App) SetRobotsExpiry(origin, expires string) error {
	var at time.Time
	switch e := strings.TrimSpace(expires); e {
	case "now":
		at = time.Now()
	case "never":
		at = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
	default:
		t, err := parseDate(e)
		if err != nil {
			return err
		}
		at = t
	}
	return apiError(a.ws().st.SetRobotsExpiry(context.Background(), origin, at.UnixMilli()))
}

// CheckSettings returns the maintenance settings.
func (a *App) CheckSettings() (CheckSettings, error) {
	s, err := check.LoadSettings(context.Background(), a.ws().st)
	if err != nil {
		return CheckSettings{}, apiError(err)
	}
	return CheckSettings{DeadChecks: s.DeadChecks, DeadDays: s.DeadDays, RobotsDays: s.RobotsDays, Notify: s.Notify,
		SMTP: CheckSMTP(s.SMTP)}, nil
}

// SaveCheckSettings checks and stores the maintenance settings.
func (a *App) SaveCheckSettings(s CheckSettings) (CheckSettings, error) {
	_, err := check.SaveSettings(context.Background(), a.ws().st, check.Settings{DeadChecks: s.DeadChecks,
		DeadDays: s.DeadDays, RobotsDays: s.RobotsDays, Notify: s.Notify, SMTP: check.SMTP(s.SMTP)})
	if err != nil {
		return CheckSettings{}, apiError(err)
	}
	return a.CheckSettings()
}

// taskID is the id of the task called name, 0 for "" (the system-wide list).
func (a *App) taskID(ctx context.Context, name string) (int64, error) {
	if strings.TrimSpace(name) == "" {
		return 0, nil
	}
	t, err := check.TaskNamed(ctx, a.ws().st, name)
	if err != nil {
		return 0, apiError(err)
	}
	return t.ID, nil
}

// parseDate reads a date the user typed: RFC 3339, or YYYY-MM-DD (end of that day, UTC).
func parseDate(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t.Add(24*time.Hour - time.Second), nil
	}
	return time.Time{}, &Error{Code: CodeInvalid, Message: "a date is YYYY-MM-DD or RFC 3339"}
}
