package app

import (
	"time"

	"mundaneum/backend/library"
	"mundaneum/backend/libsearch"
)

// DTOs of the virtual library.

// LibPosting is a library or a posting in it.
type LibPosting struct {
	ID         int64    `json:"id"`
	ParentID   int64    `json:"parentId"`
	Path       string   `json:"path"` // its own path
	Kind       string   `json:"kind"` // library | pointer | report | view
	Title      string   `json:"title"`
	URL        string   `json:"url"`
	Aliases    []string `json:"aliases"` // former URLs (accepted redirects), oldest first
	Notes      string   `json:"notes"`
	Tags       []string `json:"tags"`
	Purpose    string   `json:"purpose"`
	CreateOnly bool     `json:"createOnly"`
	Order      string   `json:"order"`
	Position   int      `json:"position"`
	Protected  bool     `json:"protected"`
	// OpenToGuests: the guests of serve --public may post in this library and below it.
	OpenToGuests bool       `json:"openToGuests"`
	Author       string     `json:"author"`
	Email        string     `json:"email"`
	HasImage     bool       `json:"hasImage"` // a picture of its own
	Created      string     `json:"created"`
	Updated      string     `json:"updated"`
	Libraries    int        `json:"libraries"` // below a library, at any depth
	Postings     int        `json:"postings"`
	Known        *LibKnown  `json:"known"`  // what the crawler knows of its URL, null if nothing
	View         *LibView   `json:"view"`   // a view posting's saved view
	Health       *LibHealth `json:"health"` // what the link checks say of its URL, null if never checked
}

// LibHealth is what the maintenance checks say of a pointer's URL.
type LibHealth struct {
	Verdict   string `json:"verdict"` // ok, redirected, broken, server_error, blocked, rate_limited, timeout, robots_excluded, invalid
	Status    int    `json:"status"`
	FinalURL  string `json:"finalUrl"`
	Reason    string `json:"reason"`
	CheckedAt string `json:"checkedAt"`
	Dead      bool   `json:"dead"`      // failed on several checks spread over time
	Permanent bool   `json:"permanent"` // redirected permanently (301/308): LibraryAcceptRedirect takes it
}

// LibKnown is what the crawler knows of a pointer's URL.
type LibKnown struct {
	PageID    int64  `json:"pageId"`
	Title     string `json:"title"`
	State     string `json:"state"`
	Status    int    `json:"status"`
	FetchedAt string `json:"fetchedAt"`
	Copy      bool   `json:"copy"` // an offline copy is stored
	// Reason: why it failed or was skipped, a closed code (frontend/src/lib/wording.ts says
	// it in words); Detail: the error's own words.
	Reason string `json:"reason"`
	Detail string `json:"detail"`
}

// LibView is the saved view a view posting places in the tree.
type LibView struct {
	Name      string `json:"name"`
	Query     string `json:"query"`
	OpenedAt  string `json:"openedAt"`
	LastTotal int    `json:"lastTotal"`
}

// LibCrumb is a library on the way from the root.
type LibCrumb struct {
	ID    int64  `json:"id"`
	Title string `json:"title"`
	Path  string `json:"path"`
}

// LibPage is a library's page: header, breadcrumbs, sub-libraries, a page of postings.
type LibPage struct {
	Library   LibPosting   `json:"library"`
	Crumbs    []LibCrumb   `json:"crumbs"`
	Image     string       `json:"image"` // data: URL of its picture or the nearest enclosing one, "" none
	Order     string       `json:"order"`
	Libraries []LibPosting `json:"libraries"`
	Postings  []LibPosting `json:"postings"`
	Total     int          `json:"total"` // postings other than sub-libraries
	// LastChange describes what Undo would take back ("" nothing); UndoProtected says it
	// needs a password. LastChangeBy names who made it when someone else did ("" the
	// caller's own); LastChangeMine says the caller may undo it without its password (under
	// serve --public only a person's own change; in the window, any).
	LastChange     string `json:"lastChange"`
	UndoProtected  bool   `json:"undoProtected"`
	LastChangeBy   string `json:"lastChangeBy"`
	LastChangeMine bool   `json:"lastChangeMine"`
	// NextRedo describes what Redo would make again ("" nothing: no undo since the last
	// change); RedoProtected and NextRedoMine as for Undo.
	NextRedo      string `json:"nextRedo"`
	RedoProtected bool   `json:"redoProtected"`
	NextRedoMine  bool   `json:"nextRedoMine"`
}

// LibDetail is one posting with its place, its picture and, for a report, its text
// rendered (Document: a sanitised standalone document for a sandboxed frame).
type LibDetail struct {
	Posting  LibPosting `json:"posting"`
	Crumbs   []LibCrumb `json:"crumbs"`
	Image    string     `json:"image"`
	Body     string     `json:"body"`     // a report's Markdown
	Document string     `json:"document"` // a report rendered
	Links    []string   `json:"links"`    // the http(s) addresses a report links to
}

// LibRecent is the "what's new" list of a library: everything below it, newest first.
type LibRecent struct {
	Postings []LibPosting `json:"postings"` // Path is each posting's own
	Total    int          `json:"total"`
}

// LibInput describes a new library, pointer or report.
type LibInput struct {
	Title      string   `json:"title"`
	URL        string   `json:"url"`
	Notes      string   `json:"notes"`
	Body       string   `json:"body"`
	Tags       []string `json:"tags"`
	Purpose    string   `json:"purpose"`
	CreateOnly bool     `json:"createOnly"`
	Order      string   `json:"order"`
	Image      string   `json:"image"` // a data: URL, "" none
	View       string   `json:"view"`  // the saved view to place
	Author     string   `json:"author"`
	Email      string   `json:"email"`
	Password   string   `json:"password"` // protects the new posting ("" none)
	// LibraryPassword opens the library posted into, when that is protected.
	LibraryPassword string `json:"libraryPassword"`
}

// LibEdit changes the fields that are set (null leaves a field as it is).
type LibEdit struct {
	Title       *string   `json:"title"`
	URL         *string   `json:"url"`
	Notes       *string   `json:"notes"`
	Body        *string   `json:"body"`
	Tags        *[]string `json:"tags"`
	Purpose     *string   `json:"purpose"`
	CreateOnly  *bool     `json:"createOnly"`
	Order       *string   `json:"order"`
	Image       string    `json:"image"`      // a new picture (data: URL), "" keeps it
	ClearImage  bool      `json:"clearImage"` // back to the enclosing library's picture
	Author      *string   `json:"author"`
	Email       *string   `json:"email"`
	NewPassword *string   `json:"newPassword"` // "" removes the password
	// OpenToGuests opens a library to the guests of serve --public, or closes it (the
	// owner only).
	OpenToGuests *bool `json:"openToGuests"`
}

// LibAdded is a pointer just added, with the paths of the other libraries that hold its URL.
type LibAdded struct {
	Posting LibPosting `json:"posting"`
	AlsoIn  []string   `json:"alsoIn"`
}

// LibRemoval is what a delete removes (or would).
type LibRemoval struct {
	Libraries int      `json:"libraries"`
	Pointers  int      `json:"pointers"`
	Reports   int      `json:"reports"`
	Views     int      `json:"views"`
	Titles    []string `json:"titles"`
	Protected []string `json:"protected"` // of the titles, those that need the password
}

// LibImport says what an import did.
type LibImport struct {
	Format     string       `json:"format"`
	Libraries  int          `json:"libraries"`
	Pointers   int          `json:"pointers"`
	Reports    int          `json:"reports"`
	Views      int          `json:"views"`
	Merged     int          `json:"merged"`
	Duplicates int          `json:"duplicates"`
	Elsewhere  int          `json:"elsewhere"`
	Skipped    int          `json:"skipped"`
	Problems   []LibProblem `json:"problems"`
	More       int          `json:"more"`
	Seconds    float64      `json:"seconds"` // how long the import took
}

// ImportOf is what an import did as the window, serve and the CLI's --json show it (its
// problems never null).
func ImportOf(r library.ImportReport, took time.Duration) LibImport {
	out := LibImport{Format: r.Format, Libraries: r.Libraries, Pointers: r.Pointers, Reports: r.Reports, Views: r.Views,
		Merged: r.Merged, Duplicates: r.Duplicates, Elsewhere: r.Elsewhere, Skipped: r.Skipped,
		Problems: make([]LibProblem, 0, len(r.Problems)), More: r.MoreProblems, Seconds: took.Seconds()}
	for _, p := range r.Problems {
		out.Problems = append(out.Problems, LibProblem{Line: p.Line, Reason: p.Reason})
	}
	return out
}

// LibProblem is an entry an import left out, by line.
type LibProblem struct {
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// LibExport is an exported file.
type LibExport struct {
	Name    string `json:"name"` // a file name to save it under
	Content string `json:"content"`
	Note    string `json:"note"`
}

// LibRendered is Markdown rendered for a sandboxed frame.
type LibRendered struct {
	Document string   `json:"document"`
	Links    []string `json:"links"`
}

// LibHit is a posting that matches a search.
type LibHit struct {
	ID        int64    `json:"id"`
	Kind      string   `json:"kind"`
	Title     string   `json:"title"`
	URL       string   `json:"url"`
	Path      string   `json:"path"`
	Tags      []string `json:"tags"`
	Snippet   []string `json:"snippet"` // odd-indexed fragments match
	PageID    int64    `json:"pageId"`
	Status    int      `json:"status"`
	FetchedAt string   `json:"fetchedAt"`
}

// LibSearchResults is one page of library hits.
type LibSearchResults struct {
	Total       int      `json:"total"`
	TotalApprox bool     `json:"totalApprox"`
	Hits        []LibHit `json:"hits"`
	Note        string   `json:"note"`
	TookMs      float64  `json:"tookMs"`
}

// LibTag is a tag and how many postings carry it.
type LibTag struct {
	Tag   string `json:"tag"`
	Count int    `json:"count"`
}

func libPostingDTO(p library.Posting, path string) LibPosting {
	d := LibPosting{ID: p.ID, ParentID: p.Parent, Path: path, Kind: string(p.Kind), Title: p.Title, URL: p.URL,
		Notes: p.Notes, Tags: p.Tags, Purpose: p.Purpose, CreateOnly: p.CreateOnly, Order: string(p.Sort),
		Position: p.Position, Protected: p.Protected(), OpenToGuests: p.OpenToGuests, Author: p.Author, Email: p.Email, HasImage: p.ImageID != 0,
		Created: rfc3339(p.CreatedAt), Updated: rfc3339(p.UpdatedAt), Libraries: p.Libraries, Postings: p.Postings}
	if k := p.Known; k != nil {
		d.Known = &LibKnown{PageID: k.PageID, Title: k.Title, State: k.State, Status: k.Status,
			FetchedAt: rfc3339(k.FetchedAt), Copy: k.Copy, Reason: k.Reason, Detail: k.Detail}
	}
	if h := p.Health; h != nil {
		d.Health = &LibHealth{Verdict: h.Verdict, Status: h.Status, FinalURL: h.FinalURL, Reason: h.Reason,
			CheckedAt: rfc3339(h.CheckedAt), Dead: h.Dead, Permanent: h.Permanent}
	}
	for _, a := range p.Aliases {
		d.Aliases = append(d.Aliases, a.URL)
	}
	if v := p.View; v != nil {
		d.View = &LibView{Name: v.Name, Query: v.Query, OpenedAt: rfc3339(v.OpenedAt), LastTotal: v.LastTotal}
	}
	return d
}

func libCrumbs(cs []library.Crumb) []LibCrumb {
	out := make([]LibCrumb, 0, len(cs))
	for _, c := range cs {
		out = append(out, LibCrumb{ID: c.ID, Title: c.Title, Path: c.Path})
	}
	return out
}

func libChildPath(parent, title string) string {
	if parent == "/" {
		return "/" + library.EscapeTitle(title)
	}
	return parent + "/" + library.EscapeTitle(title)
}

func libHitsDTO(r libsearch.Results) LibSearchResults {
	out := LibSearchResults{Total: r.Total, TotalApprox: r.TotalApprox, Hits: make([]LibHit, 0, len(r.Hits)),
		Note: r.Note, TookMs: float64(r.Took.Microseconds()) / 1000}
	for _, h := range r.Hits {
		out.Hits = append(out.Hits, LibHit{ID: h.ID, Kind: h.Kind, Title: h.Title, URL: h.URL, Path: h.Path,
			Tags: h.Tags, Snippet: h.Snippet, PageID: h.PageID, Status: h.Status, FetchedAt: rfc3339(h.FetchedAt)})
	}
	return out
}
