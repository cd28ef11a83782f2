// Package record is what the workspace keeps for the exchange of summaries: the read-only
// tokens it issued, the sources summaries came from with their cursors, and the summaries
// a stream sends, read from the summary log. Package exchange owns these records and
// declares the store interfaces it needs in them (TokenStore, SourceStore, SummaryStore);
// the store implements those, as it does check's and the library's. A leaf: it imports no
// project package, so that the store can keep exchange's records without importing
// exchange (which imports the store for the pages a pull saves).
package record

import "errors"

// ErrNotFound is returned (wrapped) when no token or source has the id, secret or address
// asked for.
var ErrNotFound = errors.New("not found")

// Token is a read-only token as the workspace keeps it: the SHA-256 of its secret, never
// the secret itself.
type Token struct {
	ID        int64
	Name      string
	Hash      string // hex SHA-256 of the secret
	CreatedAt int64  // unix ms
	RevokedAt int64  // 0 while it is live
	UsedAt    int64  // 0 if never used
	Uses      int
}

// Source is where summaries come from: another instance, pulled with the token it issued,
// or a SOIF file imported.
type Source struct {
	ID         int64
	Kind       string // "peer" or "file"
	URL        string // the peer's address, or the file's name
	Token      string // a peer's token, as given ("" for a file)
	Name       string // the Gatherer-Name it sent
	CrawlID    int64  // the import crawl its pages join (0 before its first pull)
	Cursor     int64  // the peer's last seq applied
	CursorTime int64  // unix ms of the last summary applied (0: none)
	CreatedAt  int64  // unix ms
	PulledAt   int64  // unix ms of the last pull that applied (0: never)
	Summaries  int    // pages whose summary is this source's now
	Error      string // of the last pull, "" when it applied
}

// Pulled is the outcome of a pull (or a file's import) that applied: where its source's
// cursor moves.
type Pulled struct {
	Cursor     int64  // seq; the source's cursor never moves back
	CursorTime int64  // unix ms (0: keep the one before)
	Gatherer   string // the name the stream gave ("": keep the one before)
	At         int64  // unix ms
}

// Selection is what a read of the summary log asks for.
type Selection struct {
	After int64 // seq
	UpTo  int64 // seq, inclusive: the log's end when the stream began
	Since int64 // changed at or after (unix ms; 0: any time)
	Crawl int64 // pages of this crawl (0: every page)
	Limit int
}

// Summary is a page's summary as the workspace holds it, with its place in the log.
type Summary struct {
	Seq          int64
	PageID       int64
	URL          string
	ContentType  string
	Title        string // the page's; TextTitle is the one its extracted text holds
	Description  string
	Keywords     string
	Author       string
	Lang         string
	Size         int64
	Hash         string
	LastModified string
	UpdatedAt    int64 // when its content last changed here (unix ms)
	TextTitle    string
	Headings     string
	Text         string
	Summariser   string
	Attrs        []Attr // the summariser's own attributes, in their order
	// Links are the references a reader follows (a, area, frame, iframe: not embedded
	// resources) in the page's order; a URL linked twice comes twice.
	Links []Link
}

// Attr is one of a summariser's attributes.
type Attr struct {
	Name, Value string
}

// Link is one reference of a page, with its anchor text.
type Link struct {
	URL, Anchor string
}
