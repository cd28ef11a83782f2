package exchange

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"mundaneum/backend/crawl"
	"mundaneum/backend/formats/soif"
	"mundaneum/backend/store"
	"mundaneum/backend/urlnorm"
)

// ErrMalformed means a stream is not a well-formed SOIF stream (or, from a peer, not a
// whole one): nothing of it was applied.
var ErrMalformed = errors.New("not a well-formed SOIF stream")

// ReasonNotHeld is the reason recorded on a page a summary links to but the source did not
// send (the same code as an archive's links to what it does not hold).
const ReasonNotHeld = "not-archived"

// Caps of a stream: its size once decompressed (a gzip bomb stops here), and one template.
var (
	MaxStream = int64(8 << 30)
	Limits    = soif.Limits{MaxValue: 16 << 20, MaxTemplate: 32 << 20, MaxAttrs: 4096}
)

// ImportOptions tune an import or a pull.
type ImportOptions struct {
	// Index is the workspace's search index: the import ends once what it brought in is
	// searchable (nil: it does not wait).
	Index    crawl.Index
	Progress func(Progress)
	// Whole requires the stream's END template, with the count of templates sent: what a
	// peer's stream has, and a file need not.
	Whole bool
}

// Problem is a template an import left out.
type Problem struct {
	Offset int64  `json:"offset"`
	URL    string `json:"url,omitempty"`
	Reason string `json:"reason"`
}

// ImportReport tells what an import or a pull did.
type ImportReport struct {
	SourceID  int64     `json:"sourceId"`
	CrawlID   int64     `json:"crawlId"`
	Gatherer  string    `json:"gatherer,omitempty"`
	Templates int       `json:"templates"` // page templates in the stream
	Applied   int       `json:"applied"`   // saved: new or changed summaries
	Unchanged int       `json:"unchanged"` // the workspace had this content already
	Older     int       `json:"older"`     // older than the page's copy here: kept as an earlier version
	Bytes     int64     `json:"bytes"`     // of the stream, uncompressed
	Wire      int64     `json:"wireBytes,omitempty"`
	Cursor    Cursor    `json:"cursor"`
	Problems  []Problem `json:"problems"`
	Seconds   float64   `json:"seconds"`
}

const maxProblems = 100

func (r *ImportReport) problem(off int64, url, reason string) {
	if len(r.Problems) < maxProblems {
		r.Problems = append(r.Problems, Problem{Offset: off, URL: url, Reason: reason})
	}
}

// checked is a stream spooled to a temporary file and read through once.
type checked struct {
	file      *os.File
	templates int
	bytes     int64
	gatherer  string
	end       *soif.Template
}

func (c *checked) Close() {
	c.file.Close()
	os.Remove(c.file.Name())
}

// gunzip returns r decompressed when it starts as gzip does.
func gunzip(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%w: gzip: %v", ErrMalformed, err)
		}
		return zr, nil
	}
	return br, nil
}

// check reads a whole stream (decompressing gzip) into a temporary file, parsing every
// template on the way: a stream that does not parse to its end, or that is not whole when
// opt.Whole asks, is refused before anything is applied.
func check(ctx context.Context, r io.Reader, opt ImportOptions, progress func(Progress)) (*checked, error) {
	in, err := gunzip(r)
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp("", "mundaneum-soif-*.part")
	if err != nil {
		return nil, err
	}
	c := &checked{file: f}
	ok := false
	defer func() {
		if !ok {
			c.Close()
		}
	}()
	lim := &io.LimitedReader{R: in, N: MaxStream + 1}
	bw := bufio.NewWriterSize(f, 256<<10)
	sr := soif.NewReader(io.TeeReader(lim, bw), Limits)
	start, last := time.Now(), time.Now()
	for i := 0; ; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t, err := sr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if lim.N <= 0 {
			return nil, fmt.Errorf("%w: larger than %d GiB uncompressed", ErrMalformed, MaxStream>>30)
		}
		var fe *soif.FormatError
		if errors.As(err, &fe) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) ||
			errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		if c.end != nil {
			return nil, fmt.Errorf("%w: byte %d: a template after the END template", ErrMalformed, sr.Offset())
		}
		switch {
		case t.Type == TypeGatherer && i == 0:
			c.gatherer = t.String("Gatherer-Name")
		case t.Type == TypeGatherer:
			return nil, fmt.Errorf("%w: byte %d: a GATHERER template inside the stream", ErrMalformed, sr.Offset())
		case t.Type == TypeEnd:
			c.end = t
		default:
			c.templates++
		}
		if progress != nil && time.Since(last) > 200*time.Millisecond {
			last = time.Now()
			progress(Progress{Templates: int64(c.templates), Bytes: sr.Offset(), Elapsed: time.Since(start), Phase: "check"})
		}
	}
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	c.bytes = sr.Offset()
	if opt.Whole {
		if c.end == nil {
			return nil, fmt.Errorf("%w: it ends without its END template (cut short?)", ErrMalformed)
		}
		if n, err := strconv.Atoi(c.end.String("Templates")); err != nil || n != c.templates {
			return nil, fmt.Errorf("%w: its END template counts %q templates, the stream holds %d", ErrMalformed,
				c.end.String("Templates"), c.templates)
		}
		if _, err := strconv.ParseInt(c.end.String("Cursor"), 10, 64); err != nil {
			return nil, fmt.Errorf("%w: its END template has no cursor", ErrMalformed)
		}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	ok = true
	return c, nil
}

// prepared is a template made ready to save, or why it is left out.
type prepared struct {
	off    int64
	url    string
	result *store.Result
	target store.Target
	why    string
	bytes  int64
}

// apply saves the summaries of a checked stream into the source's crawl: one goroutine
// reads and prepares templates (parse, normalise, compress the text), this one saves them
// in the stream's order, so that both cores work.
func apply(ctx context.Context, st PageStore, src Source, c *checked, rep *ImportReport, opt ImportOptions) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	items := make(chan prepared, 64)
	readErr := make(chan error, 1)
	go func() {
		defer close(items)
		sr := soif.NewReader(bufio.NewReaderSize(c.file, 256<<10), Limits)
		for {
			off := sr.Offset()
			t, err := sr.Next()
			if errors.Is(err, io.EOF) {
				readErr <- nil
				return
			}
			if err != nil {
				readErr <- fmt.Errorf("%w: %v", ErrMalformed, err) // it read a moment ago: the disk is at fault
				return
			}
			if t.Type == TypeGatherer || t.Type == TypeEnd {
				continue
			}
			s := FromTemplate(t)
			r, target, why := result(&s, src.CrawlID)
			select {
			case items <- prepared{off: off, url: t.URL, result: r, target: target, why: why, bytes: sr.Offset()}:
			case <-ctx.Done():
				readErr <- ctx.Err()
				return
			}
		}
	}()
	start, last := time.Now(), time.Now()
	for it := range items {
		rep.Templates++
		if it.why != "" {
			rep.problem(it.off, it.url, it.why)
			continue
		}
		out, err := st.ImportSummary(ctx, it.result, it.target, src.ID)
		if err != nil {
			cancel()
			for range items {
			}
			return err
		}
		switch {
		case out.Older:
			rep.Older++
		case out.Kept:
			rep.Unchanged++
		default:
			rep.Applied++
		}
		if opt.Progress != nil && time.Since(last) > 200*time.Millisecond {
			last = time.Now()
			opt.Progress(Progress{Templates: int64(rep.Templates), Total: int64(c.templates), Bytes: it.bytes,
				Applied: int64(rep.Applied), Elapsed: time.Since(start), Phase: "apply"})
		}
	}
	if err := <-readErr; err != nil {
		return err
	}
	return ctx.Err()
}

// result turns a summary into what the store saves, or says why it cannot be.
func result(s *Summary, crawlID int64) (*store.Result, store.Target, string) {
	u, err := urlnorm.Parse(s.URL)
	if err != nil {
		return nil, store.Target{}, "URL: " + err.Error()
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, store.Target{}, "not an http(s) URL"
	}
	if s.Hash == "" || len(s.Hash) != 64 || strings.Trim(s.Hash, "0123456789abcdef") != "" {
		// Another Gatherer's summary: its hash is the summary's own.
		h := sha256.New()
		for _, f := range []string{s.Title, s.Headings, s.Text, s.Description, s.Keywords} {
			h.Write([]byte(f))
			h.Write([]byte{0})
		}
		s.Hash = hex.EncodeToString(h.Sum(nil))
	}
	at := s.UpdatedAt
	if at <= 0 {
		at = time.Now().UnixMilli()
	}
	r := &store.Result{URL: u.String(), CrawlID: crawlID, State: store.StateFetched, Status: 200, FetchedAt: at,
		ContentType: s.ContentType, Size: s.Size, Hash: s.Hash, LastModified: s.LastModified,
		Doc: &store.Doc{Title: s.Title, Headings: s.Headings, Text: s.Text, Lang: s.Lang, Description: s.Description,
			Keywords: s.Keywords, Author: s.Author, Summariser: s.Summariser, Attrs: storeAttrs(s)},
		ReplaceLinks: true, Links: []store.Target{}}
	// Packed here, off the writer's goroutine (the writer would pack it otherwise).
	r.Text = store.PackText(store.PageText{Title: s.Title, Headings: s.Headings, Body: s.Text})
	for i, l := range s.Links {
		lu, err := u.Parse(l.URL)
		if err != nil {
			continue
		}
		nu, err := urlnorm.Parse(lu.String())
		if err != nil || (nu.Scheme != "http" && nu.Scheme != "https") {
			continue
		}
		t := store.Target{URL: nu.String(), Origin: urlnorm.Origin(nu), Kind: "a", Anchor: store.Clean(l.Anchor),
			Skip: ReasonNotHeld, Pos: i + 1}
		if !crawl.LooksLikePage(nu) {
			t.Skip, t.Resource = crawl.ReasonType, true
		}
		r.Links = append(r.Links, t)
	}
	return r, store.Target{URL: u.String(), Origin: urlnorm.Origin(u), Kind: "seed"}, ""
}

// run checks a stream, then applies it into src's crawl as one run of it.
func run(ctx context.Context, st ImportStore, src Source, r io.Reader, opt ImportOptions) (ImportReport, error) {
	rep := ImportReport{SourceID: src.ID, CrawlID: src.CrawlID, Problems: []Problem{}}
	start := time.Now()
	defer func() { rep.Seconds = time.Since(start).Seconds() }()
	c, err := check(ctx, r, opt, opt.Progress)
	if err != nil {
		return rep, err
	}
	defer c.Close()
	rep.Bytes, rep.Gatherer = c.bytes, c.gatherer
	if c.end != nil {
		rep.Cursor.Seq, _ = strconv.ParseInt(c.end.String("Cursor"), 10, 64)
		rep.Cursor.Time, _ = strconv.ParseInt(c.end.String("Cursor-Time"), 10, 64)
	}
	if err := ensureCrawl(ctx, st, &src); err != nil {
		return rep, err
	}
	rep.CrawlID = src.CrawlID
	cfg, _ := json.Marshal(map[string]any{"import": map[string]any{"format": "soif", "source": src.ID}})
	if err := st.StartRun(ctx, src.CrawlID, cfg, true); err != nil {
		return rep, err
	}
	runErr := apply(ctx, st, src, c, &rep, opt)
	state := store.CrawlDone
	switch {
	case runErr != nil && ctx.Err() != nil:
		state, runErr = store.CrawlCancelled, ctx.Err()
	case runErr != nil:
		state = store.CrawlFailed
	}
	errText := ""
	if runErr != nil {
		errText = runErr.Error()
	}
	step := func(string) {
		if opt.Progress != nil {
			opt.Progress(Progress{Templates: int64(rep.Templates), Total: int64(rep.Templates), Bytes: rep.Bytes,
				Applied: int64(rep.Applied), Elapsed: time.Since(start), Phase: "index"})
		}
	}
	if err := crawl.Finish(ctx, st, opt.Index, src.CrawlID, state, errText, step); err != nil && runErr == nil {
		runErr = err
	}
	return rep, runErr
}

// looksLikeSOIF reports whether the start of a file is a SOIF stream (plain or gzip).
func looksLikeSOIF(head []byte) bool {
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(head))
		if err != nil {
			return false
		}
		b := make([]byte, 512)
		n, _ := io.ReadFull(zr, b)
		head = b[:n]
	}
	head = bytes.TrimLeft(head, " \t\r\n")
	if len(head) < 2 || head[0] != '@' {
		return false
	}
	i := bytes.IndexAny(head, " \t{")
	return i > 1 && bytes.Contains(head[i:min(len(head), i+8)], []byte("{"))
}

// LooksLikeSOIF reports whether the start of a file is a SOIF stream (plain or gzip).
func LooksLikeSOIF(head []byte) bool { return looksLikeSOIF(head) }

// storeAttrs are the attributes a page keeps of its summary: the summariser's own, as they
// came, and the author, which the summarisers record among them too.
func storeAttrs(s *Summary) []store.Attr {
	var out []store.Attr
	if s.Author != "" {
		out = append(out, store.Attr{Name: "author", Value: s.Author})
	}
	for _, a := range s.Attrs {
		out = append(out, store.Attr{Name: a.Name, Value: string(a.Value)})
	}
	return out
}
