package archive

import (
	"bytes"
	"compress/gzip"
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

func TestImportWget(t *testing.T) {
	ctx := context.Background()
	data, err := os.ReadFile("testdata/wget.warc.gz")
	if err != nil {
		t.Fatal(err)
	}
	st := openStore(t)
	rep, err := importWARC(ctx, st, bytes.NewReader(data), ImportOptions{Name: "wget.warc.gz"})
	if err != nil {
		t.Fatal(err)
	}
	// wget 1.21 fetched /, robots.txt (404), orchids.html, same.html (orchids' content),
	// gone.html (404), pic.png and index.html (the home page's content again); then its
	// manifest (metadata) and arguments (resource).
	if rep.ProblemCount != 0 || rep.Pages != 4 || rep.Duplicates != 2 || rep.Other != 3 || rep.Records != 17 {
		t.Errorf("import %+v", rep)
	}
	const base = "http://127.0.0.1:18791"
	pages := map[string]string{"/": store.StateFetched, "/orchids.html": store.StateFetched, "/same.html": store.StateFetched,
		"/index.html": store.StateFetched, "/gone.html": store.StateFailed, "/pic.png": store.StateSkipped}
	for path, state := range pages {
		id, err := st.PageID(ctx, base+path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		p, err := st.Page(ctx, id)
		if err != nil || p.State != state {
			t.Errorf("%s: state %q, want %q (%v)", path, p.State, state, err)
		}
	}
	same, _ := st.PageID(ctx, base+"/same.html")
	if p, _ := st.Page(ctx, same); p.DuplicateURL != base+"/orchids.html" || p.Title != "Orchids" {
		t.Errorf("same.html: duplicate of %q, title %q", p.DuplicateURL, p.Title)
	}
	if got := hits(t, st, "Dactylorhiza"); len(got) == 0 {
		t.Errorf("wget's pages are not searchable")
	}
	home, _ := st.PageID(ctx, base+"/")
	if links, _ := st.Links(ctx, home); len(links) != 4 {
		t.Errorf("home's links: %+v", links)
	}
	if c, err := st.Crawl(ctx, rep.CrawlID); err != nil || c.State != store.CrawlDone || c.Scope != store.ScopeImport {
		t.Errorf("the import's crawl %+v %v", c, err)
	}
}

// heritrixStyle writes a WARC as Heritrix 3 does: warcinfo, a dns: response, each HTTP
// response with its request and a metadata record of outlinks, chunked and gzipped bodies
// as they came off the wire, and identical-payload-digest revisits of other URLs.
func heritrixStyle(t *testing.T, bad bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, true)
	put := func(h warc.Header, block string) {
		if err := w.WriteRecord(h, []byte(block)); err != nil {
			t.Fatal(err)
		}
	}
	info := warc.NewRecordID()
	put(warc.Header{{Name: "WARC-Type", Value: "warcinfo"}, {Name: "WARC-Date", Value: "2026-01-05T10:00:00Z"},
		{Name: "WARC-Record-ID", Value: info}, {Name: "Content-Type", Value: "application/warc-fields"}},
		"software: Heritrix/3.4.0 http://crawler.archive.org\r\nformat: WARC File Format 1.0\r\n")
	put(warc.Header{{Name: "WARC-Type", Value: "response"}, {Name: "WARC-Date", Value: "2026-01-05T10:00:01Z"},
		{Name: "WARC-Target-URI", Value: "dns:fen.example"}, {Name: "Content-Type", Value: "text/dns"}},
		"20260105100001\nfen.example.\t300\tIN\tA\t192.0.2.7\n")
	response := func(uri, date, head string, body []byte, payload string, links ...string) {
		req := warc.NewRecordID()
		resp := warc.NewRecordID()
		put(warc.Header{{Name: "WARC-Type", Value: "response"}, {Name: "WARC-Record-ID", Value: resp},
			{Name: "WARC-Date", Value: date}, {Name: "WARC-Target-URI", Value: uri},
			{Name: "Content-Type", Value: "application/http; msgtype=response"},
			{Name: "WARC-Payload-Digest", Value: warc.Digest([]byte(payload))}}, head+string(body))
		put(warc.Header{{Name: "WARC-Type", Value: "request"}, {Name: "WARC-Record-ID", Value: req},
			{Name: "WARC-Date", Value: date}, {Name: "WARC-Target-URI", Value: uri}, {Name: "WARC-Concurrent-To", Value: resp},
			{Name: "Content-Type", Value: "application/http; msgtype=request"}},
			"GET / HTTP/1.1\r\nUser-Agent: Mozilla/5.0 (compatible; heritrix/3.4.0 +http://example.org)\r\n\r\n")
		var outlinks string
		for _, l := range links {
			outlinks += "outlink: " + l + " L a/@href\r\n"
		}
		put(warc.Header{{Name: "WARC-Type", Value: "metadata"}, {Name: "WARC-Date", Value: date},
			{Name: "WARC-Target-URI", Value: uri}, {Name: "WARC-Concurrent-To", Value: resp},
			{Name: "Content-Type", Value: "application/warc-fields"}}, "via: \r\nhopsFromSeed: \r\n"+outlinks)
	}
	home := `<html><title>Fen survey</title><body><a href="/orchids">orchids</a> <a href="/moved">moved</a> <a href="/copy">copy</a></body></html>`
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(home))
	zw.Close()
	chunked := fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", gz.Len(), gz.Bytes())
	response("http://fen.example/", "2026-01-05T10:00:02Z",
		"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n",
		[]byte(chunked), home, "http://fen.example/orchids")
	response("http://fen.example/orchids", "2026-01-05T10:00:03Z",
		"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: "+fmt.Sprint(len(orchids))+"\r\n\r\n",
		[]byte(orchids), orchids)
	if bad {
		// A record whose header is cut off by junk, then one whose body is not the length
		// it says.
		buf.WriteString("WARC/1.1\r\nWARC-Type: response\r\nContent-Length: zebra\r\n\r\nnonsense\r\n\r\n")
		put(warc.Header{{Name: "WARC-Type", Value: "response"}, {Name: "WARC-Date", Value: "2026-01-05T10:00:04Z"},
			{Name: "WARC-Target-URI", Value: "http://fen.example/broken"},
			{Name: "Content-Type", Value: "application/http; msgtype=response"}}, "HTTP/1.1 200 OK\r\nContent-Type: text/ht")
	}
	response("http://fen.example/moved", "2026-01-05T10:00:05Z",
		"HTTP/1.1 301 Moved Permanently\r\nLocation: /orchids\r\nContent-Length: 0\r\n\r\n", nil, "")
	put(warc.Header{{Name: "WARC-Type", Value: "revisit"}, {Name: "WARC-Date", Value: "2026-01-05T10:00:06Z"},
		{Name: "WARC-Target-URI", Value: "http://fen.example/copy"},
		{Name: "WARC-Profile", Value: "http://netpreserve.org/warc/1.0/revisit/identical-payload-digest"},
		{Name: "WARC-Refers-To-Target-URI", Value: "http://fen.example/orchids"},
		{Name: "WARC-Refers-To-Date", Value: "2026-01-05T10:00:03Z"},
		{Name: "WARC-Payload-Digest", Value: warc.Digest([]byte(orchids))},
		{Name: "Content-Type", Value: "application/http; msgtype=response"}},
		"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n")
	if bad {
		// A last record cut short: its gzip member ends early.
		var tail bytes.Buffer
		tw := warc.NewWriter(&tail, true)
		tw.WriteRecord(warc.Header{{Name: "WARC-Type", Value: "response"}, {Name: "WARC-Date", Value: "2026-01-05T10:00:07Z"},
			{Name: "WARC-Target-URI", Value: "http://fen.example/last"},
			{Name: "Content-Type", Value: "application/http; msgtype=response"}},
			[]byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<title>Last</title>"+strings.Repeat("words ", 500)))
		buf.Write(tail.Bytes()[:tail.Len()/2])
	}
	return buf.Bytes()
}

func TestImportHeritrixStyle(t *testing.T) {
	ctx := context.Background()
	for _, bad := range []bool{false, true} {
		t.Run(fmt.Sprintf("bad=%v", bad), func(t *testing.T) {
			st := openStore(t)
			rep, err := importWARC(ctx, st, bytes.NewReader(heritrixStyle(t, bad)), ImportOptions{Name: "heritrix.warc.gz"})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Pages != 3 || rep.Revisits != 1 || rep.Duplicates != 1 || rep.Other != 1 {
				t.Errorf("import %+v", rep)
			}
			if bad && (rep.ProblemCount < 2 || len(rep.Problems) != rep.ProblemCount) {
				t.Errorf("bad records: %+v", rep.Problems)
			}
			if !bad && rep.ProblemCount != 0 {
				t.Errorf("problems in a good file: %+v", rep.Problems)
			}
			home, err := st.PageID(ctx, "http://fen.example/")
			if err != nil {
				t.Fatal(err)
			}
			p, _ := st.Page(ctx, home)
			if p.Title != "Fen survey" || p.State != store.StateFetched {
				t.Errorf("home: %+v", p)
			}
			if body, _, _, err := st.Body(ctx, home); err != nil || !strings.Contains(string(body), "Fen survey") {
				t.Errorf("home's offline copy is not the decoded body: %q %v", body, err)
			}
			copyID, _ := st.PageID(ctx, "http://fen.example/copy")
			if c, _ := st.Page(ctx, copyID); c.Title != "Orchids" || c.DuplicateURL != "http://fen.example/orchids" {
				t.Errorf("the revisit's page: %+v", c)
			}
			moved, _ := st.PageID(ctx, "http://fen.example/moved")
			if m, _ := st.Page(ctx, moved); m.State != store.StateRedirected || m.FinalURL != "http://fen.example/orchids" {
				t.Errorf("the redirect: %+v", m)
			}
			for _, u := range []string{"http://fen.example/broken", "http://fen.example/last"} {
				if id, err := st.PageID(ctx, u); err == nil {
					if p, _ := st.Page(ctx, id); p.State == store.StateFetched {
						t.Errorf("%s was stored from a bad record", u)
					}
				}
			}
			if got := hits(t, st, "incarnata"); len(got) != 1 {
				t.Errorf("search incarnata: %v", got)
			}
			// Search by time: the archive's dates, not the import's.
			for q, want := range map[string]int{"incarnata fetched:2026-01-05": 1, "incarnata fetched:<2026-01-05": 0,
				"incarnata fetched:>2026-01-04": 1, "incarnata changed:>2026-01-05": 0, "incarnata changed:2026-01": 1,
				"survey changed:<=2026": 1, "survey changed:>2026": 0} {
				if got := hits(t, st, q); len(got) != want {
					t.Errorf("search %s: %v, want %d", q, got, want)
				}
			}
		})
	}
}

// An import stopped part way leaves each page whole: every page stored with content has
// its version and its body.
func TestImportCancelledLeavesWholePages(t *testing.T) {
	st, _, _, crawlID := crawledTwice(t)
	var buf bytes.Buffer
	if _, err := exportWARC(context.Background(), st, &buf, ExportOptions{CrawlID: crawlID, Compress: true}); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	for cut := 1; cut < len(data); cut += len(data) / 7 {
		dst := openStore(t)
		ctx, cancel := context.WithCancel(context.Background())
		r := io.MultiReader(bytes.NewReader(data[:cut]), readerFunc(func([]byte) (int, error) {
			cancel()
			return 0, context.Canceled
		}))
		_, err := importWARC(ctx, dst, r, ImportOptions{Name: "cut"})
		if err == nil {
			t.Errorf("cut at %d: no error", cut)
		}
		var broken int
		if err := dst.ReadDB().QueryRow(`SELECT count(*) FROM pages p WHERE p.state = 'fetched' AND (p.hash IS NULL
			OR NOT EXISTS (SELECT 1 FROM versions v WHERE v.page_id = p.id AND v.hash = p.hash))`).Scan(&broken); err != nil {
			t.Fatal(err)
		}
		if broken != 0 {
			t.Errorf("cut at %d: %d page(s) half-written", cut, broken)
		}
	}
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

func TestDetect(t *testing.T) {
	var gz bytes.Buffer
	w := warc.NewWriter(&gz, true)
	w.WriteRecord(warc.Header{{Name: "WARC-Type", Value: "warcinfo"}, {Name: "WARC-Date", Value: "2026-01-01T00:00:00Z"}}, nil)
	for _, c := range []struct {
		name, head, want string
	}{
		{"x.bin", gz.String(), "warc"},
		{"x", "WARC/1.0\r\nWARC-Type: warcinfo\r\n", "warc"},
		{"x.txt", "T http://a.example/ Home\nR http://a.example/b http://a.example/ b\n", "wwww"},
		{"y.wwww", "", "wwww"},
		{"y.warc.gz", "", "warc"},
		{"notes.txt", "hello\n", ""},
	} {
		f, err := Detect(c.name, []byte(c.head))
		if f.Name != c.want || (c.want == "") != (err != nil) {
			t.Errorf("Detect(%q) = %q, %v; want %q", c.name, f.Name, err, c.want)
		}
	}
}
