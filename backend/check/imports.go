package check

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"mundaneum/backend/check/momfile"
	"mundaneum/backend/check/record"
)

// maxImport bounds a MOMspider file read for import.
const maxImport = 16 << 20

func readAll(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxImport+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxImport {
		return nil, fmt.Errorf("%w: larger than %d MiB", momfile.ErrSyntax, maxImport>>20)
	}
	return b, nil
}

// ImportRules reads a MOMspider avoid file (appendix C) into the system-wide rules
// (taskID 0) or a task's, all or nothing. It returns how many rules were new.
func ImportRules(ctx context.Context, rs RuleStore, taskID int64, r io.Reader) (int, error) {
	b, err := readAll(r)
	if err != nil {
		return 0, err
	}
	entries, err := momfile.ReadAvoid(bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	rules := make([]Rule, len(entries))
	for i, e := range entries {
		rules[i] = Rule{TaskID: taskID, Action: e.Action, Prefix: e.Prefix, Expires: e.Expires, Note: "imported"}
	}
	return AddRules(ctx, rs, rules)
}

// ExportRules writes rules as a MOMspider avoid file.
func ExportRules(w io.Writer, rules []Rule) error {
	entries := make([]momfile.Rule, len(rules))
	for i, r := range rules {
		entries[i] = momfile.Rule{Action: r.Action, Prefix: r.Prefix, Expires: r.Expires}
	}
	return momfile.WriteAvoid(w, entries)
}

// SiteStore keeps the robots.txt table; *store.Store satisfies it.
type SiteStore interface {
	RobotsSites(ctx context.Context) ([]record.RobotsSite, error)
	SetRobotsExpiry(ctx context.Context, origin string, at int64) error
}

// never is the expiry given to MOMspider's "[*]" (never check again).
var never = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)

// SiteImport says what importing a sites file did.
type SiteImport struct {
	Updated int      // sites whose robots.txt expiry was set
	Unknown []string // sites with no stored robots.txt: nothing to keep, fetched when needed
}

// ImportSites reads a MOMspider sites file (appendix D) and gives each listed site's
// stored robots.txt the file's expiry ("[*]": never fetch it again). A site the workspace
// holds no robots.txt for is reported, not invented: its robots.txt is fetched when first
// needed, and the restrictions MOMspider drew from it belong in the avoid file.
func ImportSites(ctx context.Context, ss SiteStore, r io.Reader) (SiteImport, error) {
	var out SiteImport
	b, err := readAll(r)
	if err != nil {
		return out, err
	}
	sites, err := momfile.ReadSites(bytes.NewReader(b))
	if err != nil {
		return out, err
	}
	known, err := ss.RobotsSites(ctx)
	if err != nil {
		return out, err
	}
	for _, s := range sites {
		exp := s.Expires
		if exp.IsZero() {
			exp = never
		}
		matched := false
		for _, k := range known {
			if siteMatches(k.Origin, s) {
				if err := ss.SetRobotsExpiry(ctx, k.Origin, exp.UnixMilli()); err != nil {
					return out, err
				}
				matched = true
				out.Updated++
			}
		}
		if !matched {
			out.Unknown = append(out.Unknown, net.JoinHostPort(s.Host, strconv.Itoa(s.Port)))
		}
	}
	return out, nil
}

// siteMatches reports whether an origin (scheme://host[:port]) is a sites file's host and
// port (MOMspider wrote 80 for the default).
func siteMatches(origin string, s momfile.Site) bool {
	scheme, hostport, ok := strings.Cut(origin, "://")
	if !ok {
		return false
	}
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, map[string]string{"http": "80", "https": "443"}[scheme]
	}
	return strings.EqualFold(strings.Trim(host, "[]"), strings.Trim(s.Host, "[]")) && port == strconv.Itoa(s.Port)
}

// ExportSites writes the robots.txt table as a MOMspider sites file.
func ExportSites(w io.Writer, sites []record.RobotsSite) error {
	out := make([]momfile.Site, 0, len(sites))
	for _, s := range sites {
		scheme, hostport, _ := strings.Cut(s.Origin, "://")
		host, port, err := net.SplitHostPort(hostport)
		if err != nil {
			host, port = hostport, map[string]string{"http": "80", "https": "443"}[scheme]
		}
		p, _ := strconv.Atoi(port)
		var exp time.Time
		if s.ExpiresAt > 0 && time.UnixMilli(s.ExpiresAt).Before(never) {
			exp = time.UnixMilli(s.ExpiresAt)
		}
		out = append(out, momfile.Site{Host: strings.Trim(host, "[]"), Port: p, Expires: exp})
	}
	return momfile.WriteSites(w, out)
}

// TaskImport says what importing an instruction file did.
type TaskImport struct {
	Added    []string // task names
	Skipped  []string // tasks whose name is taken, with why
	Warnings []string // directives this reader does not know
}

// ImportTasks reads a MOMspider instruction file (appendix A) and adds its tasks (a task
// whose name is taken is skipped). IndexFile, EmailAddress and the Email options carry
// over; IndexURL and the avoid and sites file paths name files on MOMspider's machine and
// are reported as warnings.
func ImportTasks(ctx context.Context, ts TaskStore, r io.Reader) (TaskImport, error) {
	var out TaskImport
	b, err := readAll(r)
	if err != nil {
		return out, err
	}
	in, err := momfile.ReadInstructions(bytes.NewReader(b))
	if err != nil {
		return out, err
	}
	out.Warnings = in.Warnings
	if in.AvoidFile != "" || in.SystemAvoid != "" {
		out.Warnings = append(out.Warnings, "avoid files are not read from the instruction file: import them with 'mundaneum avoid import'")
	}
	for _, mt := range in.Tasks {
		t := Task{Name: mt.Name, Type: Type(mt.Type), Top: mt.TopURL, Options: Options{
			Title: mt.IndexTitle, For: mt.Email, IndexFile: mt.IndexFile,
			Email:  mt.Email != "" && (mt.EmailBroken || mt.EmailMoved || mt.EmailChanged > 0 || mt.EmailExpired > 0),
			Report: Report{Broken: mt.EmailBroken, Moved: mt.EmailMoved, ChangedDays: mt.EmailChanged, ExpiringDays: mt.EmailExpired},
		}}
		if _, err := AddTask(ctx, ts, t); err != nil {
			out.Skipped = append(out.Skipped, fmt.Sprintf("%s: %v", mt.Name, err))
			continue
		}
		out.Added = append(out.Added, mt.Name)
	}
	return out, nil
}
