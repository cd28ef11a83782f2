package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"mundaneum/backend/check/record"
	"mundaneum/backend/urlnorm"
)

// Type is a task's kind of infostructure: MOMspider's three, and a library subtree.
type Type string

// Task types.
const (
	// Site: every document on the top document's host and port; anything elsewhere is a leaf.
	Site Type = "site"
	// Tree: every document at or below the top document's directory.
	Tree Type = "tree"
	// Owner: the top document and every document whose Owner (meta element or header)
	// is the task's name; anything else is a leaf.
	Owner Type = "owner"
	// Library: every pointer of a library subtree, tested as a leaf.
	Library Type = "library"
)

// ErrBadTask is returned (wrapped) for a task that cannot be saved or run as given.
var ErrBadTask = errors.New("bad task")

// ErrNoTask is returned (wrapped) when no task has the given name.
var ErrNoTask = record.ErrNoTask

// Report says which news of a run a task reports (by notification and e-mail; the index
// document always lists all four kinds) and over which windows.
type Report struct {
	Moved        bool `json:"moved"`        // redirected references
	Broken       bool `json:"broken"`       // references that are dead
	ChangedDays  int  `json:"changedDays"`  // documents modified within this many days (0: not reported)
	ExpiringDays int  `json:"expiringDays"` // documents expiring within this many days (0: not reported)
}

// DefaultReport reports moved and broken links, changes of the last week and expiries of
// the next one.
var DefaultReport = Report{Moved: true, Broken: true, ChangedDays: 7, ExpiringDays: 7}

// Options are a task's settings besides its name, type and top.
type Options struct {
	Title        string `json:"title,omitempty"`     // the index document's title
	For          string `json:"for,omitempty"`       // whom the task is for (an e-mail address)
	Email        bool   `json:"email,omitempty"`     // mail the reported news to For
	Report       Report `json:"report"`              // what is news worth telling
	EveryMinutes int    `json:"everyMinutes"`        // run every this many minutes while the app runs; 0: when asked
	MaxPages     int    `json:"maxPages,omitempty"`  // documents traversed per run (0: DefaultMaxPages)
	MaxDepth     int    `json:"maxDepth,omitempty"`  // links from the top (0: no limit)
	IndexFile    string `json:"indexFile,omitempty"` // also write the HTML index here after each run
	// InternalOnly leaves references outside the infostructure's site untested (they are
	// listed, not tested), as linkchecker and wget do by default; MOMspider tested them.
	InternalOnly bool `json:"internalOnly,omitempty"`
}

// DefaultMaxPages bounds the documents one task traverses in a run.
const DefaultMaxPages = 100_000

// Task is a maintenance task.
type Task struct {
	ID        int64
	Name      string
	Type      Type
	Top       string // the top URL (canonical), or the library subtree's path
	Options   Options
	CreatedAt time.Time
	LastRunAt time.Time // zero if never run
}

// Due reports whether a scheduled task should run at now: it never ran, or its period
// has passed since its last run started. Unscheduled tasks are never due.
func (t Task) Due(now time.Time) bool {
	if t.Options.EveryMinutes <= 0 {
		return false
	}
	return t.LastRunAt.IsZero() || !now.Before(t.NextRun())
}

// NextRun is when a scheduled task is next due (zero for an unscheduled one).
func (t Task) NextRun() time.Time {
	if t.Options.EveryMinutes <= 0 {
		return time.Time{}
	}
	if t.LastRunAt.IsZero() {
		return t.CreatedAt
	}
	return t.LastRunAt.Add(time.Duration(t.Options.EveryMinutes) * time.Minute)
}

const maxName = 100

// Normalize checks a task and puts its fields in canonical form.
func (t *Task) Normalize() error {
	t.Name = strings.TrimSpace(t.Name)
	t.Top = strings.TrimSpace(t.Top)
	t.Type = Type(strings.ToLower(string(t.Type)))
	o := &t.Options
	o.Title, o.For, o.IndexFile = strings.TrimSpace(o.Title), strings.TrimSpace(o.For), strings.TrimSpace(o.IndexFile)
	switch {
	case t.Name == "" || len([]rune(t.Name)) > maxName:
		return fmt.Errorf("%w: a name has 1 to %d characters", ErrBadTask, maxName)
	case strings.IndexFunc(t.Name, unicode.IsControl) >= 0 || strings.ContainsRune(t.Name, '/'):
		return fmt.Errorf("%w: a name has no control characters and no '/'", ErrBadTask)
	case o.EveryMinutes < 0 || o.MaxPages < 0 || o.MaxDepth < 0 || o.Report.ChangedDays < 0 || o.Report.ExpiringDays < 0:
		return fmt.Errorf("%w: periods, limits and windows cannot be negative", ErrBadTask)
	case o.EveryMinutes > 0 && o.EveryMinutes < 5:
		return fmt.Errorf("%w: a schedule runs at most every 5 minutes", ErrBadTask)
	case len(o.Title) > 300 || strings.IndexFunc(o.Title, unicode.IsControl) >= 0:
		return fmt.Errorf("%w: a title is one line of at most 300 characters", ErrBadTask)
	case o.For != "" && !validAddress(o.For):
		return fmt.Errorf("%w: %q is not an e-mail address", ErrBadTask, o.For)
	case o.Email && o.For == "":
		return fmt.Errorf("%w: e-mail needs an address to send to", ErrBadTask)
	}
	switch t.Type {
	case Site, Tree, Owner:
		u, err := urlnorm.Parse(t.Top)
		if err != nil {
			return fmt.Errorf("%w: top URL: %v", ErrBadTask, err)
		}
		t.Top = u.String()
	case Library:
		if t.Top == "" {
			t.Top = "/"
		}
		if len(t.Top) > 4096 || strings.IndexFunc(t.Top, unicode.IsControl) >= 0 {
			return fmt.Errorf("%w: a library path is one line", ErrBadTask)
		}
	default:
		return fmt.Errorf("%w: type %q is not site, tree, owner or library", ErrBadTask, t.Type)
	}
	return nil
}

// validAddress accepts one plain e-mail address, safe to put in a mail header.
func validAddress(a string) bool {
	at := strings.LastIndexByte(a, '@')
	return at > 0 && at < len(a)-1 && len(a) <= 254 && !strings.ContainsAny(a, " \t\r\n<>,;:\"()[]\\")
}

// TaskStore keeps tasks; *store.Store satisfies it.
type TaskStore interface {
	CreateTask(ctx context.Context, t record.Task) (record.Task, error)
	UpdateTask(ctx context.Context, t record.Task) (record.Task, error)
	DeleteTask(ctx context.Context, name string) error
	Tasks(ctx context.Context) ([]record.Task, error)
	TaskNamed(ctx context.Context, name string) (record.Task, error)
}

// AddTask checks and stores a new task.
func AddTask(ctx context.Context, ts TaskStore, t Task) (Task, error) {
	if err := t.Normalize(); err != nil {
		return Task{}, err
	}
	rec, err := ts.CreateTask(ctx, toRecord(t))
	if err != nil {
		return Task{}, err
	}
	return fromRecord(rec)
}

// UpdateTask checks and stores a changed task (found by t.ID).
func UpdateTask(ctx context.Context, ts TaskStore, t Task) (Task, error) {
	if err := t.Normalize(); err != nil {
		return Task{}, err
	}
	rec, err := ts.UpdateTask(ctx, toRecord(t))
	if err != nil {
		return Task{}, err
	}
	return fromRecord(rec)
}

// DeleteTask removes a task, its rules and its reports.
func DeleteTask(ctx context.Context, ts TaskStore, name string) error {
	return ts.DeleteTask(ctx, strings.TrimSpace(name))
}

// Tasks lists the tasks by name.
func Tasks(ctx context.Context, ts TaskStore) ([]Task, error) {
	recs, err := ts.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Task, 0, len(recs))
	for _, r := range recs {
		t, err := fromRecord(r)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// TaskNamed returns the task called name (ErrNoTask if none).
func TaskNamed(ctx context.Context, ts TaskStore, name string) (Task, error) {
	r, err := ts.TaskNamed(ctx, strings.TrimSpace(name))
	if err != nil {
		return Task{}, err
	}
	return fromRecord(r)
}

func toRecord(t Task) record.Task {
	js, _ := json.Marshal(t.Options)
	return record.Task{ID: t.ID, Name: t.Name, Type: string(t.Type), Top: t.Top, Options: js}
}

func fromRecord(r record.Task) (Task, error) {
	t := Task{ID: r.ID, Name: r.Name, Type: Type(r.Type), Top: r.Top, CreatedAt: time.UnixMilli(r.CreatedAt)}
	if r.LastRunAt > 0 {
		t.LastRunAt = time.UnixMilli(r.LastRunAt)
	}
	if err := json.Unmarshal(r.Options, &t.Options); err != nil {
		return Task{}, fmt.Errorf("task %q: options: %w", r.Name, err)
	}
	return t, nil
}
