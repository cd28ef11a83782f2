package library

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"mundaneum/backend/formats/bookmarks"
)

// Problem is something an import left out, by line of the file.
type Problem struct {
	Line   int
	Reason string
}

// ImportReport says what an import did.
type ImportReport struct {
	Format                              string // netscape, list or json
	Libraries, Pointers, Reports, Views int    // created
	Merged                              int    // libraries that were there already, posted into
	Duplicates                          int    // links already in their library: left out
	Elsewhere                           int    // links added that are elsewhere in the library too
	Skipped                             int    // entries left out for another reason
	Problems                            []Problem
	MoreProblems                        int // problems beyond those listed
}

// maxProblems bounds the problems an import lists.
const maxProblems = 200

func (r *ImportReport) problem(line int, format string, args ...any) {
	if len(r.Problems) < maxProblems {
		r.Problems = append(r.Problems, Problem{Line: line, Reason: fmt.Sprintf(format, args...)})
	} else {
		r.MoreProblems++
	}
}

// Added is how many nodes the import created.
func (r ImportReport) Added() int { return r.Libraries + r.Pointers + r.Reports + r.Views }

// ParseError is an import file that cannot be read: nothing was imported.
type ParseError = bookmarks.Error

// Import reads a file of links (GENVL's Pointers: a Netscape bookmark file, a JSON tree or
// a pasted list of URLs or Markdown links; the format is sniffed) into the library parent,
// in one transaction: all of it or, on any error, nothing. Folders become libraries (one of
// the same title already there is posted into); a link already in its library is left out
// and one found elsewhere too is added and counted; what cannot be a pointer (an address
// that is not http or https) is left out. Each is reported with its line. Importing into a
// guarded library, or merging into one below it, needs what posting there would
// (by.LibraryPassword, protect.go).
func (l *Library) Import(ctx context.Context, parent int64, data []byte, by Author) (ImportReport, error) {
	return l.ImportUnder(ctx, parent, nil, data, by)
}

// ImportUnder imports as Import does, into the library reached from parent by the titles
// under, which the import makes where they are missing (`import --to` a library that does
// not exist yet): one transaction, one undo.
func (l *Library) ImportUnder(ctx context.Context, parent int64, under []string, data []byte, by Author) (ImportReport, error) {
	for i, t := range under {
		var err error
		if under[i], err = checkTitle(t, true); err != nil {
			return ImportReport{}, err
		}
	}
	doc, err := bookmarks.Read(data)
	if err != nil {
		var pe *bookmarks.Error
		if errors.As(err, &pe) {
			return ImportReport{}, invalid("%w", err)
		}
		return ImportReport{}, err
	}
	for i := len(under) - 1; i >= 0; i-- {
		doc.Root = &bookmarks.Entry{Kind: bookmarks.Folder, Children: []*bookmarks.Entry{
			{Kind: bookmarks.Folder, Title: under[i], Children: doc.Root.Children}}}
	}
	name, email, err := checkPerson(by.Name, by.Email)
	if err != nil {
		return ImportReport{}, err
	}
	base := ImportReport{Format: doc.Format}
	for _, p := range doc.Problems {
		base.problem(p.Line, "%s", p.Reason)
		base.Skipped++
	}
	for _, w := range doc.Warnings { // read, and not kept as written: the entries are imported
		base.problem(w.Line, "%s", w.Reason)
	}
	g, err := l.authorize(ctx, by.LibraryPassword, func(c check) error {
		p, err := openParent(c, parent, KindLibrary)
		if err != nil {
			return err
		}
		return mayMerge(c, doc.Root, p)
	})
	if err != nil {
		return ImportReport{}, err
	}
	im := &importer{l: l, now: l.ms(), author: name, email: email}
	var rep ImportReport
	err = l.st.UpdateLibrary(ctx, func(tx Tx) error {
		rep = base
		im.tx, im.rep, im.added, im.pending = tx, &rep, nil, nil
		im.libs, im.urls = map[libKey]Node{}, map[string][]int64{}
		im.c = l.in(ctx, tx, g)
		p, err := openParent(im.c, parent, KindLibrary)
		if err != nil {
			return err
		}
		if im.next, err = tx.NextID(ctx); err != nil {
			return err
		}
		im.first = im.next
		// A large import reads where every address is once instead of asking for each.
		im.had = nil
		if links(doc.Root) > bulkLinks {
			if im.had, err = tx.PointerURLs(ctx); err != nil {
				return err
			}
		}
		if err := im.folder(ctx, doc.Root, p, false); err != nil {
			return err
		}
		if err := im.flush(ctx); err != nil {
			return err
		}
		if len(im.added) == 0 {
			return nil
		}
		into := p.Title
		if len(under) > 0 {
			into = under[len(under)-1]
		}
		return l.pushAdded(ctx, tx, fmt.Sprintf("imported %d postings into %q", rep.Added(), clip(into, 60)), g.opened(), im.added...)
	})
	if err != nil {
		return ImportReport{}, err
	}
	slices.SortStableFunc(rep.Problems, func(a, b Problem) int { return a.Line - b.Line })
	return rep, nil
}

// folderTitle is the title a folder's library takes (as importer.library gives it).
func folderTitle(e *bookmarks.Entry) string {
	title, _ := importTitle(e.Title)
	if title == "" {
		title = "Untitled"
	}
	return title
}

// mayMerge checks the libraries below lib that an import posts into because they are
// there already (a folder of the same title): each as posting into it would be.
func mayMerge(c check, e *bookmarks.Entry, lib Node) error {
	for _, f := range e.Children {
		if f.Kind != bookmarks.Folder {
			continue
		}
		ns, err := c.r.children(c.ctx, lib.ID, folderTitle(f), KindLibrary)
		if err != nil {
			return err
		}
		if len(ns) == 0 {
			continue // made by the import, inside lib
		}
		if err := c.postInto(ns[0]); err != nil {
			return err
		}
		if err := mayMerge(c, f, ns[0]); err != nil {
			return err
		}
	}
	return nil
}

type importer struct {
	l             *Library
	tx            Tx
	c             check // the rules, inside the transaction
	rep           *ImportReport
	now           int64
	author, email string
	first, next   int64   // the first id the import gives, and the next
	added         []int64 // created nodes whose parent was there before
	pending       []Node  // created nodes not stored yet
	// What the import created, which the store may not hold yet: its libraries by parent
	// and title, the parents of its pointers by URL.
	libs map[libKey]Node
	urls map[string][]int64
	// had maps the URLs of the pointers there before to their parents, for a large
	// import (nil: ask the store for each).
	had map[string][]int64
}

// bulkLinks is the size of an import from which it reads every pointer's URL at once.
const bulkLinks = 1000

// links counts the links below e.
func links(e *bookmarks.Entry) int {
	n := 0
	for _, c := range e.Children {
		if c.Kind == bookmarks.Link {
			n++
		}
		n += links(c)
	}
	return n
}

type libKey struct {
	parent int64
	title  string
}

// insert gives n an id, a path and the next position under parent (pos); the import
// hands every node to the store at the end, in one call, so that the library's index
// takes them in one piece.
func (im *importer) insert(ctx context.Context, parent Node, n *Node, pos *int, fresh bool) error {
	n.ID, n.Parent, n.Path, n.Position = im.next, parent.ID, childPath(parent, im.next), *pos
	im.next++
	*pos++
	if n.Author == "" {
		n.Author, n.Email = im.author, im.email
	}
	if !fresh {
		im.added = append(im.added, n.ID)
	}
	switch n.Kind {
	case KindLibrary:
		im.libs[libKey{parent.ID, n.Title}] = *n
	case KindPointer:
		im.urls[n.URLKey] = append(im.urls[n.URLKey], parent.ID)
	}
	im.pending = append(im.pending, *n)
	return nil
}

func (im *importer) flush(ctx context.Context) error {
	if len(im.pending) == 0 {
		return nil
	}
	err := im.tx.InsertMany(ctx, im.pending)
	im.pending = im.pending[:0]
	return err
}

func (im *importer) times(e *bookmarks.Entry) (int64, int64) {
	c, u := im.now, int64(0)
	if e.Added > 0 {
		c = e.Added * 1000
	}
	if e.Modified > 0 {
		u = e.Modified * 1000
	} else {
		u = c
	}
	return c, u
}

// folder imports the children of e into lib; fresh says lib was created by this import.
func (im *importer) folder(ctx context.Context, e *bookmarks.Entry, lib Node, fresh bool) error {
	pos := 0
	if !fresh {
		var err error
		if pos, err = im.tx.NextPosition(ctx, lib.ID); err != nil {
			return err
		}
	}
	for _, c := range e.Children {
		if err := ctx.Err(); err != nil {
			return err
		}
		if c.Kind != bookmarks.Folder && lib.CreateOnly {
			im.rep.problem(c.Line, "%q left out: %q takes only sub-libraries", clip(c.Title, 60), clip(lib.Title, 60))
			im.rep.Skipped++
			continue
		}
		var err error
		switch c.Kind {
		case bookmarks.Folder:
			err = im.library(ctx, c, lib, &pos, fresh)
		case bookmarks.Link, bookmarks.Report:
			err = im.entry(ctx, c, lib, &pos, fresh)
		case bookmarks.View:
			err = im.view(ctx, c, lib, &pos, fresh)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (im *importer) library(ctx context.Context, e *bookmarks.Entry, parent Node, pos *int, fresh bool) error {
	title := im.title(e.Line, e.Title)
	if title == "" {
		title = "Untitled"
	}
	if made, ok := im.libs[libKey{parent.ID, title}]; ok { // twice in the file
		return im.folder(ctx, e, made, true)
	}
	if !fresh {
		ns, err := im.tx.Children(ctx, parent.ID, title, KindLibrary)
		if err != nil {
			return err
		}
		if len(ns) > 0 {
			if err := im.c.postInto(ns[0]); err != nil {
				return err
			}
			im.rep.Merged++
			return im.folder(ctx, e, ns[0], false)
		}
	}
	if depth(parent.Path) >= MaxDepth {
		return fmt.Errorf("line %d: libraries nest at most %d deep: %w", e.Line, MaxDepth, ErrInvalid)
	}
	n := Node{Kind: KindLibrary, Title: title, Sort: ByTitle, CreateOnly: e.CreateOnly, Author: cleanLine(e.Author)}
	n.CreatedAt, n.UpdatedAt = im.times(e)
	n.Purpose, _ = checkText("", clip(firstNonEmpty(e.Purpose, e.Notes), MaxNotes/4), MaxNotes)
	if o, err := checkOrder(Order(e.Order)); err == nil {
		n.Sort = o
	}
	if _, m, err := checkPerson("", e.Email); err == nil {
		n.Email = m
	}
	if err := im.image(ctx, e, &n); err != nil {
		return err
	}
	if err := im.insert(ctx, parent, &n, pos, fresh); err != nil {
		return err
	}
	im.rep.Libraries++
	return im.folder(ctx, e, n, true)
}

// title is an entry's title as the library keeps it: cut, and said, when it is longer.
func (im *importer) title(line int, s string) string {
	t, cut := importTitle(s)
	if cut {
		im.rep.problem(line, "title cut to %d characters", MaxTitle)
	}
	return t
}

// importTitle is an imported entry's title, and whether it had to be cut.
func importTitle(s string) (string, bool) {
	t, err := checkTitle(s, false)
	if err != nil { // longer than MaxTitle: clip's "…" makes it MaxTitle
		t, _ = checkTitle(clip(cleanLine(s), MaxTitle-1), false)
		return t, true
	}
	return t, false
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func (im *importer) image(ctx context.Context, e *bookmarks.Entry, n *Node) error {
	if e.Image == "" {
		return nil
	}
	id, err := im.l.saveImage(ctx, im.tx, &ImageData{DataURL: e.Image})
	if errors.Is(err, ErrInvalid) {
		im.rep.problem(e.Line, "picture left out: %v", strings.TrimPrefix(err.Error(), "invalid: "))
		return nil
	}
	n.ImageID = id
	return err
}

// entry imports a link or a report.
func (im *importer) entry(ctx context.Context, e *bookmarks.Entry, parent Node, pos *int, fresh bool) error {
	n := Node{Kind: KindPointer, Author: cleanLine(e.Author)}
	if e.Kind == bookmarks.Report {
		n.Kind = KindReport
	}
	n.CreatedAt, n.UpdatedAt = im.times(e)
	if n.Kind == KindPointer || strings.TrimSpace(e.URL) != "" {
		raw, key, err := checkURL(e.URL)
		if err != nil {
			im.rep.problem(e.Line, "%q left out: %s", clip(e.Title, 60), strings.TrimPrefix(err.Error(), "invalid: "))
			im.rep.Skipped++
			return nil
		}
		n.URL, n.URLKey = raw, key
	}
	n.Title = im.title(e.Line, e.Title)
	if e.Keyword != "" {
		im.rep.problem(e.Line, "keyword %q left out: the library keeps no keywords", clip(e.Keyword, 60))
	}
	if e.FeedURL != "" {
		im.rep.problem(e.Line, "feed address %s left out: the library keeps no live bookmarks", clip(e.FeedURL, 200))
	}
	if n.Title == "" {
		n.Title = clip(cleanLine(n.URL), MaxTitle)
	}
	if n.Title == "" {
		n.Title = "Untitled"
	}
	var err error
	if n.Notes, err = checkText("notes", e.Notes, MaxNotes); err != nil {
		n.Notes = clip(cleanText(e.Notes), MaxNotes/4)
		im.rep.problem(e.Line, "notes cut to %d characters", MaxNotes/4)
	}
	if n.Body, err = checkText("report", e.Body, MaxBody); err != nil {
		im.rep.problem(e.Line, "%q left out: %s", clip(e.Title, 60), strings.TrimPrefix(err.Error(), "invalid: "))
		im.rep.Skipped++
		return nil
	}
	if n.Tags, err = CheckTags(e.Tags); err != nil {
		im.rep.problem(e.Line, "tags left out: %s", strings.TrimPrefix(err.Error(), "invalid: "))
		n.Tags = nil
	}
	if _, m, err := checkPerson("", e.Email); err == nil {
		n.Email = m
	}
	if n.URLKey != "" && n.Kind == KindPointer {
		// The pointers to this URL: those the library had (the store's, made before this
		// import) and those the import made.
		had := im.had[n.URLKey]
		if im.had == nil {
			var err error
			if had, err = im.tx.URLParents(ctx, n.URLKey, im.first); err != nil {
				return err
			}
		}
		parents := append(slices.Clone(had), im.urls[n.URLKey]...)
		if slices.Contains(parents, parent.ID) {
			im.rep.problem(e.Line, "%q left out: this address is in %q already", clip(n.Title, 60), clip(parent.Title, 60))
			im.rep.Duplicates++
			return nil
		}
		if len(parents) > 0 {
			im.rep.Elsewhere++
		}
	}
	if n.Kind == KindReport {
		if err := im.image(ctx, e, &n); err != nil {
			return err
		}
	}
	if err := im.insert(ctx, parent, &n, pos, fresh); err != nil {
		return err
	}
	if n.Kind == KindReport {
		im.rep.Reports++
	} else {
		im.rep.Pointers++
	}
	return nil
}

func (im *importer) view(ctx context.Context, e *bookmarks.Entry, parent Node, pos *int, fresh bool) error {
	title := im.title(e.Line, firstNonEmpty(e.Title, e.ViewName))
	name := cleanLine(e.ViewName)
	query := strings.TrimSpace(e.ViewQuery)
	if name == "" || query == "" || len(name) > 100 || len(query) > 8000 {
		im.rep.problem(e.Line, "view %q left out: it needs a name (up to 100 characters) and a query", clip(name, 60))
		im.rep.Skipped++
		return nil
	}
	id, err := im.tx.EnsureView(ctx, name, query)
	if err != nil {
		return err
	}
	n := Node{Kind: KindView, Title: title, ViewID: id}
	n.CreatedAt, n.UpdatedAt = im.times(e)
	if err := im.insert(ctx, parent, &n, pos, fresh); err != nil {
		return err
	}
	im.rep.Views++
	return nil
}
