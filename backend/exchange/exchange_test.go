package exchange

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"mundaneum/backend/crawl"
	"mundaneum/backend/formats/soif"
	"mundaneum/backend/index"
	"mundaneum/backend/search"
	"mundaneum/backend/store"
)

// instance is one Mundaneum workspace with its index, as serve or the window holds it.
type instance struct {
	st  *store.Store
	idx *index.Index
}

func newInstance(t *testing.T, name string) *instance {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), name+".mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	idx, err := index.Open(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close(); st.Close() })
	return &instance{st: st, idx: idx}
}

func (in *instance) crawl(t *testing.T, cfg crawl.Config) {
	t.Helper()
	cr, err := crawl.Open(context.Background(), in.st, in.idx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cr.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
}

// search returns the URLs found for q, each with the source it is marked with.
func (in *instance) search(t *testing.T, q string) map[string]string {
	t.Helper()
	ctx := context.Background()
	if err := in.idx.Wait(ctx, func(index.Progress) {}); err != nil {
		t.Fatal(err)
	}
	res, err := search.New(in.idx.SearchDB()).Search(ctx, search.Request{Query: q})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range res.Results {
		out[r.URL] = r.Source
	}
	return out
}

// serve offers the instance's summaries on a loopback listener, through the handler serve
// mounts.
func (in *instance) serve(t *testing.T) string {
	t.Helper()
	var base string
	srv := httptest.NewServer(Handler(func() (Store, string) { return in.st, base }))
	t.Cleanup(srv.Close)
	base = srv.URL + "/"
	return base
}

// site is a small web site the test changes between crawls.
type site struct {
	mu    sync.Mutex
	pages map[string]string
}

func (s *site) set(path, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[path] = body
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	body, ok := s.pages[r.URL.Path]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write([]byte(body))
}

// The issue's test: two instances on loopback; a crawl on one, pulled into the other; a
// page changes and is crawled again; the next pull carries that change and nothing else,
// and the second instance finds the new text, marked with its source.
func TestPullOnlyTheChange(t *testing.T) {
	ctx := context.Background()
	web := &site{pages: map[string]string{
		"/":           `<title>Mundaneum</title><a href="/otlet.html">Otlet</a> <a href="/cards.html">the cards</a> <a href="/la.html">La Fontaine</a>`,
		"/otlet.html": `<title>Paul Otlet</title><p>Otlet planned a universal bibliographic repertory.</p>`,
		"/cards.html": `<title>Cards</title><p>Twelve million index cards in drawers.</p>`,
		"/la.html":    `<title>Henri La Fontaine</title><p>Nobel peace prize, 1913.</p>`,
	}}
	origin := httptest.NewServer(web)
	defer origin.Close()
	cfg := crawl.Config{Seeds: []string{origin.URL + "/"}, Scope: crawl.ScopeSite, Delay: 0, PerHost: 2}

	a, b := newInstance(t, "a"), newInstance(t, "b")
	a.crawl(t, cfg)
	tok, err := Issue(ctx, a.st, "b's laptop")
	if err != nil {
		t.Fatal(err)
	}
	src, err := AddPeer(ctx, b.st, a.serve(t), tok.Secret)
	if err != nil {
		t.Fatal(err)
	}

	rep, err := Pull(ctx, b.st, b.idx, src.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Templates != 4 || rep.Applied != 4 {
		t.Fatalf("first pull: %d templates, %d applied; want the 4 pages", rep.Templates, rep.Applied)
	}
	if got := b.search(t, "repertory"); got[origin.URL+"/otlet.html"] == "" {
		t.Fatalf("the pulled page is not found with its source: %v", got)
	}

	// A page changes; the first instance crawls again.
	web.set("/otlet.html", `<title>Paul Otlet</title><p>Otlet sketched the Mundaneum as a televised encyclopaedia.</p>`)
	cfg.Refresh = true
	a.crawl(t, cfg)

	rep2, err := Pull(ctx, b.st, b.idx, src.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep2.Templates != 1 || rep2.Applied != 1 {
		t.Fatalf("second pull: %d templates, %d applied; want only the changed page", rep2.Templates, rep2.Applied)
	}
	if rep2.Wire >= rep.Wire {
		t.Errorf("second pull moved %d bytes, the first %d", rep2.Wire, rep.Wire)
	}
	got := b.search(t, "televised")
	if s := got[origin.URL+"/otlet.html"]; s == "" {
		t.Fatalf("the new text is not found, or not marked with its source: %v", got)
	}
	if got := b.search(t, "repertory"); len(got) != 0 {
		t.Fatalf("the old text is still found: %v", got)
	}

	// Nothing changed: nothing travels.
	rep3, err := Pull(ctx, b.st, b.idx, src.ID, nil)
	if err != nil || rep3.Templates != 0 {
		t.Fatalf("third pull: %d templates (%v)", rep3.Templates, err)
	}
	s, _ := Get(ctx, b.st, src.ID)
	if s.Summaries != 4 || s.Cursor.Seq == 0 || s.Error != "" {
		t.Fatalf("source after the pulls: %+v", s)
	}

	// A revoked token is refused, and the cursor stays.
	if err := Revoke(ctx, a.st, tok.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := Pull(ctx, b.st, b.idx, src.ID, nil); !errors.Is(err, ErrPeer) || !strings.Contains(err.Error(), "403") {
		t.Fatalf("pull with a revoked token: %v", err)
	}
	if after, _ := Get(ctx, b.st, src.ID); after.Cursor != s.Cursor || after.Error == "" {
		t.Fatalf("after a refused pull: %+v", after)
	}
	ts, _ := Tokens(ctx, a.st)
	if len(ts) != 1 || ts[0].RevokedAt == 0 || ts[0].Uses != 3 || ts[0].Secret != "" {
		t.Fatalf("tokens: %+v", ts)
	}
}

// A stream that is not whole, or not well-formed, is refused with nothing applied and the
// cursor where it was.
func TestMalformedStreamAppliesNothing(t *testing.T) {
	ctx := context.Background()
	good := func(text string) []byte {
		var buf bytes.Buffer
		w := soif.NewWriter(&buf)
		w.Write(&soif.Template{Type: TypeGatherer, URL: "http://peer.test/", Attrs: []soif.Attr{{Name: "Gatherer-Name", Value: []byte("peer")}}})
		for i := range 3 {
			w.Write(Template(&Summary{URL: fmt.Sprintf("http://site.test/%d.html", i), ContentType: "text/html",
				Title: fmt.Sprint("page ", i), Text: text, UpdatedAt: time.Now().UnixMilli()}, Gatherer{}))
		}
		w.Write(&soif.Template{Type: TypeEnd, URL: "http://peer.test/", Attrs: []soif.Attr{{Name: "Templates", Value: []byte("3")},
			{Name: "Cursor", Value: []byte("9")}}})
		w.Flush()
		return buf.Bytes()
	}
	whole := good("xylographic")
	cut := whole[:len(whole)-40] // the END template cut short
	lastNL := bytes.LastIndex(whole[:len(whole)-2], []byte("\n@END"))
	noEnd := whole[:lastNL+1]
	badCount := bytes.Replace(whole, []byte("Full-Text{11}:\txylographic"), []byte("Full-Text{12}:\txylographic"), 1)
	wrongTotal := bytes.Replace(whole, []byte("Templates{1}:\t3"), []byte("Templates{1}:\t4"), 1)
	var stream []byte
	var gz bool
	peer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if gz {
			zw := gzip.NewWriter(w)
			zw.Write(stream)
			zw.Close()
			return
		}
		w.Write(stream)
	}))
	defer peer.Close()
	b := newInstance(t, "b")
	src, err := AddPeer(ctx, b.st, peer.URL, "mdx_anything")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
		gz   bool
	}{
		{"cut short", cut, false},
		{"no END", noEnd, false},
		{"wrong byte count", badCount, false},
		{"wrong total", wrongTotal, false},
		{"gzip cut short", nil, true},
		{"not SOIF", []byte("<html>an error page</html>"), false},
	} {
		stream, gz = c.data, c.gz
		if c.gz {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(whole)
			zw.Close()
			stream, gz = buf.Bytes()[:buf.Len()-12], false
		}
		_, err := Pull(ctx, b.st, b.idx, src.ID, nil)
		if !errors.Is(err, ErrMalformed) {
			t.Fatalf("%s: pull gave %v", c.name, err)
		}
		if got := b.search(t, "xylographic"); len(got) != 0 {
			t.Fatalf("%s: applied: %v", c.name, got)
		}
		if s, _ := Get(ctx, b.st, src.ID); s.Cursor.Seq != 0 || s.Summaries != 0 {
			t.Fatalf("%s: source moved: %+v", c.name, s)
		}
	}
	// The whole stream, gzip or not, applies.
	stream, gz = whole, true
	rep, err := Pull(ctx, b.st, b.idx, src.ID, nil)
	if err != nil || rep.Applied != 3 || rep.Cursor.Seq != 9 {
		t.Fatalf("whole stream: %+v %v", rep, err)
	}
	if got := b.search(t, "xylographic"); len(got) != 3 || got["http://site.test/0.html"] != "peer" {
		t.Fatalf("whole stream: found %v", got)
	}
}

// Only http(s) addresses are pulled from, and redirects stay on http(s).
func TestPeerAddresses(t *testing.T) {
	for _, u := range []string{"file:///etc/passwd", "ftp://a/", "javascript:alert(1)", "http://", "http://u:p@a/", "a.example"} {
		if _, err := PeerURL(u); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v", u, err)
		}
	}
	for in, want := range map[string]string{"http://127.0.0.1:8123": "http://127.0.0.1:8123/",
		"https://h.example/mundaneum/": "https://h.example/mundaneum/", "http://h/exchange/soif": "http://h/"} {
		if got, err := PeerURL(in); err != nil || got != want {
			t.Errorf("%s: %q %v", in, got, err)
		}
	}
	redirect := httptest.NewServer(http.RedirectHandler("file:///etc/passwd", http.StatusFound))
	defer redirect.Close()
	b := newInstance(t, "b")
	src, err := AddPeer(context.Background(), b.st, redirect.URL, "mdx_x")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Pull(context.Background(), b.st, b.idx, src.ID, nil); err == nil || !strings.Contains(err.Error(), "only http(s)") {
		t.Fatalf("a redirect to file: %v", err)
	}
}

// Export, import into another workspace, export again: the same summaries (convention 24:
// two paths that must agree, checked against each other), and --since keeps what changed.
func TestExportImportAgree(t *testing.T) {
	ctx := context.Background()
	web := &site{pages: map[string]string{
		"/":       `<title>Home</title><meta name="description" content="A home"><h1>Welcome</h1><a href="/b.html">bee</a> <a href="/c.pdf">a paper</a>`,
		"/b.html": "<title>B</title><p>Line one\nline two {with braces}\n}\n@FILE { not a template</p>",
	}}
	pdf, err := os.ReadFile("../summary/testdata/paper.pdf")
	if err != nil {
		t.Fatal(err)
	}
	web.pages["/c.pdf"] = string(pdf)
	origin := httptest.NewServer(web)
	defer origin.Close()
	a, b := newInstance(t, "a"), newInstance(t, "b")
	a.crawl(t, crawl.Config{Seeds: []string{origin.URL + "/"}, Scope: crawl.ScopeSite, Delay: 0})
	var first bytes.Buffer
	rep, err := Export(ctx, a.st, &first, ExportOptions{})
	if err != nil || rep.Templates != 3 {
		t.Fatalf("export: %+v %v", rep, err)
	}
	if _, err := ImportFile(ctx, b.st, "a.soif", bytes.NewReader(first.Bytes()), ImportOptions{Index: b.idx}); err != nil {
		t.Fatal(err)
	}
	var second bytes.Buffer
	if _, err := Export(ctx, b.st, &second, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	pages := func(data []byte) map[string]*soif.Template {
		out := map[string]*soif.Template{}
		r := soif.NewReader(bytes.NewReader(data), Limits)
		for {
			tp, err := r.Next()
			if errors.Is(err, io.EOF) {
				return out
			}
			if err != nil {
				t.Fatal(err)
			}
			if tp.Type == TemplateType {
				var keep []soif.Attr
				for _, at := range tp.Attrs {
					if !strings.HasPrefix(at.Name, "Gatherer-") {
						keep = append(keep, at)
					}
				}
				tp.Attrs = keep
				out[tp.URL] = tp
			}
		}
	}
	one, two := pages(first.Bytes()), pages(second.Bytes())
	if len(one) != 3 || len(two) != 3 {
		t.Fatalf("%d and %d templates", len(one), len(two))
	}
	for u, tp := range one {
		if !tp.Equal(two[u]) {
			t.Errorf("%s changed on the way:\n%+v\n%+v", u, tp, two[u])
		}
	}
	if refs := one[origin.URL+"/"].String("URL-References"); !strings.Contains(refs, "/c.pdf") {
		t.Errorf("references: %q", refs)
	}
	// A document's summary travels with the summariser that made it and that summariser's
	// own attributes, and the receiving workspace keeps them as its own crawl would.
	paper := one[origin.URL+"/c.pdf"]
	if paper == nil || paper.String("Summariser") != "pdf" || paper.String("pages") == "" {
		t.Fatalf("the PDF's template: %+v", paper)
	}
	var id int64
	if err := b.st.ReadDB().QueryRowContext(ctx, `SELECT id FROM pages WHERE url = ?`, origin.URL+"/c.pdf").Scan(&id); err != nil {
		t.Fatal(err)
	}
	sum, attrs, err := b.st.PageAttrs(ctx, id)
	if err != nil || sum != "pdf" {
		t.Fatalf("the PDF at the receiver: %q %v", sum, err)
	}
	got := map[string]string{}
	for _, a := range attrs {
		got[a.Name] = a.Value
	}
	if got["pages"] != paper.String("pages") {
		t.Errorf("the PDF's attributes at the receiver: %v", got)
	}
	// --since: nothing changed after now.
	var none bytes.Buffer
	if rep, err := Export(ctx, a.st, &none, ExportOptions{Since: time.Now().Add(time.Minute)}); err != nil || rep.Templates != 0 {
		t.Fatalf("since the future: %+v %v", rep, err)
	}
}

// Two changes committed in the same millisecond both get their own place in the log.
func TestCursorEqualTimes(t *testing.T) {
	ctx := context.Background()
	in := newInstance(t, "a")
	web := &site{pages: map[string]string{"/": `<a href="/x">x</a><a href="/y">y</a>`, "/x": "x", "/y": "y"}}
	origin := httptest.NewServer(web)
	defer origin.Close()
	in.crawl(t, crawl.Config{Seeds: []string{origin.URL + "/"}, Scope: crawl.ScopeSite, Delay: 0})
	before, _ := in.st.LastSummarySeq(ctx)
	if err := in.st.Writer().Do(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE pages SET changed_at = 42 WHERE hash IS NOT NULL`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	in.st.Writer().Flush(ctx)
	var buf bytes.Buffer
	rep, err := Export(ctx, in.st, &buf, ExportOptions{After: before})
	if err != nil || rep.Templates != 3 || rep.Cursor.Seq != before+3 {
		t.Fatalf("after equal times: %+v %v", rep, err)
	}
}

// FuzzSummary: any template a stream holds becomes a summary and a result to save, or a
// reason to leave it out, without a panic; a page's template reads back as its summary.
func FuzzSummary(f *testing.F) {
	f.Add([]byte("@FILE { http://a.test/\nTitle{1}:\tx\nURL-References{9}:\thttp://b/\nUpdate-Time{3}:\t-12\n}\n"))
	f.Add([]byte("@FILE { javascript:alert(1)\nFull-Text{2}:\tab\nURL-References{13}:\tfile:///etc/\n}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := soif.NewReader(bytes.NewReader(data), soif.Limits{MaxValue: 1 << 12, MaxTemplate: 1 << 14, MaxAttrs: 64})
		for {
			tp, err := r.Next()
			if err != nil {
				return
			}
			s := FromTemplate(tp)
			res, _, why := result(&s, 1)
			if why == "" {
				if res.URL == "" || len(res.Hash) != 64 {
					t.Fatalf("result %+v", res)
				}
				for _, l := range res.Links {
					if !strings.HasPrefix(l.URL, "http://") && !strings.HasPrefix(l.URL, "https://") {
						t.Fatalf("link %q kept", l.URL)
					}
				}
			}
			back := FromTemplate(Template(&s, Gatherer{}))
			if back.Title != s.Title || back.Text != s.Text || back.Hash != s.Hash || len(back.Links) != len(s.Links) {
				if soifSafe(s) {
					t.Fatalf("summary %+v read back as %+v", s, back)
				}
			}
		}
	})
}

// soifSafe: a summary whose template writes (its URL is one trimmed line).
func soifSafe(s Summary) bool {
	return writesOK(s.URL)
}

func writesOK(u string) bool {
	return soif.NewWriter(io.Discard).Write(&soif.Template{Type: TemplateType, URL: u}) == nil
}
