package archive

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"time"

	"mundaneum/backend/crawl"
	"mundaneum/backend/fetch"
	"mundaneum/backend/formats/warc"
	"mundaneum/backend/history"
	"mundaneum/backend/store"
	"mundaneum/backend/summary"
	"mundaneum/backend/urlnorm"
)

// Caps of a WARC import: a page's body as stored in the record and after decoding its
// Content-Encoding (a crawl's own caps are smaller), and the HTTP header of a record.
const (
	importMaxBody    = 64 << 20
	importMaxDecoded = 256 << 20
	importMaxHeader  = 256 << 10
)

// ReasonNotArchived is the reason recorded on a page the archive links to but does not hold.
const ReasonNotArchived = "not-archived"

// record is one WARC record read, with what the workers need of it.
type record struct {
	where     string // "byte N"
	typ       string
	uri       string
	date      time.Time
	digest    string // WARC-Payload-Digest
	profile   string
	refersTo  string // WARC-Refers-To-Target-URI
	status    int
	header    http.Header
	rawHeader string // the status line and header lines, as archived
	body      []byte // for wanted responses, as archived (still content-encoded)
	size      int64  // the record's block length
	problem   string
}

// item is a record made ready to save.
type item struct {
	rec    *record
	result *store.Result
	body   []byte // the page's content, decoded
	target store.Target
	kind   int
}

const (
	itemSkip    = iota // nothing to save (ignored, or a problem)
	itemContent        // a response with the page's content
	itemOther          // a response saved without content (redirect, error, other type)
	itemRevisit        // identical-payload revisit: content from an earlier record
	itemConfirm        // server-not-modified revisit
)

type warcImport struct {
	st     *store.Store
	opt    ImportOptions
	rep    ImportReport
	crawl  int64
	hashes map[string]string // WARC payload digest -> content hash, of responses stored
	start  time.Time
}

func importWARC(ctx context.Context, st *store.Store, r io.Reader, opt ImportOptions) (ImportReport, error) {
	im := &warcImport{st: st, opt: opt, rep: ImportReport{Format: "warc"},
		hashes: map[string]string{}, start: time.Now()}
	cfg, _ := json.Marshal(map[string]any{"import": map[string]string{"format": "warc", "file": opt.Name}})
	c, err := st.CreateCrawl(ctx, "import warc "+opt.Name+" "+time.Now().UTC().Format(time.RFC3339Nano),
		[]string{}, store.ScopeImport, cfg)
	if err != nil {
		return im.rep, err
	}
	im.crawl, im.rep.CrawlID = c.ID, c.ID
	if err := st.StartRun(ctx, c.ID, cfg, true); err != nil {
		return im.rep, err
	}
	cr := &countReader{r: r}
	runErr := im.run(ctx, cr)
	im.rep.Bytes = cr.n.Load()
	state := store.CrawlDone
	switch {
	case runErr != nil && ctx.Err() != nil:
		state, runErr = store.CrawlCancelled, ctx.Err()
	case runErr != nil:
		state = store.CrawlFailed
	}
	if err := crawl.Finish(ctx, st, opt.Index, c.ID, state, errString(runErr), func(note string) { im.progress(cr.n.Load(), note) }); err != nil && runErr == nil {
		runErr = err
	}
	im.rep.Elapsed = time.Since(im.start)
	return im.rep, runErr
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func (im *warcImport) progress(done int64, note string) {
	if im.opt.Progress != nil {
		im.opt.Progress(Progress{Done: done, Total: im.opt.Size, Pages: int64(im.rep.Pages),
			Elapsed: time.Since(im.start), Note: note})
	}
}

// run reads records in this goroutine, prepares them on every core, and saves them in the
// file's order in another.
func (im *warcImport) run(ctx context.Context, cr *countReader) error {
	rd, err := warc.NewReader(cr)
	if err != nil {
		return err
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	type job struct {
		rec  *record
		done chan item
	}
	jobs := make(chan job, 2*workers)
	order := make(chan chan item, 4*workers)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range workers {
		go func() {
			for j := range jobs {
				j.done <- im.prepare(ctx, j.rec)
			}
		}()
	}
	saved := make(chan error, 1)
	go func() {
		var err error
		last := time.Now()
		for done := range order {
			it := <-done
			// A record is saved whole or not at all: once begun, its writes are not cut
			// short by a cancel (an interrupted write would fail the writer's batch); the
			// cancel stops the import between records.
			if err == nil && ctx.Err() == nil {
				if err = im.save(context.WithoutCancel(ctx), it); err != nil {
					cancel()
				}
			}
			if time.Since(last) > 250*time.Millisecond {
				last = time.Now()
				im.progress(cr.n.Load(), "")
			}
		}
		saved <- err
	}()
	readErr := func() error {
		defer close(order)
		defer close(jobs)
		for ctx.Err() == nil {
			rec, err := im.read(rd)
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			done := make(chan item, 1)
			select {
			case order <- done:
			case <-ctx.Done():
				return ctx.Err()
			}
			jobs <- job{rec, done}
		}
		return ctx.Err()
	}()
	if err := <-saved; err != nil {
		return err
	}
	im.progress(cr.n.Load(), "")
	return readErr
}

// read returns the next record with what later stages need of it, or a record holding its
// problem. Only a failure of the file itself is an error.
func (im *warcImport) read(rd *warc.Reader) (*record, error) {
	rec, err := rd.Next()
	var fe *warc.FormatError
	if errors.As(err, &fe) {
		return &record{where: fmt.Sprintf("byte %d", fe.Offset), problem: fe.Err.Error()}, nil
	}
	if err != nil {
		return nil, err
	}
	im.rep.Records++
	h := rec.Header
	r := &record{where: fmt.Sprintf("byte %d", rec.Offset), typ: h.Type(), uri: h.TargetURI(), date: h.Date(),
		digest: strings.TrimSpace(h.Get("WARC-Payload-Digest")), profile: h.Profile(), refersTo: h.RefersToTargetURI(),
		size: rec.ContentLength}
	if r.typ != warc.TypeResponse && r.typ != warc.TypeRevisit {
		return r, nil
	}
	ct := strings.ToLower(h.Get("Content-Type"))
	if !strings.HasPrefix(ct, "application/http") {
		r.typ = "" // a response of another protocol (dns:, ...): of no use here
		return r, nil
	}
	br := bufio.NewReaderSize(io.LimitReader(rec.Body, rec.ContentLength), 16<<10)
	resp, raw, err := readHTTPHead(br)
	switch {
	case err != nil && r.typ == warc.TypeRevisit:
		return r, nil // a revisit need not repeat the header
	case err != nil:
		r.problem = "HTTP response: " + err.Error()
		return r, nil
	}
	r.status, r.header, r.rawHeader = resp.StatusCode, resp.Header, raw
	if r.typ == warc.TypeRevisit || !wantedType(mediaOf(resp.Header.Get("Content-Type"))) ||
		resp.StatusCode < 200 || resp.StatusCode > 299 || resp.StatusCode == http.StatusNoContent {
		return r, nil
	}
	// The body, as archived: chunked framing undone, Content-Encoding kept.
	var body io.Reader = br
	if slices.Contains(resp.TransferEncoding, "chunked") {
		body = httputil.NewChunkedReader(br)
	}
	buf, err := io.ReadAll(io.LimitReader(body, importMaxBody+1))
	switch {
	case err != nil:
		r.problem = "response body: " + err.Error()
	case len(buf) > importMaxBody:
		r.problem = fmt.Sprintf("response body larger than %d MiB", importMaxBody>>20)
	default:
		r.body = buf
	}
	return r, nil
}

// readHTTPHead parses the status line and header of an archived HTTP response, returning
// them also as archived.
func readHTTPHead(br *bufio.Reader) (*http.Response, string, error) {
	var raw bytes.Buffer
	for {
		line, err := br.ReadSlice('\n')
		raw.Write(line)
		if raw.Len() > importMaxHeader {
			return nil, "", fmt.Errorf("header longer than %d KiB", importMaxHeader>>10)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			return nil, "", fmt.Errorf("cut short in its header")
		}
		if len(bytes.TrimRight(line, "\r\n")) == 0 {
			break
		}
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw.Bytes())), nil)
	if err != nil {
		return nil, "", err
	}
	head := strings.TrimRight(raw.String(), "\r\n")
	return resp, strings.ReplaceAll(strings.ReplaceAll(head, "\r\n", "\n"), "\n", "\r\n") + "\r\n", nil
}

// wantedType reports whether a response's body is read: its media type is one a summariser
// declares (a feed, a PDF, an archive: backend/summary's list, aliases included), or none
// is given. A generic type (application/octet-stream) is recorded without its body.
func wantedType(mt string) bool {
	if mt == "" {
		return true
	}
	for _, k := range summary.Kinds() {
		if slices.Contains(k.Media, mt) {
			return true
		}
	}
	return false
}

// prepare turns a record into what save stores: it decodes and summarises a page's body as a
// crawl would, and judges whether a changed page is in fact dead.
func (im *warcImport) prepare(ctx context.Context, rec *record) item {
	it := item{rec: rec}
	if rec.problem != "" || (rec.typ != warc.TypeResponse && rec.typ != warc.TypeRevisit) {
		return it
	}
	u, err := urlnorm.Parse(rec.uri)
	if err != nil {
		rec.problem = "target URI: " + err.Error()
		return it
	}
	if rec.date.IsZero() {
		rec.problem = "no WARC-Date"
		return it
	}
	at := rec.date.UnixMilli()
	it.target = store.Target{URL: u.String(), Origin: urlnorm.Origin(u), Kind: "seed"}
	r := &store.Result{URL: u.String(), CrawlID: im.crawl, FetchedAt: at, Status: rec.status,
		WireBytes: rec.size, RefreshAt: crawl.RefreshAt(rec.header, rec.date)}
	it.result = r
	if rec.typ == warc.TypeRevisit {
		it.kind = itemRevisit
		if rec.profile == "server-not-modified" || rec.status == http.StatusNotModified {
			it.kind = itemConfirm
			r.State, r.Unchanged, r.Status = store.StateFetched, true, http.StatusNotModified
		}
		return it
	}
	mt := mediaOf(rec.header.Get("Content-Type"))
	switch s := rec.status; {
	case s >= 300 && s < 400:
		it.kind = itemOther
		r.State, r.Reason, r.ContentType = store.StateRedirected, crawl.ReasonRedirect, mt
		loc, err := u.Parse(strings.TrimSpace(rec.header.Get("Location")))
		if rec.header.Get("Location") == "" || err != nil {
			r.State, r.Reason, r.Detail = store.StateFailed, crawl.ReasonHTTP, "a redirect without a usable Location"
			return it
		}
		if to, err := urlnorm.Parse(loc.String()); err == nil {
			r.FinalURL = to.String()
			r.Links = []store.Target{{URL: to.String(), Origin: urlnorm.Origin(to), Kind: "redirect", Skip: ReasonNotArchived}}
			r.ReplaceLinks = true
		}
	case s < 200 || s >= 400:
		it.kind = itemOther
		r.State, r.Reason, r.ContentType = store.StateFailed, crawl.StatusReason(s), mt
	case rec.body == nil:
		it.kind = itemOther // another type, or no body: recorded as a crawl records it
		r.State, r.Reason, r.ContentType = store.StateSkipped, crawl.ReasonType, mt
	default:
		it.kind = itemContent
		body, err := fetch.DecodeBody(rec.header, bytes.NewReader(rec.body), importMaxBody, importMaxDecoded)
		if err != nil {
			rec.problem = "response body: " + err.Error()
			return item{rec: rec}
		}
		im.summarize(ctx, r, u, rec, body)
		it.body = body
	}
	return it
}

// summarize fills r from a page's body as the crawl does, with links recorded and not
// followed, the archived header, and the judgement of a change.
func (im *warcImport) summarize(ctx context.Context, r *store.Result, u *url.URL, rec *record, body []byte) {
	mt := mediaOf(rec.header.Get("Content-Type"))
	if mt == "" {
		mt = "text/html"
	}
	s, found, err := crawl.Summarize(ctx, r, u, rec.status, rec.header, mt, body, summary.Budget{}, nil)
	if err != nil { // no type is refused without a list of types: cannot happen
		return
	}
	if rec.rawHeader != "" {
		r.Header = rec.rawHeader
	}
	r.Links = make([]store.Target, 0, len(found))
	for i, l := range found {
		t := store.Target{URL: l.URL.String(), Origin: urlnorm.Origin(l.URL), Kind: l.Kind, Anchor: l.Anchor,
			Rel: l.Rel, Skip: ReasonNotArchived, Pos: i + 1}
		if !crawl.LooksLikePage(l.URL) {
			t.Skip, t.Resource = crawl.ReasonType, true
		}
		r.Links = append(r.Links, t)
	}
	// A changed page that died behind a 200: judged against what the workspace holds.
	if id, err := im.st.PageID(ctx, r.URL); err == nil {
		if p, err := im.st.Page(ctx, id); err == nil && p.Hash != "" && p.Hash != r.Hash && p.FetchedAt < r.FetchedAt {
			if old, ct, cs, err := im.st.Body(ctx, id); err == nil {
				r.Flag = history.Judge(history.Evidence{Prev: history.TextOf(old, ct, cs, r.URL),
					New: history.Text{Title: s.Title, Body: s.Text}})
			}
		}
	}
}

// save stores an item, in the file's order. Only a failure of the workspace is an error.
func (im *warcImport) save(ctx context.Context, it item) error {
	rec := it.rec
	if rec.problem != "" {
		im.rep.problem(rec.where, rec.uri, rec.problem)
		return nil
	}
	switch it.kind {
	case itemSkip:
		im.rep.Ignored++
		return nil
	}
	switch it.kind {
	case itemRevisit:
		// Identical payload digest means the revisit declares the digest an earlier record
		// declared: one earlier in this file is found by it, whatever the digest was taken
		// over (tools digest the payload as sent, gzip-encoded or even chunked, while the
		// workspace keeps the decoded body, so that body cannot be checked against it). A
		// page the workspace held before the import can only be checked by its body.
		hash, inFile := im.hashes[rec.digest]
		if !inFile && rec.refersTo != "" {
			if u, err := urlnorm.Normalize(rec.refersTo); err == nil {
				if hash, _, err = im.pageHash(ctx, u); err != nil {
					return err
				}
			}
		}
		var body []byte
		if hash != "" {
			var err error
			if body, err = im.body(ctx, hash); err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
		}
		if body == nil {
			im.rep.problem(rec.where, rec.uri, "a revisit of a record that is neither in this file before it nor in the workspace")
			return nil
		}
		if !inFile && strings.HasPrefix(strings.ToLower(rec.digest), "sha1:") && !strings.EqualFold(warc.Digest(body), rec.digest) {
			im.rep.problem(rec.where, rec.uri, "a revisit whose payload digest does not match the workspace's copy of "+rec.refersTo+
				" (changed since, or archived content-encoded)")
			return nil
		}
		cur, _, err := im.pageHash(ctx, it.result.URL)
		if err != nil {
			return err
		}
		if cur == hash {
			// The page has this content already: the revisit confirms it.
			it.kind = itemConfirm
			r := it.result
			r.State, r.Unchanged = store.StateFetched, true
			if r.Status < 200 || r.Status > 299 {
				r.Status = http.StatusOK
			}
			im.rep.Revisits++
			break
		}
		u, _ := urlnorm.Parse(it.result.URL)
		if rec.header == nil {
			rec.header = http.Header{}
		}
		if rec.status < 200 || rec.status > 299 {
			rec.status = http.StatusOK
		}
		im.summarize(ctx, it.result, u, rec, body)
		it.result.Blob = nil // stored already
		it.body = body
		im.rep.Revisits++
	case itemConfirm:
		_, exists, err := im.pageHash(ctx, it.result.URL)
		if err != nil {
			return err
		}
		if !exists {
			im.rep.problem(rec.where, rec.uri, "a not-modified revisit of a page the workspace does not hold")
			return nil
		}
		im.rep.Revisits++
	}
	out, err := im.st.ImportResult(ctx, it.result, it.target, false)
	if err != nil {
		return err
	}
	switch it.kind {
	case itemContent, itemRevisit:
		im.rep.Pages++
		im.rep.Versions++
		if out.DuplicateOf != 0 {
			im.rep.Duplicates++
		}
		if rec.digest != "" && len(im.hashes) < maxDigests {
			im.hashes[rec.digest] = it.result.Hash
		}
	case itemOther:
		im.rep.Other++
	}
	return nil
}

// maxDigests bounds the payload digests an import remembers for revisits (beyond it, a
// revisit finds its content through the page it refers to). About 100 bytes each.
const maxDigests = 1 << 18

// pageHash returns the content hash of the page at url ("" when it has none) and whether
// the workspace holds the page, counting what this import saved and the writer has not yet
// committed: the question is asked inside the writer's open transaction, so no commit is
// forced and nothing is kept in memory.
func (im *warcImport) pageHash(ctx context.Context, url string) (string, bool, error) {
	return im.st.PendingPage(ctx, url)
}

// body returns the content with hash, as the writer sees it (see pageHash).
func (im *warcImport) body(ctx context.Context, hash string) ([]byte, error) {
	return im.st.PendingBlob(ctx, hash)
}
