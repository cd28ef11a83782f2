// Package record is what the workspace keeps for link checking: tasks and their rules,
// runs, each test of a URL, a URL's health across tests, reports with their documents, and
// MOMspider's sites table. Package check owns these records and declares the store
// interfaces it needs in them (CheckStore, TaskStore, RuleStore, SiteStore); the store
// implements those, as it does the library's. A leaf: it imports no project package, so
// that the store can keep check's records without importing check.
package record

import (
	"encoding/json"
	"errors"
)

// ErrNoTask is returned (wrapped) when no task has the given name.
var ErrNoTask = errors.New("not found")

// Check run states.
const (
	RunRunning     = "running"
	RunDone        = "done"
	RunCancelled   = "cancelled"
	RunFailed      = "failed"
	RunInterrupted = "interrupted" // the process died while it ran
)

// Run is one run of link checks: some tasks, or a list of URLs.
type Run struct {
	ID         int64
	StartedAt  int64 // unix ms
	FinishedAt int64 // 0 while running
	State      string
	Tasks      []string // task names; empty for a check of given URLs
	Tested     int64
	Requests   int64
	Error      string
}

// Test is one test of one URL in a run.
type Test struct {
	URL          string
	At           int64 // unix ms
	Verdict      string
	Status       int
	FinalURL     string
	Permanent    bool
	Chain        string // JSON [[status, url], ...]
	Reason       string
	Code         string
	Method       string
	ContentType  string
	Size         int64 // -1 unknown
	Ms           int64
	Title        string
	LastModified string
	Expires      string
	Owner        string
	ETag         string // not kept per check; it updates the URL's health
	Hash         string // of the body, for documents; it updates the URL's health
	Document     bool
}

// Health is what the workspace remembers of a URL across its checks.
type Health struct {
	Verdict      string // of the latest check, "" if never tested
	Status       int
	FinalURL     string
	Reason       string
	CheckedAt    int64
	FailingSince int64 // first failing check of the current streak, 0 if not failing
	Failures     int   // failing checks in the current streak
	DeadAt       int64 // when the streak made the link dead, 0 if alive
	Hash         string
	ETag         string
	LastModified string
	ChangedAt    int64
}

// NextHealth computes a URL's health after a check from the health before it. It runs
// inside the writer's transaction and may run again if the batch is replayed: it must
// only compute.
type NextHealth func(prev Health, rec *Test) Health

// Saved is what SaveChecks returns for each record: the URL's id and its health
// before and after.
type Saved struct {
	ID         int64
	Prev, Next Health
}

// Row is a stored check with its URL.
type Row struct {
	URLID int64
	RunID int64
	Test
}

// Task is a maintenance task (MOMspider's): an infostructure to traverse and check.
// Options are the check package's, kept as JSON.
type Task struct {
	ID        int64
	Name      string
	Type      string // site | tree | owner | library
	Top       string // the top URL, or a library subtree's path
	Options   json.RawMessage
	CreatedAt int64 // unix ms
	LastRunAt int64 // when its last run started, 0 if never
}

// Rule is an Avoid or Leaf prefix (MOMspider appendix C): system-wide when TaskID is 0.
type Rule struct {
	ID        int64
	TaskID    int64
	Action    string // avoid | leaf
	Prefix    string
	ExpiresAt int64 // unix ms; 0 never
	CreatedAt int64
	Note      string
}

// Report is a task's report of one run (MOMspider's index document). Summary and
// News are the check package's, kept as JSON.
type Report struct {
	ID        int64
	RunID     int64
	TaskID    int64
	Task      string // the task's name (joined)
	PriorID   int64  // the task's report before this one, 0 if none
	CreatedAt int64
	Summary   json.RawMessage
	News      json.RawMessage
	Docs      int // documents listed
}

// Doc is one document a report traversed: its URL and its references, packed by
// the check package.
type Doc struct {
	Seq   int
	URLID int64
	URL   string // filled on read
	Depth int
	Refs  []byte
}

// RobotsSite is one site's stored robots.txt outcome: a row of MOMspider's sites table
// (appendix D), which says until when a site's robots.txt holds before it is fetched again.
type RobotsSite struct {
	Origin    string
	Status    int   // HTTP status of the robots.txt fetch, 0 when there was no answer
	Bytes     int   // size of the stored robots.txt
	FetchedAt int64 // unix ms
	ExpiresAt int64 // unix ms
}
