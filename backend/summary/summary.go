// Package summary is Mundaneum's Essence (Harvest's type-specific summarising): it turns a
// fetched document of any supported type into what the crawl keeps of it (an
// extract.Summary: title, text, links, problems) plus the type's own attributes (a PDF's
// author and page count, a feed's title), and names the summariser that made it.
//
// Each type is one file that registers a Kind: its media types, its file extensions, a
// content sniffer and its summariser. Choose picks the kind by content first (a PDF served
// as application/octet-stream is still a PDF), then by the declared media type, then by
// the extension. Archives (gzip, zip, tar) are unnested as Harvest unnested them: their
// listing is kept and their members are summarised in turn, within a shared Budget of
// decoded bytes, nesting depth, members and time, so that a hostile file (a bomb, a
// thousand-deep tar, a PDF that never ends) costs bounded memory and time and ends as a
// recorded problem, never as a crash or a hang.
package summary

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"
	"time"

	"mundaneum/backend/extract"
)

// Attr is one attribute of a summary, by the type's own name for it ("author", "pages").
type Attr struct {
	Name, Value string
}

// Attribute names the summarisers use; a type may add its own.
const (
	AttrAuthor   = "author"
	AttrTitle    = "title"
	AttrPages    = "pages"
	AttrKeywords = "keywords"
	AttrSubject  = "subject"
	AttrCreated  = "created"
	AttrCreator  = "creator"
	AttrProducer = "producer"
	AttrEntries  = "entries" // a feed's entries
	AttrMembers  = "members" // an archive's members
	AttrInner    = "inner"   // the summariser of a compressed file's content
)

// Problems a summariser records (beside extract's), each a closed code stored with the page.
const (
	ProblemUnreadable  = "unreadable"   // the file is broken: its text could not be read
	ProblemEncrypted   = "encrypted"    // the file is encrypted with a password
	ProblemBomb        = "bomb"         // its content inflates beyond the decompression budget
	ProblemTooDeep     = "too-deep"     // archives nested beyond the depth budget
	ProblemTooMany     = "too-many"     // more archive members than the budget summarises
	ProblemTimeout     = "timeout"      // summarising took longer than the time budget
	ProblemToolMissing = "tool-missing" // the program that reads this type is not installed
	// ProblemIncomplete: the file stops before its end (cut off on the server or on the way):
	// what came is summarised.
	ProblemIncomplete = "incomplete"
)

// ProblemWords are the words for the problems a summariser records, for people.
var ProblemWords = map[string]string{
	ProblemUnreadable:  "the file is broken: its text could not be read",
	ProblemEncrypted:   "the file is encrypted with a password",
	ProblemBomb:        "its content inflates beyond the decompression budget",
	ProblemTooDeep:     "archives nested too deep: the inner ones are not read",
	ProblemTooMany:     "more archive members than are read: the rest are listed only",
	ProblemTimeout:     "reading it took longer than its time budget",
	ProblemToolMissing: "the program that reads this type is not installed",
	ProblemIncomplete:  "the file stops before its end (cut off): what came is read",
}

// Result is a document's summary: what extract's summarisers produce, the attributes of its
// type, and which summariser made it.
type Result struct {
	extract.Summary
	Summariser string // the Kind's Name: "html", "text", "pdf", ...
	Attrs      []Attr // in the order the summariser found them
	Charset    string // the text encoding decoded from, for textual types
}

// Attr returns the first value of the attribute name ("" if none).
func (r *Result) Attr(name string) string {
	for _, a := range r.Attrs {
		if a.Name == name {
			return a.Value
		}
	}
	return ""
}

func (r *Result) addAttr(name, value string) {
	value = strings.TrimSpace(value)
	if value != "" && len(r.Attrs) < maxAttrs {
		r.Attrs = append(r.Attrs, Attr{Name: name, Value: clip(value, extract.MaxMeta)})
	}
}

func (r *Result) problem(p string) {
	if !slices.Contains(r.Problems, p) {
		r.Problems = append(r.Problems, p)
	}
}

const maxAttrs = 64

// Input is one document to summarise.
type Input struct {
	Body []byte // as fetched, after content decoding (gzip transfer encoding is undone)
	// ContentType is the Content-Type header as sent, with its parameters (the charset);
	// "" when unknown (an archive member).
	ContentType string
	URL         *url.URL // where it was fetched from; nil for an archive member
	Name        string   // the file name, for an archive member (its path in the archive)
}

// MediaType is the declared media type, lower case, without parameters.
func (in Input) MediaType() string {
	ct := in.ContentType
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.ToLower(strings.TrimSpace(ct))
}

// Ext is the lower-case extension of the document's name or URL path, without the dot.
func (in Input) Ext() string {
	p := in.Name
	if p == "" && in.URL != nil {
		p = in.URL.Path
	}
	e := strings.ToLower(path.Ext(p))
	if len(e) < 2 {
		return ""
	}
	return e[1:]
}

// Kind is one document type and its summariser.
type Kind struct {
	// Name is the summariser's name, recorded with each summary it makes.
	Name string
	// Type is the name a user enables the type by (crawl --types pdf,feed,...).
	Type string
	// Media are the media types it summarises, under every name servers send for it (the
	// aliases of Debian's /etc/mime.types, Apache's, nginx's, shared-mime-info's): the
	// download gate (Types.Accepts) is this list, so a name missing here is a document the
	// crawl never downloads. Exts are the file extensions.
	Media []string
	Exts  []string
	// Magic reports whether a body's first bytes say it is of this type (nil: never
	// sure from content alone).
	Magic func(head []byte) bool
	// Binary types read the body as bytes; the others get it decoded to UTF-8.
	Binary bool
	// Run summarises in's body. It returns a Result even when the document is broken
	// (with the problem recorded); an error means no summary at all.
	Run func(ctx context.Context, in Input, b *Budget) (*Result, error)
}

var kinds []*Kind

// Register adds a type. Each type's file calls it from init.
func Register(k *Kind) {
	if k.Name == "" || k.Type == "" || k.Run == nil {
		panic("summary: a Kind needs a Name, a Type and Run")
	}
	kinds = append(kinds, k)
}

// Kinds lists the registered types, sorted by name.
func Kinds() []*Kind {
	out := slices.Clone(kinds)
	slices.SortFunc(out, func(a, b *Kind) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// genericMedia are media types that say nothing about the document: its content and its
// extension decide.
var genericMedia = map[string]bool{"": true, "application/octet-stream": true, "binary/octet-stream": true,
	"application/x-download": true, "application/force-download": true, "application/unknown": true,
	"text/plain": true, "application/xml": true, "text/xml": true}

// Choose picks the kind that summarises in: the content's signature first (strong, binary
// signatures), then the declared media type, then the extension (before a generic media
// type such as text/plain or application/octet-stream), then HTML.
func Choose(in Input) *Kind {
	k, _ := choose(in)
	return k
}

// choose is Choose, also saying whether anything but the fallback matched.
func choose(in Input) (*Kind, bool) {
	head := in.Body[:min(len(in.Body), sniffLen)]
	for _, k := range kinds {
		if k.Binary && k.Magic != nil && k.Magic(head) {
			return k, true
		}
	}
	mt, ext := in.MediaType(), in.Ext()
	byMedia := func() *Kind {
		for _, k := range kinds {
			if slices.Contains(k.Media, mt) {
				return k
			}
		}
		return nil
	}
	byExt := func() *Kind {
		for _, k := range kinds {
			// A server that says text/plain means it for a .html file too.
			if !k.Binary && ext != "" && slices.Contains(k.Exts, ext) && !(mt == "text/plain" && k.Name == "html") {
				return k
			}
		}
		return nil
	}
	order := []func() *Kind{byMedia, byExt}
	if genericMedia[mt] {
		order = []func() *Kind{byExt, byMedia}
	}
	// Text signatures (a feed's root element) beat a generic media type and a wrong
	// extension, not a specific media type.
	sniffText := func() *Kind {
		for _, k := range kinds {
			if !k.Binary && k.Magic != nil && k.Magic(head) {
				return k
			}
		}
		return nil
	}
	switch {
	case mt == "text/plain":
		// Plain text is shown as text by browsers whatever it holds: no sniffing.
	case genericMedia[mt]:
		order = append([]func() *Kind{sniffText}, order...)
	default:
		order = append(order, sniffText)
	}
	for _, f := range order {
		if k := f(); k != nil {
			return k, true
		}
	}
	return byName("html"), false
}

const sniffLen = 1024

func byName(name string) *Kind {
	for _, k := range kinds {
		if k.Name == name {
			return k
		}
	}
	return nil
}

// ErrNotWanted is returned by Summarise when the document's type is not among those wanted.
var ErrNotWanted = errors.New("type not wanted")

// Summarise summarises a document with the kind Choose picks, within budget b (zero
// fields take the defaults). A broken or hostile document gives a Result with its problem
// recorded; a summariser that panics is recovered as "unreadable". Only when wanted is
// not nil and the kind's Type is not in it does Summarise return an error, ErrNotWanted.
func Summarise(ctx context.Context, in Input, b Budget, wanted Types) (*Result, error) {
	k := Choose(in)
	if wanted != nil && !wanted.Has(k.Type) {
		return nil, fmt.Errorf("%s: %w", k.Type, ErrNotWanted)
	}
	b.fill()
	ctx, cancel := context.WithTimeout(ctx, b.Timeout)
	defer cancel()
	return b.run(ctx, k, in), nil
}

// run summarises in with k, turning every failure into a recorded problem.
func (b *Budget) run(ctx context.Context, k *Kind, in Input) (r *Result) {
	defer func() {
		if p := recover(); p != nil {
			r = &Result{Summariser: k.Name}
			r.problem(ProblemUnreadable)
		}
	}()
	r, err := k.Run(ctx, in, b)
	if r == nil {
		r = &Result{}
	}
	r.Summariser = k.Name
	switch {
	case err == nil:
	case ctx.Err() != nil:
		r.problem(ProblemTimeout)
	default:
		r.problem(problemOf(err))
	}
	return r
}

// problemOf maps a summariser's error to its problem code.
func problemOf(err error) string {
	var p problemError
	if errors.As(err, &p) {
		return string(p)
	}
	return ProblemUnreadable
}

// problemError is an error that is one of the problem codes.
type problemError string

func (p problemError) Error() string { return string(p) }

// Budget bounds the work of one document, archive members included.
type Budget struct {
	MaxText    int           // bytes of text kept (default extract.MaxText)
	MaxDecoded int64         // bytes archives may inflate to, all members together (default 64 MiB)
	MaxDepth   int           // archives inside archives (default 3)
	MaxMembers int           // archive members summarised (default 1000); more are listed only
	Timeout    time.Duration // the whole document (default 30 s)

	decoded int64 // bytes inflated so far
	depth   int   // the current nesting
}

// Defaults of Budget.
const (
	DefaultMaxDecoded = 64 << 20
	DefaultMaxDepth   = 3
	DefaultMaxMembers = 1000
	DefaultTimeout    = 30 * time.Second
)

func (b *Budget) fill() {
	if b.MaxText <= 0 {
		b.MaxText = extract.MaxText
	}
	if b.MaxDecoded <= 0 {
		b.MaxDecoded = DefaultMaxDecoded
	}
	if b.MaxDepth <= 0 {
		b.MaxDepth = DefaultMaxDepth
	}
	if b.MaxMembers <= 0 {
		b.MaxMembers = DefaultMaxMembers
	}
	if b.Timeout <= 0 {
		b.Timeout = DefaultTimeout
	}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func utf8RuneStart(c byte) bool { return c&0xC0 != 0x80 }
