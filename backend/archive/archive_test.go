package archive

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"mundaneum/backend/crawl"
	"mundaneum/backend/formats/warc"
	"mundaneum/backend/index"
	"mundaneum/backend/search"
	"mundaneum/backend/store"
	"mundaneum/backend/testenv"
)

func openStore(t testing.TB) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// site serves pages the test changes between runs, with ETags (an unchanged page answers
// 304), and counts the requests for each path.
type site struct {
	mu    sync.Mutex
	pages map[string]string
	hits  map[string]int
}

func newSite(pages map[string]string) *site { return &site{pages: pages, hits: map[string]int{}} }

func (s *site) set(path, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[path] = body
}

func (s *site) hit(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	body, ok := s.pages[r.URL.Path]
	s.hits[r.URL.Path]++
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	etag := fmt.Sprintf(`"%x"`, sha1.Sum([]byte(body)))
	w.Header().Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Write([]byte(body))
}

func newServer(t *testing.T, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

func runCrawl(t *testing.T, st *store.Store, cfg crawl.Config) crawl.Progress {
	t.Helper()
	cr, err := crawl.Open(context.Background(), st, nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	p, err := cr.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const orchids = `<title>Orchids</title><p>Dactylorhiza incarnata flowers in June in the fen.</p><a href="/">home</a>`

// crawledTwice is a workspace with a crawl run twice over a small site: a.html changed
// between the runs, b.html and c.html have the same content, the home page was confirmed
// by a 304.
func crawledTwice(t *testing.T) (*store.Store, *site, string, int64) {
	t.Helper()
	s := newSite(map[string]string{
		"/":       `<title>Home</title><a href="a.html">first</a> <a href="b.html">b</a> <a href="c.html">c</a> <img src="i.png">`,
		"/a.html": `<title>A</title><p>the old wording stays</p>`,
		"/b.html": orchids,
		"/c.html": orchids,
	})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	st := openStore(t)
	cfg := crawl.Config{Seeds: []string{srv.URL + "/"}, Scope: crawl.ScopeSite, Delay: 0, PerHost: 2}
	p := runCrawl(t, st, cfg)
	s.set("/a.html", `<title>A</title><p>the new wording zygomorph arrives</p>`)
	cfg.Refresh = true
	runCrawl(t, st, cfg)
	return st, s, srv.URL, p.CrawlID
}

func versions(t *testing.T, st *store.Store, url string) []store.Version {
	t.Helper()
	id, err := st.PageID(context.Background(), url)
	if err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	vs, err := st.Versions(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// searcher searches st's pages once its index (opened here, as the window opens it) has
// caught up with what the import stored.
func searcher(t *testing.T, st *store.Store) *search.Searcher {
	t.Helper()
	ctx := context.Background()
	idx, err := index.Open(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	if err := idx.Wait(ctx, func(index.Progress) {}); err != nil {
		t.Fatal(err)
	}
	return search.New(idx.SearchDB())
}

func hits(t *testing.T, st *store.Store, q string) []string {
	t.Helper()
	res, err := searcher(t, st).Search(context.Background(), search.Request{Query: q})
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, r := range res.Results {
		urls = append(urls, r.URL)
	}
	return urls
}

type readRecord struct {
	Type, URI, ID, RefersTo, Digest string
	Status                          int
	Payload                         []byte
}

// readWARC reads a WARC file with the project's reader.
func readWARC(t *testing.T, data []byte) []readRecord {
	t.Helper()
	rd, err := warc.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var out []readRecord
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		block, err := io.ReadAll(rec.Body)
		if err != nil {
			t.Fatal(err)
		}
		r := readRecord{Type: rec.Header.Type(), URI: rec.Header.TargetURI(), ID: rec.Header.RecordID(),
			RefersTo: rec.Header.Get("WARC-Refers-To"), Digest: rec.Header.Get("WARC-Payload-Digest")}
		if r.Type == warc.TypeResponse || r.Type == warc.TypeRevisit {
			head, body, _ := bytes.Cut(block, []byte("\r\n\r\n"))
			fmt.Sscanf(string(head), "HTTP/1.1 %d", &r.Status)
			r.Payload = body
		}
		out = append(out, r)
	}
}

func TestWARCExportImport(t *testing.T) {
	ctx := context.Background()
	st, _, base, crawlID := crawledTwice(t)
	var buf bytes.Buffer
	var last Progress
	rep, err := exportWARC(ctx, st, &buf, ExportOptions{CrawlID: crawlID, Compress: true,
		Progress: func(p Progress) {
			if p.Done < last.Done {
				t.Errorf("progress went back: %+v after %+v", p, last)
			}
			last = p
		}})
	if err != nil {
		t.Fatal(err)
	}
	if last.Done != last.Total || last.Total == 0 {
		t.Errorf("last progress %+v", last)
	}
	recs := readWARC(t, buf.Bytes())
	if rep.Records != len(recs) || recs[0].Type != warc.TypeWarcinfo {
		t.Fatalf("report %+v, %d records read, first %q", rep, len(recs), recs[0].Type)
	}
	ids := map[string]readRecord{}
	count := map[string]int{}
	for _, r := range recs {
		ids[r.ID] = r
		count[r.Type]++
		if r.Type == warc.TypeResponse && warc.Digest(r.Payload) != r.Digest {
			t.Errorf("%s: payload digest %s, written %s", r.URI, warc.Digest(r.Payload), r.Digest)
		}
	}
	// Pages /, a (two versions), b, c: four responses in full would be five; c's content
	// is b's, so c is a revisit of b. The home page was confirmed by a 304.
	if count[warc.TypeResponse] != 4 || count[warc.TypeRequest] != 4 || count[warc.TypeMetadata] != 4 {
		t.Errorf("records by type %v", count)
	}
	var dup, notModified bool
	for _, r := range recs {
		if r.Type != warc.TypeRevisit {
			continue
		}
		// A 304 refers to the same URL's earlier capture, which may itself be a revisit:
		// the chain ends at a response with the payload.
		of, ok := ids[r.RefersTo]
		for ok && of.Type == warc.TypeRevisit && of.URI == r.URI {
			of, ok = ids[of.RefersTo]
		}
		if !ok || of.Type != warc.TypeResponse || of.Digest != r.Digest {
			t.Errorf("revisit of %s refers to %q, no response with its digest", r.URI, r.RefersTo)
		}
		switch {
		case r.URI == base+"/c.html" && of.URI == base+"/b.html":
			dup = true
		case r.URI == base+"/" && r.Status == http.StatusNotModified && of.URI == base+"/":
			notModified = true
		}
	}
	if !dup || !notModified || rep.Revisits != count[warc.TypeRevisit] {
		t.Errorf("revisits: duplicate %v, 304 %v, report %+v, %v", dup, notModified, rep, count)
	}

	// Import it into another workspace: the same pages, versions, links and search.
	dst := openStore(t)
	irep, err := importWARC(ctx, dst, bytes.NewReader(buf.Bytes()), ImportOptions{Name: "c.warc.gz"})
	if err != nil {
		t.Fatal(err)
	}
	if irep.ProblemCount != 0 || irep.Pages != 5 || irep.Revisits != rep.Revisits || irep.Duplicates != 1 {
		t.Errorf("import %+v", irep)
	}
	a := versions(t, dst, base+"/a.html")
	if len(a) != 2 || a[0].Hash == a[1].Hash || !a[1].Current || a[0].FetchedAt >= a[1].FetchedAt {
		t.Errorf("a.html's versions after import: %+v", a)
	}
	orig := versions(t, st, base+"/a.html")
	if a[0].Hash != orig[0].Hash || a[1].Hash != orig[1].Hash || a[0].FetchedAt != orig[0].FetchedAt {
		t.Errorf("imported versions %+v differ from the crawl's %+v", a, orig)
	}
	if got := hits(t, dst, "zygomorph"); len(got) != 1 || got[0] != base+"/a.html" {
		t.Errorf("search zygomorph: %v", got)
	}
	if res, err := searcher(t, dst).Search(ctx, search.Request{Query: "zygomorph"}); err != nil ||
		res.Results[0].Versions != 2 || res.Results[0].ChangedAt != a[1].FetchedAt {
		t.Errorf("a changed result says so: %+v %v", res.Results, err)
	}
	// b.html and c.html have the same content: search shows it once, as for the crawl.
	if got := hits(t, dst, "Dactylorhiza"); len(got) != 1 || (got[0] != base+"/b.html" && got[0] != base+"/c.html") {
		t.Errorf("search Dactylorhiza: %v", got)
	}
	home, _ := dst.PageID(ctx, base+"/")
	links, err := dst.Links(ctx, home)
	if err != nil || len(links) != 4 {
		t.Errorf("home's links after import: %+v %v", links, err)
	}
	if hv := versions(t, dst, base+"/"); len(hv) != 1 || hv[0].ConfirmedStatus != http.StatusNotModified {
		t.Errorf("the 304 was not applied: %+v", hv)
	}
	body, _, _, err := dst.Body(ctx, home)
	if err != nil || !bytes.Contains(body, []byte(`<img src="i.png">`)) {
		t.Errorf("offline copy of home: %q %v", body, err)
	}

	// The same file again: nothing new is stored.
	u1, _ := dst.HistoryUsage(ctx)
	if _, err := importWARC(ctx, dst, bytes.NewReader(buf.Bytes()), ImportOptions{Name: "again"}); err != nil {
		t.Fatal(err)
	}
	if a := versions(t, dst, base+"/a.html"); len(a) != 2 {
		t.Errorf("a second import added versions: %+v", a)
	}
	if u2, _ := dst.HistoryUsage(ctx); u2.Bodies != u1.Bodies {
		t.Errorf("a second import stored bodies again: %+v then %+v", u1, u2)
	}

	// And webrecorder's warcio reads the export the same way.
	t.Run("warcio", func(t *testing.T) { checkWarcio(t, buf.Bytes(), recs) })
}

// checkWarcio reads data with webrecorder's warcio (frontend/scripts/warcio-read.mjs) and
// compares what it sees with the project's reader.
func checkWarcio(t *testing.T, data []byte, want []readRecord) {
	t.Helper()
	script, _ := filepath.Abs("../../frontend/scripts/warcio-read.mjs")
	if _, err := os.Stat("../../frontend/node_modules/warcio"); err != nil {
		testenv.Missing(t, "webrecorder's warcio is not installed (%v)", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Missing(t, "node is not installed (%v)", err)
	}
	file := filepath.Join(t.TempDir(), "x.warc.gz")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, script, file)
	cmd.Dir = "../../frontend"
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("warcio: %v: %s", err, stderr.String())
	}
	var got []struct {
		Type, URI, ID, RefersTo, Digest, PayloadDigest string
		Status, Length                                 int
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r struct {
			Type          string `json:"type"`
			URI           string `json:"uri"`
			ID            string `json:"id"`
			RefersTo      string `json:"refersTo"`
			Digest        string `json:"digest"`
			PayloadDigest string `json:"payloadDigest"`
			Status        int    `json:"status"`
			Length        int    `json:"length"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("warcio's line %q: %v", line, err)
		}
		got = append(got, struct {
			Type, URI, ID, RefersTo, Digest, PayloadDigest string
			Status, Length                                 int
		}{r.Type, r.URI, r.ID, r.RefersTo, r.Digest, r.PayloadDigest, r.Status, r.Length})
	}
	if len(got) != len(want) {
		t.Fatalf("warcio read %d records, the project's reader %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Type != w.Type || g.URI != w.URI || g.ID != w.ID || g.RefersTo != w.RefersTo || g.Digest != w.Digest {
			t.Errorf("record %d: warcio %+v, ours %+v", i, g, w)
		}
		if w.Type == warc.TypeResponse && (g.PayloadDigest != w.Digest || g.Length != len(w.Payload) || g.Status != w.Status) {
			t.Errorf("response %s: warcio payload %s (%d bytes, status %d), ours %s (%d bytes, status %d)", w.URI,
				g.PayloadDigest, g.Length, g.Status, w.Digest, len(w.Payload), w.Status)
		}
	}
}
