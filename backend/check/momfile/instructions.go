package momfile

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Task types of an instruction file.
const (
	TypeSite  = "site"  // everything on the top document's host and port
	TypeTree  = "tree"  // everything at or below the top document's directory
	TypeOwner = "owner" // documents whose Owner is the task's name
)

// maxDays bounds the day counts of EmailChanged, EmailExpired and SitesCheck.
const maxDays = 36500

// Instructions is an instruction file (appendix A): options, then tasks.
type Instructions struct {
	SystemAvoid string // system-wide avoid file
	SystemSites string // system-wide sites file
	AvoidFile   string // the user's avoid file
	SitesFile   string // the user's sites file
	SitesCheck  int    // days a robots.txt check holds; 0 when not given
	Tasks       []Task
	// Warnings name directives this reader does not know (MOMspider grew some after
	// 0.1a): they are skipped, not fatal.
	Warnings []string
}

// Task is one <Site>, <Tree> or <Owner> block.
type Task struct {
	Line       int    // where the block starts
	Type       string // TypeSite, TypeTree or TypeOwner
	Name       string // the infostructure's name (and, for Owner, the owner to match)
	TopURL     string
	IndexURL   string // where the index is published
	IndexFile  string // where the index is written
	IndexTitle string
	Email      string // whom the task is for
	// What is mailed: broken links, moved documents, documents changed within
	// EmailChanged days, documents expiring within EmailExpired days (0: not mailed).
	EmailBroken  bool
	EmailMoved   bool
	EmailChanged int
	EmailExpired int
}

// ReadInstructions reads an instruction file. Directive names are case-insensitive.
func ReadInstructions(r io.Reader) (*Instructions, error) {
	in := &Instructions{}
	var cur *Task
	err := lines(r, func(n int, line string) error {
		s := strings.TrimSpace(line)
		if comment(s) {
			return nil
		}
		if strings.HasPrefix(s, "<") {
			if cur != nil {
				return lineErr(n, "a task begins inside task %q (missing '>')", clip(cur.Name))
			}
			if len(in.Tasks) == MaxEntries {
				return lineErr(n, "more than %d tasks", MaxEntries)
			}
			typ := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(s, "<")))
			switch typ {
			case TypeSite, TypeTree, TypeOwner:
			default:
				return lineErr(n, "task type %q is not Site, Tree or Owner", clip(typ))
			}
			cur = &Task{Line: n, Type: typ}
			return nil
		}
		if s == ">" {
			if cur == nil {
				return lineErr(n, "'>' outside a task")
			}
			if err := cur.check(); err != nil {
				return err
			}
			in.Tasks = append(in.Tasks, *cur)
			cur = nil
			return nil
		}
		key, val, _ := strings.Cut(s, " ")
		val = strings.TrimSpace(val)
		if len(val) > MaxURL {
			return lineErr(n, "a value longer than %d bytes", MaxURL)
		}
		if cur == nil {
			return in.option(n, key, val)
		}
		known, err := cur.field(n, key, val)
		if !known {
			in.warn(n, key)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if cur != nil {
		return nil, lineErr(cur.Line, "task %q is not closed with '>'", clip(cur.Name))
	}
	return in, nil
}

func (in *Instructions) option(n int, key, val string) error {
	switch strings.ToLower(key) {
	case "systemavoid":
		in.SystemAvoid = val
	case "systemsites":
		in.SystemSites = val
	case "avoidfile":
		in.AvoidFile = val
	case "sitesfile":
		in.SitesFile = val
	case "sitescheck":
		d, err := days(n, key, val)
		if err != nil {
			return err
		}
		in.SitesCheck = d
	default:
		in.warn(n, key)
	}
	return nil
}

func (in *Instructions) warn(n int, key string) {
	if len(in.Warnings) < 100 {
		in.Warnings = append(in.Warnings, fmt.Sprintf("line %d: unknown directive %q skipped", n, clip(key)))
	}
}

// field sets one field of a task; known is false for a directive this reader skips.
func (t *Task) field(n int, key, val string) (known bool, err error) {
	switch strings.ToLower(key) {
	case "name":
		t.Name = val
	case "topurl":
		t.TopURL = val
	case "indexurl":
		t.IndexURL = val
	case "indexfile":
		t.IndexFile = val
	case "indextitle":
		t.IndexTitle = val
	case "emailaddress":
		t.Email = val
	case "emailbroken":
		t.EmailBroken = true
	case "emailredirected", "emailmoved":
		t.EmailMoved = true
	case "emailchanged":
		t.EmailChanged, err = days(n, key, val)
	case "emailexpired":
		t.EmailExpired, err = days(n, key, val)
	default:
		return false, nil
	}
	return true, err
}

func days(n int, key, val string) (int, error) {
	d, err := strconv.Atoi(val)
	if err != nil || d < 0 || d > maxDays {
		return 0, lineErr(n, "%s wants a number of days, got %q", key, clip(val))
	}
	return d, nil
}

func (t *Task) check() error {
	switch {
	case t.Name == "":
		return lineErr(t.Line, "a task without a Name")
	case t.TopURL == "":
		return lineErr(t.Line, "task %q has no TopURL", clip(t.Name))
	}
	if err := checkPrefix(t.TopURL); err != nil {
		return lineErr(t.Line, "task %q: %v", clip(t.Name), err)
	}
	return nil
}

// WriteInstructions writes tasks as an instruction file.
func WriteInstructions(w io.Writer, in *Instructions) error {
	var b strings.Builder
	b.WriteString("# MOMspider Instruction File (written by Mundaneum)\n")
	opt := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%s %s\n", k, oneLine(v))
		}
	}
	opt("SystemAvoid", in.SystemAvoid)
	opt("SystemSites", in.SystemSites)
	opt("AvoidFile", in.AvoidFile)
	opt("SitesFile", in.SitesFile)
	if in.SitesCheck > 0 {
		fmt.Fprintf(&b, "SitesCheck %d\n", in.SitesCheck)
	}
	for _, t := range in.Tasks {
		fmt.Fprintf(&b, "<%s\n", strings.ToUpper(t.Type[:1])+t.Type[1:])
		field := func(k, v string) {
			if v != "" {
				fmt.Fprintf(&b, "  %s %s\n", k, oneLine(v))
			}
		}
		field("Name", t.Name)
		field("TopURL", t.TopURL)
		field("IndexURL", t.IndexURL)
		field("IndexFile", t.IndexFile)
		field("IndexTitle", t.IndexTitle)
		field("EmailAddress", t.Email)
		if t.EmailBroken {
			b.WriteString("  EmailBroken\n")
		}
		if t.EmailMoved {
			b.WriteString("  EmailRedirected\n")
		}
		if t.EmailChanged > 0 {
			fmt.Fprintf(&b, "  EmailChanged %d\n", t.EmailChanged)
		}
		if t.EmailExpired > 0 {
			fmt.Fprintf(&b, "  EmailExpired %d\n", t.EmailExpired)
		}
		b.WriteString(">\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// oneLine keeps a value on its line.
func oneLine(s string) string {
	return strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
}
