package archive

// Importing WARCs that other tools wrote (wget, a Heritrix-style crawler).

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"mundaneum/backend/formats/warc"
	"mundaneum/backend/store"
)

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
