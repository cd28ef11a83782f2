// Package report holds a maintenance report's data (MOMspider's index document: how and
// when it was made, each document of the infostructure with its header information and
// its typed references, cross-references, and the closing table of news) and writes it as
// HTML, CSV or JSON. It also owns a report's stored form: Load reads one back from the
// workspace (through the small Store interface it declares), and PackRefs/UnpackRefs and
// the reference kinds are how a document's references are kept there.
//
// Everything in a report came from crawled servers and pages: titles, URLs, reasons and
// headers are hostile text. The HTML writer escapes all of it (html/template) and only
// ever links to http and https URLs; nothing in a report can run script.
package report

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// News kinds: MOMspider's four kinds of document change.
const (
	NewsMoved    = "moved"    // references that redirect
	NewsBroken   = "broken"   // references that fail
	NewsChanged  = "changed"  // references modified recently, or whose content changed
	NewsExpiring = "expiring" // documents of the infostructure that expire soon
	// NewsFragments: links to a part of a page ("page.html#part") that the page lacks.
	// Not MOMspider's: its pages had no ids to check.
	NewsFragments = "fragments"
)

// Model is one report.
type Model struct {
	ID        int64     `json:"id"`
	Task      Task      `json:"task"`
	RunID     int64     `json:"runId"`
	Generated time.Time `json:"generated"`
	Started   time.Time `json:"started"`
	Elapsed   string    `json:"elapsed"`
	Program   string    `json:"program"` // the User-Agent it ran as
	Options   []Option  `json:"options"` // how it ran: politeness, the dead-link rule, limits
	Note      string    `json:"note,omitempty"`
	// PriorID is the task's previous report (0 if none); PriorHref, when set, is where
	// the HTML writer links to it.
	PriorID   int64  `json:"priorId,omitempty"`
	PriorHref string `json:"-"`

	Counts Counts `json:"counts"`
	// Links holds every URL the documents reference, each once; Docs refer to them by index.
	Links []Link `json:"links"`
	Docs  []Doc  `json:"documents"`
	News  News   `json:"news"`
}

// Task is the task a report is about, as it was when it ran.
type Task struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Top   string `json:"top"`
	Title string `json:"title,omitempty"`
	For   string `json:"for,omitempty"`
}

// Option is one setting of the run, for the report's header.
type Option struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Counts are a report's totals.
type Counts struct {
	Documents  int            `json:"documents"`
	References int            `json:"references"` // the references the documents make
	Links      int            `json:"links"`      // distinct URLs they reference (at most References)
	Tested     int            `json:"tested"`     // distinct URLs of the report tested, documents included
	Verdicts   map[string]int `json:"verdicts"`   // tested URLs by verdict
	Dead       int            `json:"dead"`
	// Failing counts the failing links that are not dead yet; DeadFrom (a date, "" when it
	// has passed) and ChecksLeft say the soonest any of them can be called dead.
	Failing    int    `json:"failing"`
	DeadFrom   string `json:"deadFrom,omitempty"`
	ChecksLeft int    `json:"checksLeft,omitempty"`
}

// FailingText says how many links fail without being dead yet, and until when at least
// none will be: "1 failing, not dead until 2026-12-04 and 2 more failing checks" ("" when
// none fails).
func FailingText(failing int, deadFrom string, checksLeft int) string {
	if failing <= 0 {
		return ""
	}
	var until []string
	if deadFrom != "" {
		until = append(until, deadFrom)
	}
	switch {
	case checksLeft == 1:
		until = append(until, "1 more failing check")
	case checksLeft > 1:
		until = append(until, strconv.Itoa(checksLeft)+" more failing checks")
	}
	head := strconv.Itoa(failing) + " failing"
	if len(until) == 0 {
		return head
	}
	if failing == 1 {
		return head + ", not dead until " + strings.Join(until, " and ")
	}
	return head + ", none dead until " + strings.Join(until, " and ")
}

// Summary is the counts in a sentence: "3 documents with 6 references to 5 distinct URLs;
// 5 URLs tested". A library task's documents are its libraries, their references pointers.
func (c Counts) Summary(taskType string) string {
	docs, refs := "document", "reference"
	if taskType == "library" {
		docs, refs = "librar", "pointer"
	}
	return fmt.Sprintf("%s with %s to %s; %s tested", count(c.Documents, docs), count(c.References, refs),
		count(c.Links, "distinct URL"), count(c.Tested, "URL"))
}

func count(n int, what string) string {
	switch {
	case what == "librar" && n == 1:
		return "1 library"
	case what == "librar":
		return strconv.Itoa(n) + " libraries"
	case n == 1:
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// Link is one URL a report's documents reference, with what its test found.
type Link struct {
	URL          string `json:"url"`
	Tested       bool   `json:"tested"` // false: avoided by a rule (or left when the run was cut short)
	Verdict      string `json:"verdict,omitempty"`
	Status       int    `json:"status,omitempty"`
	Reason       string `json:"reason,omitempty"`
	FinalURL     string `json:"finalUrl,omitempty"`
	Permanent    bool   `json:"permanent,omitempty"`
	Title        string `json:"title,omitempty"`
	LastModified string `json:"lastModified,omitempty"`
	Expires      string `json:"expires,omitempty"`
	Owner        string `json:"owner,omitempty"`
	ContentType  string `json:"contentType,omitempty"`
	Dead         bool   `json:"dead,omitempty"`
	Failures     int    `json:"failures,omitempty"` // failing checks in a row, this one included
	Doc          int    `json:"doc"`                // index in Docs when the link is a document of the report, else -1
}

// Doc is one document of the infostructure, in breadth-first order.
type Doc struct {
	Link  int   `json:"link"` // index in Links
	Depth int   `json:"depth"`
	Refs  []Ref `json:"refs"`
}

// Ref is one reference a document makes.
type Ref struct {
	Link int    `json:"link"` // index in Links
	Kind string `json:"kind"` // a, img, link, script, frame, ... (MOMspider: link, img, query)
}

// News is the closing table: MOMspider's four lists, and the links that miss their place.
type News struct {
	Moved     []Item `json:"moved"`
	Broken    []Item `json:"broken"`
	Changed   []Item `json:"changed"`
	Expiring  []Item `json:"expiring"`
	Fragments []Item `json:"fragments"`
}

// MarshalJSON writes every list as a list, [] when it is empty: a reader of the JSON
// takes "moved": null for a missing field, not for "nothing moved".
func (n News) MarshalJSON() ([]byte, error) {
	type plain News // without this method
	out := plain(n)
	for _, l := range []*[]Item{&out.Moved, &out.Broken, &out.Changed, &out.Expiring, &out.Fragments} {
		if *l == nil {
			*l = []Item{}
		}
	}
	return json.Marshal(out)
}

// Lists returns the lists with their kinds: MOMspider's four in its order, then the
// missing fragments.
func (n *News) Lists() []List {
	return []List{{NewsMoved, n.Moved}, {NewsBroken, n.Broken}, {NewsChanged, n.Changed}, {NewsExpiring, n.Expiring},
		{NewsFragments, n.Fragments}}
}

// List is one kind of news.
type List struct {
	Kind  string
	Items []Item
}

// MaxFrom bounds the cross-references listed with one piece of news (Item.From); the
// others are counted (Item.FromMore).
const MaxFrom = 5

// Item is one piece of news about a URL.
type Item struct {
	URL     string `json:"url"`
	Title   string `json:"title,omitempty"`
	Verdict string `json:"verdict,omitempty"`
	Status  int    `json:"status,omitempty"`
	// Detail says what is news: where it moved, why it fails, when it changed or expires.
	Detail    string `json:"detail"`
	FinalURL  string `json:"finalUrl,omitempty"`
	Permanent bool   `json:"permanent,omitempty"`
	Dead      bool   `json:"dead,omitempty"`
	Failures  int    `json:"failures,omitempty"`
	// DeadFrom (a date, "" once passed) and ChecksLeft say how soon a failing link that is
	// not dead yet can be called dead.
	DeadFrom   string `json:"deadFrom,omitempty"`
	ChecksLeft int    `json:"checksLeft,omitempty"`
	When       string `json:"when,omitempty"` // the date in question (Last-Modified, Expires), RFC 3339
	// From lists documents that reference it, the first MaxFrom in breadth-first order:
	// MOMspider's cross-references. FromMore is how many more documents reference it.
	From     []string `json:"from,omitempty"`
	FromMore int      `json:"fromMore,omitempty"`
	// New is set when the item was not in the same list of the task's previous report.
	New bool `json:"new"`
}
