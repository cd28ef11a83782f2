package app

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"mundaneum/backend/crawl"
	"mundaneum/backend/library"
	"mundaneum/backend/libsearch"
	"mundaneum/backend/offline"
)

// The virtual library's API. Every change is checked by the backend (passwords included:
// in `serve --public` several people post to one library, each call made as its caller:
// access.go), and emits "library:changed".

// EventLibraryChanged is emitted after any change to the library; its payload is the
// summary of the change.
const EventLibraryChanged = "library:changed"

func (a *App) lib() *library.Library {
	return library.New(a.ws().st).For(a.person.lib, a.person.gate)
}

func (a *App) changed(what string) { a.emit(EventLibraryChanged, what) }

// imageURL returns the data: URL of a library picture ("" for none).
func (a *App) imageURL(ctx context.Context, id int64) string {
	if id == 0 {
		return ""
	}
	img, err := a.lib().Image(ctx, id)
	if err != nil {
		return ""
	}
	return img.DataURL()
}

// LibraryPage returns a library's page: its header, the way up, its sub-libraries and
// postings offset..offset+limit in order ("" for the library's own: title, date, manual).
func (a *App) LibraryPage(id int64, order string, offset, limit int) (result LibPage, _ error) {
	defer lists(&result)
	ctx := context.Background()
	l := a.lib()
	p, err := l.Open(ctx, id, library.ListQuery{Order: library.Order(order), Offset: offset, Limit: limit})
	if err != nil {
		return LibPage{}, apiError(err)
	}
	out := LibPage{Library: libPostingDTO(p.Library, p.Path), Crumbs: libCrumbs(p.Crumbs), Image: a.imageURL(ctx, p.ImageID),
		Order: string(p.Order), Total: p.Total, Libraries: make([]LibPosting, 0, len(p.Libraries)),
		Postings: make([]LibPosting, 0, len(p.Postings))}
	for _, c := range p.Libraries {
		out.Libraries = append(out.Libraries, libPostingDTO(c, libChildPath(p.Path, c.Title)))
	}
	for _, c := range p.Postings {
		out.Postings = append(out.Postings, libPostingDTO(c, libChildPath(p.Path, c.Title)))
	}
	if u, err := l.LastChange(ctx); err == nil {
		out.LastChange, out.UndoProtected, out.LastChangeMine = u.Summary, u.Protected(), l.Mine(u)
		if u.By != a.person.lib.ID { // someone else's (a guest's, in the owner's window too)
			out.LastChangeBy = library.Whose(u)
		}
	}
	if r, err := l.NextRedo(ctx); err == nil {
		out.NextRedo, out.RedoProtected, out.NextRedoMine = r.Summary, r.Protected(), l.Mine(r)
	}
	return out, nil
}

// LibraryResolve returns the id of the node at a library path ("/Computing/Go").
func (a *App) LibraryResolve(path string) (int64, error) {
	n, err := a.lib().Resolve(context.Background(), path)
	if err != nil {
		return 0, apiError(err)
	}
	return n.ID, nil
}

// LibraryPosting returns one posting with its place, picture and, for a report, its text
// and its rendering.
func (a *App) LibraryPosting(id int64) (result LibDetail, _ error) {
	defer lists(&result)
	ctx := context.Background()
	d, err := a.lib().Posting(ctx, id)
	if err != nil {
		return LibDetail{}, apiError(err)
	}
	out := LibDetail{Posting: libPostingDTO(d.Posting, d.Path), Crumbs: libCrumbs(d.Crumbs), Image: a.imageURL(ctx, d.ImageID),
		Body: d.Body}
	if d.Kind == library.KindReport {
		r := library.Preview(d.Title, d.Body)
		out.Document, out.Links = r.Document, r.Links
		// Its links open the pages the workspace holds, in place, as an offline copy's do.
		if rc, err := offline.Make(ctx, a.ws().st, offline.Source{Title: d.Title, Body: []byte(r.Document), ContentType: "text/html"}); err == nil {
			out.Document = rc.Document
		}
	}
	return out, nil
}

// LibraryRecent lists everything at or below a library, newest first (GENVL's global list).
func (a *App) LibraryRecent(id int64, offset, limit int) (result LibRecent, _ error) {
	defer lists(&result)
	r, err := a.lib().Recent(context.Background(), id, 0, offset, limit)
	if err != nil {
		return LibRecent{}, apiError(err)
	}
	out := LibRecent{Total: r.Total, Postings: make([]LibPosting, 0, len(r.Postings))}
	for i, p := range r.Postings {
		out.Postings = append(out.Postings, libPostingDTO(p, libChildPath(r.Paths[i], p.Title)))
	}
	return out, nil
}

func (in LibInput) author() library.Author {
	return library.Author{Name: in.Author, Email: in.Email, Password: in.Password, LibraryPassword: in.LibraryPassword}
}

func image(dataURL string) *library.ImageData {
	if dataURL == "" {
		return nil
	}
	return &library.ImageData{DataURL: dataURL}
}

// posting returns node id as a DTO, after a change.
func (a *App) posting(ctx context.Context, id int64) (LibPosting, error) {
	d, err := a.lib().Posting(ctx, id)
	if err != nil {
		return LibPosting{}, apiError(err)
	}
	return libPostingDTO(d.Posting, d.Path), nil
}

// LibraryCreate makes a sub-library of parent (GENVL's Create).
func (a *App) LibraryCreate(parent int64, in LibInput) (result LibPosting, _ error) {
	defer lists(&result)
	ctx := context.Background()
	n, err := a.lib().Create(ctx, parent, library.LibraryInput{Title: in.Title, Purpose: in.Purpose, CreateOnly: in.CreateOnly,
		Order: library.Order(in.Order), Image: image(in.Image), By: in.author()})
	if err != nil {
		return LibPosting{}, apiError(err)
	}
	a.changed("created " + n.Title)
	return a.posting(ctx, n.ID)
}

// LibraryPoint adds a pointer to parent (GENVL's Point). A URL already in that library is
// refused (conflict); AlsoIn lists the other libraries that hold it.
func (a *App) LibraryPoint(parent int64, in LibInput) (result LibAdded, _ error) {
	defer lists(&result)
	ctx := context.Background()
	ad, err := a.lib().Point(ctx, parent, library.PointerInput{Title: in.Title, URL: in.URL, Notes: in.Notes, Tags: in.Tags, By: in.author()})
	if err != nil {
		return LibAdded{}, apiError(err)
	}
	a.changed("added " + ad.Node.Title)
	p, err := a.posting(ctx, ad.Node.ID)
	return LibAdded{Posting: p, AlsoIn: ad.AlsoIn}, err
}

// LibraryReport writes a report into parent (GENVL's Input).
func (a *App) LibraryReport(parent int64, in LibInput) (result LibPosting, _ error) {
	defer lists(&result)
	ctx := context.Background()
	n, err := a.lib().Input(ctx, parent, library.ReportInput{Title: in.Title, URL: in.URL, Body: in.Body, Image: image(in.Image), By: in.author()})
	if err != nil {
		return LibPosting{}, apiError(err)
	}
	a.changed("wrote " + n.Title)
	return a.posting(ctx, n.ID)
}

// LibraryPlaceView places the saved view in.View in parent, titled in.Title (default: its
// name).
func (a *App) LibraryPlaceView(parent int64, in LibInput) (result LibPosting, _ error) {
	defer lists(&result)
	ctx := context.Background()
	n, err := a.lib().PlaceView(ctx, parent, in.View, in.Title, in.author())
	if err != nil {
		return LibPosting{}, apiError(err)
	}
	a.changed("placed " + n.Title)
	return a.posting(ctx, n.ID)
}

// LibraryEdit changes a library or posting; a protected one needs its password.
func (a *App) LibraryEdit(id int64, e LibEdit, password string) (result LibPosting, _ error) {
	defer lists(&result)
	ctx := context.Background()
	ed := library.Edit{Title: e.Title, URL: e.URL, Notes: e.Notes, Body: e.Body, Tags: e.Tags, Purpose: e.Purpose,
		CreateOnly: e.CreateOnly, Image: image(e.Image), ClearImage: e.ClearImage, Author: e.Author, Email: e.Email,
		NewPassword: e.NewPassword, OpenToGuests: e.OpenToGuests}
	if e.Order != nil {
		o := library.Order(*e.Order)
		ed.Order = &o
	}
	n, err := a.lib().Edit(ctx, id, ed, password)
	if err != nil {
		return LibPosting{}, apiError(err)
	}
	a.changed("edited " + n.Title)
	return a.posting(ctx, n.ID)
}

func removalDTO(r library.Removal) LibRemoval {
	return LibRemoval{Libraries: r.Libraries, Pointers: r.Pointers, Reports: r.Reports, Views: r.Views,
		Titles: r.Titles, Protected: r.Protected}
}

// LibraryPreviewDelete says what deleting ids would remove, for the confirmation.
func (a *App) LibraryPreviewDelete(ids []int64) (result LibRemoval, _ error) {
	defer lists(&result)
	r, err := a.lib().PreviewDelete(context.Background(), ids)
	if err != nil {
		return LibRemoval{}, apiError(err)
	}
	return removalDTO(r), nil
}

// LibraryDelete deletes postings, libraries with everything below them (GENVL's Delete).
func (a *App) LibraryDelete(ids []int64, password string) (result LibRemoval, _ error) {
	defer lists(&result)
	r, err := a.lib().Delete(context.Background(), ids, password)
	if err != nil {
		return LibRemoval{}, apiError(err)
	}
	a.changed("deleted")
	return removalDTO(r), nil
}

// LibraryMove moves postings into the library dest at position (-1: at the end; within
// one library it reorders) (GENVL's Move).
func (a *App) LibraryMove(ids []int64, dest int64, position int, password string) error {
	if err := a.lib().Move(context.Background(), ids, dest, position, password); err != nil {
		return apiError(err)
	}
	a.changed("moved")
	return nil
}

// LibraryCopy copies postings into the library dest at position (-1: at the end); copying
// out of or into a protected library needs its password.
func (a *App) LibraryCopy(ids []int64, dest int64, position int, password string) (result []LibPosting, _ error) {
	defer lists(&result)
	ctx := context.Background()
	ns, err := a.lib().Copy(ctx, ids, dest, position, password)
	if err != nil {
		return nil, apiError(err)
	}
	a.changed("copied")
	out := make([]LibPosting, 0, len(ns))
	for _, n := range ns {
		p, err := a.posting(ctx, n.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// LibraryUndo takes back the last change to the library and says what it was.
func (a *App) LibraryUndo(password string) (string, error) {
	u, err := a.lib().Undo(context.Background(), password)
	if errors.Is(err, library.ErrNotFound) {
		return "", &Error{Code: CodeNotFound, Message: "nothing to undo"}
	}
	if err != nil {
		return "", apiError(err)
	}
	a.changed("undid " + u.Summary)
	return u.Summary, nil
}

// LibraryRedo makes again the change the last undo took back and says what it was.
func (a *App) LibraryRedo(password string) (string, error) {
	u, err := a.lib().Redo(context.Background(), password)
	if errors.Is(err, library.ErrNotFound) {
		return "", &Error{Code: CodeNotFound, Message: "nothing to redo"}
	}
	if err != nil {
		return "", apiError(err)
	}
	a.changed("redid " + u.Summary)
	return u.Summary, nil
}

// LibraryImport imports the text of a file of links into parent (GENVL's Pointers): a
// browser's bookmark file, a JSON tree, or a list of URLs or Markdown links. Importing into
// a protected library needs its password.
func (a *App) LibraryImport(parent int64, text, author, password string) (result LibImport, _ error) {
	defer lists(&result)
	start := time.Now()
	r, err := a.lib().Import(context.Background(), parent, []byte(text), library.Author{Name: author, LibraryPassword: password})
	if err != nil {
		return LibImport{}, apiError(err)
	}
	a.changed("imported")
	return ImportOf(r, time.Since(start)), nil
}

// LibraryExport exports a library and what is below it as "netscape" (bookmarks.html) or
// "json" and returns the file's content.
func (a *App) LibraryExport(id int64, format string) (LibExport, error) {
	var buf bytes.Buffer
	rep, err := a.lib().Export(context.Background(), id, format, &buf)
	if err != nil {
		return LibExport{}, apiError(err)
	}
	name := "bookmarks.html"
	if format == library.FormatJSON {
		name = "library.json"
	}
	return LibExport{Name: name, Content: buf.String(), Note: rep.Note}, nil
}

// LibraryExportFile asks where to save an export (desktop only) and writes it there:
// "netscape" or "json" as a file, "html" as a folder of pages. It returns where it wrote,
// "" when the dialog was cancelled.
func (a *App) LibraryExportFile(id int64, format string) (string, error) {
	if a.dialogs == nil {
		return "", &Error{Code: CodeUnavailable, Message: "saving files exists only in the desktop window"}
	}
	ctx := context.Background()
	name := map[string]string{library.FormatNetscape: "bookmarks.html", library.FormatJSON: "library.json", library.FormatHTML: "library-site"}[format]
	if name == "" {
		return "", &Error{Code: CodeInvalid, Message: "export formats are netscape, json and html"}
	}
	path, err := a.dialogs.SaveFile("Export the library", name)
	if err != nil || path == "" {
		return "", apiError(err)
	}
	if format == library.FormatHTML {
		if err := os.MkdirAll(path, 0o755); err != nil {
			return "", apiError(err)
		}
		_, err = a.lib().ExportSite(ctx, id, func(n string, data []byte) error {
			return os.WriteFile(filepath.Join(path, filepath.Base(n)), data, 0o644)
		})
		return path, apiError(err)
	}
	var buf bytes.Buffer
	if _, err := a.lib().Export(ctx, id, format, &buf); err != nil {
		return "", apiError(err)
	}
	return path, apiError(os.WriteFile(path, buf.Bytes(), 0o644))
}

// LibrarySearch searches the library (in: a library to search within, 0 for all).
func (a *App) LibrarySearch(query string, in int64, offset, limit int) (result LibSearchResults, _ error) {
	defer lists(&result)
	r, err := a.ws().library.Search(context.Background(), libsearch.Request{Query: query, In: in, Offset: offset, Limit: limit})
	if err != nil {
		return LibSearchResults{}, apiError(err)
	}
	return libHitsDTO(r), nil
}

// LibraryPreview renders a report's Markdown as it would show (the editor's preview).
func (a *App) LibraryPreview(title, markdown string) (result LibRendered, _ error) {
	defer lists(&result)
	if len(markdown) > library.MaxBody {
		return LibRendered{}, &Error{Code: CodeInvalid, Message: "the report is longer than 1 MiB: at most 1 MiB is kept"}
	}
	r := library.Preview(title, markdown)
	return LibRendered{Document: r.Document, Links: r.Links}, nil
}

// LibraryTags lists the tags in use, the most used first.
func (a *App) LibraryTags() (result []LibTag, _ error) {
	defer lists(&result)
	ts, err := a.lib().Tags(context.Background())
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]LibTag, 0, len(ts))
	for _, t := range ts {
		out = append(out, LibTag{Tag: t.Tag, Count: t.Count})
	}
	return out, nil
}

// LibraryCrawl crawls from a pointer, or from every pointer at or below a library ("crawl
// from here"); scope "list" fetches each once (a title and an offline copy). Progress comes
// as crawl events.
func (a *App) LibraryCrawl(id int64, scope string, maxPages int) (result Crawl, _ error) {
	defer lists(&result)
	seeds, err := a.lib().Seeds(context.Background(), id)
	if err != nil {
		return Crawl{}, apiError(err)
	}
	if len(seeds) == 0 {
		return Crawl{}, &Error{Code: CodeInvalid, Message: "nothing here has an address to crawl from"}
	}
	if strings.TrimSpace(scope) == "" {
		scope = crawl.ScopeTree
	}
	// When the crawl ends, pointers added without a title take their page's.
	w := a.ws()
	progress := a.progress(w)
	crawlID, err := w.jobs.Start(context.Background(), crawl.Config{Seeds: seeds, Scope: scope, MaxPages: maxPages, Delay: -1},
		func(p crawl.Progress) {
			if p.State != "running" {
				if n, err := library.New(w.st).FillTitles(context.Background(), seeds); err == nil && n > 0 {
					a.changed("named pointers")
				}
			}
			progress(p)
		})
	if err != nil {
		return Crawl{}, apiError(err)
	}
	return a.crawl(crawlID)
}
