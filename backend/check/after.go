package check

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"mundaneum/backend/check/report"
	"mundaneum/backend/mailer"
)

// Notice is what a run with news tells its user: a title and a few words, for a desktop
// notification.
type Notice struct {
	Task     string
	ReportID int64
	Title    string
	Text     string
}

// After does what follows a run: it writes each task's index file (with the previous one
// kept beside it and linked), e-mails the news of tasks that ask for it, and returns a
// notice for each task whose report has news worth telling. A failure of one step is
// returned and does not stop the others.
func After(ctx context.Context, st report.Store, s Settings, res Result) ([]Notice, error) {
	var notices []Notice
	var errs []error
	for _, rr := range res.Reports {
		if rr.ReportID == 0 {
			continue
		}
		t := rr.Task
		if t.Options.IndexFile != "" {
			if err := WriteIndexFile(ctx, st, rr.ReportID, t.Options.IndexFile); err != nil {
				errs = append(errs, fmt.Errorf("task %q: %w", t.Name, err))
			}
		}
		if rr.News.Tell() == 0 {
			continue
		}
		notices = append(notices, Notice{Task: t.Name, ReportID: rr.ReportID, Title: "Mundaneum: " + t.Name,
			Text: newsLine(rr.News)})
		if t.Options.Email && t.Options.For != "" && s.SMTP.Host != "" {
			if err := mailNews(ctx, st, s.SMTP, rr); err != nil {
				errs = append(errs, fmt.Errorf("task %q: %w", t.Name, err))
			}
		}
	}
	return notices, errors.Join(errs...)
}

// newsLine says in a few words what is worth telling.
func newsLine(n NewsCounts) string {
	var parts []string
	add := func(k int, one, many string) {
		switch {
		case k == 1:
			parts = append(parts, "1 "+one)
		case k > 1:
			parts = append(parts, fmt.Sprintf("%d %s", k, many))
		}
	}
	add(n.TellDead, "dead link", "dead links")
	add(n.TellMoved, "moved page", "moved pages")
	add(n.TellChanged, "changed page", "changed pages")
	add(n.TellExpire, "expiring page", "expiring pages")
	if f := n.FailingText(); f != "" {
		parts = append(parts, f)
	}
	return strings.Join(parts, ", ")
}

// WriteIndexFile writes a report as HTML to path, keeping the index it replaces beside
// it as NAME.prev.html and linking to it (MOMspider's link to the prior version). The
// new file appears whole or not at all.
func WriteIndexFile(ctx context.Context, st report.Store, reportID int64, path string) error {
	m, err := report.Load(ctx, st, reportID)
	if err != nil {
		return err
	}
	ext := filepath.Ext(path)
	prev := strings.TrimSuffix(path, ext) + ".prev" + ext
	if _, err := os.Stat(path); err == nil {
		if err := os.Rename(path, prev); err != nil {
			return fmt.Errorf("keep the prior index: %w", err)
		}
	}
	if _, err := os.Stat(prev); err == nil {
		m.PriorHref = filepath.Base(prev)
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".index-*.tmp")
	if err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	defer os.Remove(f.Name())
	if err := report.WriteHTML(f, m); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// mailNews e-mails a task's news worth telling to whom the task is for.
func mailNews(ctx context.Context, st report.Store, s SMTP, rr ReportResult) error {
	m, err := report.LoadPage(ctx, st, rr.ReportID, 0, 0)
	if err != nil {
		return err
	}
	pw := os.Getenv("MUNDANEUM_SMTP_PASSWORD")
	if s.PasswordFile != "" {
		b, err := os.ReadFile(s.PasswordFile)
		if err != nil {
			return fmt.Errorf("SMTP password: %w", err)
		}
		pw = strings.TrimRight(string(b), "\r\n")
	}
	subject, body := MailText(rr.Task, m)
	return mailer.Send(ctx, mailer.Server{Host: s.Host, Port: s.Port, TLS: s.TLS, Username: s.Username, Password: pw},
		mailer.Message{From: s.From, To: []string{rr.Task.Options.For}, Subject: subject, Body: body})
}

// MailText is the e-mail of a report's news worth telling: what the task reports and
// was not in its previous report.
func MailText(t Task, m *report.Model) (subject, body string) {
	rep := t.Options.Report
	var b strings.Builder
	fmt.Fprintf(&b, "Mundaneum checked the %s infostructure %q (%s) on %s.\n", t.Type, t.Name, t.Top,
		m.Generated.UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&b, "%s.\n", m.Counts.Summary(string(t.Type)))
	if f := report.FailingText(m.Counts.Failing, m.Counts.DeadFrom, m.Counts.ChecksLeft); f != "" {
		fmt.Fprintf(&b, "%s.\n", f)
	}
	var counts NewsCounts
	section := func(title string, items []report.Item, keep func(report.Item) bool, n *int) {
		var sel []report.Item
		for _, it := range items {
			if it.New && keep(it) {
				sel = append(sel, it)
			}
		}
		*n = len(sel)
		if len(sel) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n%s (%d):\n", title, len(sel))
		for i, it := range sel {
			if i == 100 {
				fmt.Fprintf(&b, "  ... and %d more (see the report)\n", len(sel)-i)
				break
			}
			fmt.Fprintf(&b, "  %s\n    %s\n", plain(it.URL), plain(it.Detail))
			if it.FinalURL != "" {
				fmt.Fprintf(&b, "    now at %s\n", plain(it.FinalURL))
			}
			for _, f := range it.From {
				fmt.Fprintf(&b, "    cited by %s\n", plain(f))
			}
			if it.FromMore > 0 {
				fmt.Fprintf(&b, "    and by %d more document%s\n", it.FromMore, plural(it.FromMore))
			}
		}
	}
	section("Dead links", m.News.Broken, func(it report.Item) bool { return rep.Broken && it.Dead }, &counts.TellDead)
	section("Moved permanently", m.News.Moved, func(it report.Item) bool { return rep.Moved && it.Permanent }, &counts.TellMoved)
	section("Recently changed", m.News.Changed, func(report.Item) bool { return rep.ChangedDays > 0 }, &counts.TellChanged)
	section("Expiring", m.News.Expiring, func(report.Item) bool { return rep.ExpiringDays > 0 }, &counts.TellExpire)
	fmt.Fprintf(&b, "\nThe whole report: mundaneum report %q --format html\n", t.Name)
	counts.Failing, counts.DeadFrom, counts.ChecksLeft = 0, "", 0 // the subject tells news only
	return "Mundaneum: " + t.Name + ": " + newsLine(counts), b.String()
}

// plain keeps crawled text to one printable line.
func plain(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
	if len(s) > 500 {
		s = s[:500] + "…"
	}
	return s
}
