package crawl

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"mundaneum/backend/search"
	"mundaneum/backend/store"
	"mundaneum/backend/store/dbtest"
	"mundaneum/backend/testenv"
)

// docWeb is a site of documents: a PDF, a text file, a feed whose entries link to pages, a
// Markdown file, a gzip-compressed text and a zip, each holding a word found nowhere else;
// and hostile ones: a broken PDF, a gzip bomb, a zip bomb.
func docWeb(t *testing.T) *httptest.Server {
	t.Helper()
	pdf, err := os.ReadFile("../summary/testdata/paper.pdf")
	if err != nil {
		t.Fatal(err)
	}
	var gz, bomb bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("compressed text about the quagga"))
	zw.Close()
	zw = gzip.NewWriter(&bomb)
	zw.Write(make([]byte, 80<<20))
	zw.Close()
	zipOf := func(name string, body []byte) []byte {
		var b bytes.Buffer
		z := zip.NewWriter(&b)
		f, _ := z.Create(name)
		f.Write(body)
		z.Close()
		return b.Bytes()
	}
	release, err := os.ReadFile("../summary/testdata/sqlite-copyright-release.pdf")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]struct {
		ct   string
		body []byte
	}{
		"/paper.pdf":        {"application/pdf", pdf},
		"/download?id=7":    {"application/octet-stream", release}, // a PDF without its name
		"/notes.txt":        {"text/plain; charset=utf-8", []byte("plain notes on the xylograph")},
		"/feed.xml":         {"application/rss+xml", []byte(`<rss><channel><title>Index news</title><item><title>An entry about vellum</title><link>/entry</link></item></channel></rss>`)},
		"/readme.md":        {"text/markdown", []byte("# Readme\nthe *marginalia* of cards")},
		"/notes.txt.gz":     {"application/gzip", gz.Bytes()},
		"/bundle.zip":       {"application/zip", zipOf("inside.txt", []byte("zipped words: the zymurgy of cards"))},
		"/broken.pdf":       {"application/pdf", pdf[:300]},
		"/bomb.gz":          {"application/gzip", bomb.Bytes()},
		"/zipbomb.zip":      {"application/zip", zipOf("zeros.txt", make([]byte, 80<<20))},
		"/entry":            {"text/html", []byte(page("Entry", "reached from the feed: orrery"))},
		"/not-followed.zip": {"application/zip", zipOf("a.txt", []byte("never"))},
	}
	mux := http.NewServeMux()
	var links strings.Builder
	for path := range files {
		mux.HandleFunc(strings.SplitN(path, "?", 2)[0], func(rw http.ResponseWriter, r *http.Request) {
			key := r.URL.Path
			if r.URL.RawQuery != "" {
				key += "?" + r.URL.RawQuery
			}
			f := files[key]
			rw.Header().Set("Content-Type", f.ct)
			rw.Write(f.body)
		})
		if path != "/entry" {
			fmt.Fprintf(&links, `<a href="%s">%s</a> `, path, path)
		}
	}
	mux.HandleFunc("/{$}", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html")
		fmt.Fprint(rw, page("Documents", links.String()))
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func needPoppler(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		testenv.Missing(t, "pdftotext is not installed (poppler-utils)")
	}
}

func TestCrawlDocuments(t *testing.T) {
	needPoppler(t)
	w := docWeb(t)
	st := openStore(t)
	run(t, st, Config{Seeds: []string{w.URL + "/"}, Scope: ScopeSite, Types: []string{"pdf", "txt", "md", "feed", "gz", "zip"}})
	if err := st.idx.Settle(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	u := func(p string) string { return w.URL + p }
	// Each document is found by a word only its content holds.
	for word, path := range map[string]string{"quoxilated": "/paper.pdf", "xylograph": "/notes.txt", "vellum": "/feed.xml",
		"marginalia": "/readme.md", "quagga": "/notes.txt.gz", "zymurgy": "/bundle.zip", "orrery": "/entry"} {
		var got []string
		rows, err := st.idx.SearchDB().Query(`SELECT rowid FROM page_fts WHERE page_fts MATCH ?`, word)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			var url string
			dbtest.Scan(t, st.ReadDB().QueryRow(`SELECT url FROM pages WHERE id = ?`, id), &url)
			got = append(got, url)
		}
		rows.Close()
		if !slices.Contains(got, u(path)) {
			t.Errorf("%q finds %v, want %s", word, got, path)
		}
	}
	// The summariser and the type's attributes are stored with the page.
	id, _ := st.PageID(context.Background(), u("/paper.pdf"))
	name, attrs, err := st.PageAttrs(context.Background(), id)
	if err != nil || name != "pdf" || !slices.Contains(attrs, store.Attr{Name: "pages", Value: "12"}) ||
		!slices.Contains(attrs, store.Attr{Name: "author", Value: "Paul Otlet"}) {
		t.Errorf("pdf attributes: %q %v %v", name, attrs, err)
	}
	if p := pageOf(t, st, u("/paper.pdf")); p.title != "A planted paper" || p.state != store.StateFetched {
		t.Errorf("pdf page: %+v", p)
	}
	if p := pageOf(t, st, u("/download?id=7")); !strings.Contains(p.title, "Copyright") {
		t.Errorf("a PDF served as application/octet-stream: %+v", p)
	}
	// The attributes are search fields, and a PDF result shows its author and pages.
	sr := search.New(st.idx.SearchDB())
	for q, want := range map[string]int{`author:otlet`: 1, `author:"paul otlet" quoxilated`: 1, `pages:>10`: 1, `pages:12`: 1, `pages:1 copyright`: 1,
		`pages:<=3`: 1, `pages:<1`: 0, `author:nobody`: 0, `quoxilated -author:otlet`: 0} {
		res, err := sr.Search(context.Background(), search.Request{Query: q})
		if err != nil || res.Total != want {
			t.Errorf("%s: %d results (%v), want %d", q, res.Total, err, want)
		}
	}
	res, _ := sr.Search(context.Background(), search.Request{Query: "quoxilated"})
	if len(res.Results) == 0 || res.Results[0].Author != "Paul Otlet" || res.Results[0].Pages != 12 ||
		res.Results[0].Summariser != "pdf" || res.Results[0].Type != "pdf" {
		t.Errorf("pdf result: %+v", res.Results)
	}
	res, _ = sr.Search(context.Background(), search.Request{Query: "copyright release"})
	if len(res.Results) == 0 || res.Results[0].Type != "pdf" { // served as application/octet-stream
		t.Errorf("pdf result: %+v", res.Results)
	}
	// Hostile documents are fetched pages with their problem recorded.
	for path, want := range map[string]string{"/broken.pdf": "unreadable", "/bomb.gz": "bomb", "/zipbomb.zip": "bomb"} {
		var problems string
		dbtest.Scan(t, st.ReadDB().QueryRow(`SELECT coalesce(problems, '') FROM pages WHERE url = ?`, u(path)), &problems)
		if p := pageOf(t, st, u(path)); p.state != store.StateFetched || !strings.Contains(problems, want) {
			t.Errorf("%s: %s, problems %q, want %s", path, p.state, problems, want)
		}
	}
}

// A crawl that does not list a type does not download it: links to it are recorded.
func TestCrawlTypesOff(t *testing.T) {
	w := docWeb(t)
	st := openStore(t)
	run(t, st, Config{Seeds: []string{w.URL + "/"}, Scope: ScopeSite, Types: []string{"txt"}})
	for _, path := range []string{"/paper.pdf", "/bundle.zip", "/feed.xml"} {
		if p := pageOf(t, st, w.URL+path); p.state != store.StateSkipped || p.reason != ReasonType {
			t.Errorf("%s: %+v", path, p)
		}
	}
	// A PDF behind a URL that looks like a page is downloaded, and dropped by its content.
	if p := pageOf(t, st, w.URL+"/download?id=7"); p.state != store.StateSkipped || p.reason != ReasonType {
		t.Errorf("download: %+v", p)
	}
	if p := pageOf(t, st, w.URL+"/notes.txt"); p.state != store.StateFetched {
		t.Errorf("txt: %+v", p)
	}
}
