// Package library is the virtual library (GENVL, McBryan 1994): a tree of libraries whose
// postings are sub-libraries, pointers (a title and a URL), reports (a title and Markdown
// text) and saved search views placed in the tree. It holds the model and every operation
// of GENVL's table 3 (point, pointers, input, create, delete, edit, copy, move) with
// reordering and undo, GENVL's passwords (argon2id hashes; a protected library or posting,
// and everything below it, is changed only by someone who gives its password: protect.go
// states the model), the create-only bit, the guests of `serve --public` (who post only in
// libraries open to them), paths ("/Computing/Go"),
// import and export (Netscape bookmarks, lists of links, a JSON tree, a static HTML site)
// and the rendering of reports through the sanitiser.
//
// It writes nothing itself: it declares the Store it needs (the workspace's store satisfies
// it) and runs every change in one of the store's transactions, so that an operation,
// an import of a hundred thousand bookmarks included, is applied whole or not at all.
package library

import (
	"context"
	"errors"
)

// Kind is what a node is.
type Kind string

// The kinds of node.
const (
	KindLibrary Kind = "library" // a (sub-)library: GENVL's virtual library
	KindPointer Kind = "pointer" // a title and a URL
	KindReport  Kind = "report"  // a title and Markdown text the user wrote
	KindView    Kind = "view"    // a saved search view placed in the tree
)

// Order is how a library lists its postings (sub-libraries always come first).
type Order string

// The orders of a library's postings.
const (
	ByTitle  Order = "title"  // alphabetically (GENVL's summary page)
	ByDate   Order = "date"   // newest first
	ByManual Order = "manual" // as arranged by hand
)

// RootID is the id of the root library.
const RootID int64 = 1

// Node is one library or posting as stored.
type Node struct {
	ID       int64
	Parent   int64  // 0 for the root
	Path     string // ids from the root down to the node: "/1/5/17/"
	Kind     Kind
	Position int // the order among siblings by hand
	Title    string
	URL      string // pointers; a report may have one too
	URLKey   string // the canonical form of URL (urlnorm), "" when it has none
	// Aliases are the pointer's former URLs (a redirect accepted into it): it is still found
	// by them. Oldest first.
	Aliases []Alias
	Notes   string // a pointer's notes
	Body    string // a report's Markdown
	Tags    []string
	Purpose string // a library's statement of purpose
	ImageID int64  // 0: the enclosing library's image
	// CreateOnly: only sub-libraries may be added to this library.
	CreateOnly bool
	Sort       Order // a library's order
	Author     string
	Email      string
	Password   string // the argon2id hash, "" when the node has no password
	// OpenToGuests: the guests of `serve --public` may post in this library and below it.
	OpenToGuests bool
	ViewID       int64 // a view posting's saved view
	CreatedAt    int64 // unix ms: added to the library
	UpdatedAt    int64 // unix ms
}

// Alias is a former URL of a pointer, as given and in canonical form.
type Alias struct {
	URL string `json:"url"`
	Key string `json:"key"`
}

// Protected reports whether the node has a password.
func (n *Node) Protected() bool { return n.Password != "" }

// Known is what the workspace's crawler knows of a pointer's URL.
type Known struct {
	PageID    int64
	Title     string
	State     string // fetched, failed, queued, redirected, skipped
	Status    int    // HTTP status of the last fetch
	FetchedAt int64  // unix ms, 0 if never fetched
	Copy      bool   // an offline copy is stored
	Reason    string // why it failed or was skipped: a closed code (fetch, crawl), "" if none
	Detail    string // the error's own words, when it failed
}

// Health is what the link checks say of a pointer's URL (the maintenance tasks' checks).
type Health struct {
	Verdict   string // ok, redirected, broken, server_error, blocked, ... (check.Kind)
	Status    int    // HTTP status of the latest check, 0 if none
	FinalURL  string // after redirects
	Reason    string
	CheckedAt int64 // unix ms
	Dead      bool  // failed on several checks spread over time
	Permanent bool  // redirected by permanent redirects only (301, 308): it may be accepted
}

// Posting is a node as listed in a library's page: with what the crawler knows of its URL,
// the counts below a sub-library, and its view's state.
type Posting struct {
	Node
	Known *Known // nil when the URL is unknown to the workspace (or the node has none)
	// Health is nil until a link check tested the URL.
	Health *Health
	// Libraries and Postings count what is below a sub-library: sub-libraries at any depth,
	// and every other posting at any depth.
	Libraries, Postings int
	View                *ViewInfo
}

// ViewInfo is the saved view a view posting places in the tree.
type ViewInfo struct {
	Name      string
	Query     string
	OpenedAt  int64 // unix ms, 0 if never opened
	LastTotal int   // results when last opened
}

// Image is a library's or report's picture.
type Image struct {
	ID   int64
	Mime string // image/png, image/gif, image/jpeg or image/webp
	Data []byte
}

// Undo is one entry of the undo journal: what an operation did and how to take it back.
type Undo struct {
	ID      int64
	At      int64  // unix ms
	Op      string // added | deleted | moved | edited | reordered
	Summary string // what the operation did, for the user
	Data    []byte // JSON, by op (see undo.go)
	// Keys are the password hashes the operation was done with: undoing it needs the same
	// password (and whatever the undoing itself needs now).
	Keys []string
	// By is the Person.ID of who did it, ByName how to name them.
	By, ByName string
}

// Protected reports whether undoing the change needs the password it was made with.
func (u Undo) Protected() bool { return len(u.Keys) > 0 }

// ListQuery asks for one page of a library's postings.
type ListQuery struct {
	Order  Order
	Offset int
	Limit  int
}

// Listing is one page of a library's postings: its sub-libraries (all of them, first and
// apart) and a page of its other postings.
type Listing struct {
	Libraries []Posting
	Postings  []Posting
	Total     int // other postings in the library
}

// Store is what the library needs from the workspace; the store package satisfies it.
type Store interface {
	// UpdateLibrary runs fn in one write transaction, committed when it returns nil and
	// rolled back otherwise. fn may be run more than once and must not keep state.
	UpdateLibrary(ctx context.Context, fn func(Tx) error) error
	// LibNode reads one node (ErrNotFound).
	LibNode(ctx context.Context, id int64) (Node, error)
	// LibChildren lists the children of parent called title (any kind when kind is "").
	LibChildren(ctx context.Context, parent int64, title string, kind Kind) ([]Node, error)
	// LibAncestors returns the libraries above n, root first.
	LibAncestors(ctx context.Context, n Node) ([]Node, error)
	// LibList lists one page of a library's postings with what the crawler knows.
	LibList(ctx context.Context, parent int64, q ListQuery) (Listing, error)
	// LibRecent lists the postings at or below a library, newest first (sub-libraries too).
	LibRecent(ctx context.Context, id int64, since int64, offset, limit int) ([]Posting, int, error)
	// LibSubtree returns a node and everything below it, parents before children and
	// siblings in their manual order.
	LibSubtree(ctx context.Context, id int64) ([]Node, error)
	// LibPosting returns one node as a Posting.
	LibPosting(ctx context.Context, id int64) (Posting, error)
	// LibImage reads an image (ErrNotFound).
	LibImage(ctx context.Context, id int64) (Image, error)
	// LibUndoTop returns the newest undo entry (ErrNotFound when there is none).
	LibUndoTop(ctx context.Context) (Undo, error)
	// LibRedoTop returns the newest redo entry (ErrNotFound when there is none).
	LibRedoTop(ctx context.Context) (Undo, error)
	// LibProtectedBelow lists the nodes with a password strictly below node id, parents
	// before children.
	LibProtectedBelow(ctx context.Context, id int64) ([]Node, error)
	// LibTags lists every tag with how many postings have it.
	LibTags(ctx context.Context) ([]TagCount, error)
	// LibKnown returns what the crawler knows of the URL with canonical form key (nil:
	// nothing).
	LibKnown(ctx context.Context, key string) (*Known, error)
}

// TagCount is a tag and how many postings carry it.
type TagCount struct {
	Tag   string
	Count int
}

// Tx is a write transaction over the library.
type Tx interface {
	Node(ctx context.Context, id int64) (Node, error)
	Children(ctx context.Context, parent int64, title string, kind Kind) ([]Node, error)
	// ChildIDs lists the ids of parent's children as its page shows them in order:
	// sub-libraries first, then the other postings.
	ChildIDs(ctx context.Context, parent int64, order Order) ([]int64, error)
	Subtree(ctx context.Context, id int64) ([]Node, error)
	// ProtectedBelow lists the nodes with a password strictly below node id, parents first.
	ProtectedBelow(ctx context.Context, id int64) ([]Node, error)
	// NextID is the id the next inserted node may take (ids are never reused).
	NextID(ctx context.Context) (int64, error)
	// NextPosition is the position after the last of parent's children.
	NextPosition(ctx context.Context, parent int64) (int, error)
	// Insert stores n under its ID and Path as given.
	Insert(ctx context.Context, n *Node) error
	// InsertMany stores nodes (parents before children) as Insert does, many to a
	// statement: the library's full-text index then takes them in one piece.
	InsertMany(ctx context.Context, ns []Node) error
	// Update stores n's fields (not its place in the tree).
	Update(ctx context.Context, n *Node) error
	// Move gives node id (with its subtree) the new parent and position; path is the new
	// parent's path.
	Move(ctx context.Context, id, parent int64, parentPath string, position int) error
	// Delete removes the node and its subtree and returns how many nodes went.
	Delete(ctx context.Context, id int64) (int, error)
	// SetPositions numbers parent's children in the order of ids.
	SetPositions(ctx context.Context, ids []int64) error
	// WithURL lists the nodes whose URL, or one of whose aliases, has the canonical form key.
	WithURL(ctx context.Context, key string) ([]Node, error)
	// URLParents lists the parents of the pointers to key (by URL or alias) with ids below before.
	URLParents(ctx context.Context, key string, before int64) ([]int64, error)
	// PointerURLs maps the canonical URL (and aliases) of every pointer to the parents that hold it.
	PointerURLs(ctx context.Context) (map[string][]int64, error)
	// SaveImage stores an image (once per content) and returns its id.
	SaveImage(ctx context.Context, mime string, data []byte) (int64, error)
	// ViewID finds a saved view by name (ErrNotFound).
	ViewID(ctx context.Context, name string) (int64, error)
	// EnsureView returns the saved view called name, saving it with query if there is none.
	EnsureView(ctx context.Context, name, query string) (int64, error)
	// ViewExists reports whether the saved view id still exists.
	ViewExists(ctx context.Context, id int64) (bool, error)
	PushUndo(ctx context.Context, u Undo) error
	UndoTop(ctx context.Context) (Undo, error)
	// DropUndo drops an entry of either journal.
	DropUndo(ctx context.Context, id int64) error
	// PushRedo journals what takes an undo back; RedoTop returns the newest such entry
	// (ErrNotFound); ClearRedo forgets them all (a new change was made).
	PushRedo(ctx context.Context, u Undo) error
	RedoTop(ctx context.Context) (Undo, error)
	ClearRedo(ctx context.Context) error
	// PathTitles returns the titles of the nodes along path (the ids of an ancestry).
	PathTitles(ctx context.Context, path string) ([]string, error)
}

// Errors of the library's operations; compare with errors.Is.
var (
	// ErrNotFound: no such node (or path).
	ErrNotFound = errors.New("not found")
	// ErrInvalid: the request cannot be done as asked (a bad title, URL, path...).
	ErrInvalid = errors.New("invalid")
	// ErrPassword: the posting has a password, and it was not given or was wrong.
	ErrPassword = errors.New("wrong or missing password")
	// ErrConflict: the tree forbids it (a cycle, a create-only library, a duplicate, the root).
	ErrConflict = errors.New("not allowed here")
	// ErrGuest: a guest of `serve --public` asked for a change outside the libraries open
	// to guests (or one only the owner may make).
	ErrGuest = errors.New("not open to guests")
	// ErrNotYours: under `serve --public`, the change Undo would take back is someone
	// else's (and its password was not given).
	ErrNotYours = errors.New("someone else's change")
	// ErrSlowDown: too many wrong passwords from one client; a Gate refused to check more
	// for now.
	ErrSlowDown = errors.New("too many password attempts")
)
