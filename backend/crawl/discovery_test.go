package crawl

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"mundaneum/backend/extract"
	"mundaneum/backend/search"
	"mundaneum/backend/store"
	"mundaneum/backend/store/dbtest"
)

// rel=canonical, in the HTML and in a Link header: the copies record their canonical URL,
// and search shows the article once (issue 18: a print version and a tracking-parameter copy
// were separate results).
func TestCanonicalCopiesCollapse(t *testing.T) {
	article := func(extra string) string {
		return page("Paul Otlet and the Mundaneum", extra+`The universal bibliographic repertory of the Mundaneum held cards. <a href="/">home</a>`)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, page("Home", `<a href="/print/article">print</a> <a href="/article?utm_source=feed">from the feed</a>`))
	})
	mux.HandleFunc("/article", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.RawQuery != "" {
			w.Header().Set("Link", `</article>; rel="canonical"`)
			fmt.Fprint(w, article("Shared from a feed. "))
			return
		}
		fmt.Fprint(w, `<link rel="canonical" href="/article">`+article(""))
	})
	mux.HandleFunc("/print/article", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<link rel="canonical" href="/article">`+article("Printer friendly. "))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	st := openStore(t)
	run(t, st, Config{Seeds: []string{srv.URL + "/"}, Scope: ScopeSite})

	// The canonical page was followed though only the copies link to it (through their
	// canonical link), and each copy records it.
	if got := pageOf(t, st, srv.URL+"/article"); got.state != store.StateFetched {
		t.Fatalf("the canonical page: %+v", got)
	}
	for _, copyURL := range []string{srv.URL + "/print/article", srv.URL + "/article?utm_source=feed"} {
		var canonical string
		var of int64
		dbtest.Scan(t, st.ReadDB().QueryRow(`SELECT coalesce(p.canonical, ''), coalesce(c.of_id, 0) FROM pages p LEFT JOIN canonicals c ON c.page_id = p.id
			WHERE p.url = ?`, copyURL), &canonical, &of)
		if canonical != srv.URL+"/article" || of == 0 {
			t.Errorf("%s: canonical %q (page %d)", copyURL, canonical, of)
		}
	}
	var self int
	dbtest.Scan(t, st.ReadDB().QueryRow(`SELECT count(*) FROM canonicals c JOIN pages p ON p.id = c.page_id WHERE p.url = ?`, srv.URL+"/article"), &self)
	if self != 0 {
		t.Error("the canonical page is recorded as a copy of itself")
	}

	res, err := search.New(st.idx.SearchDB()).Search(context.Background(), search.Request{Query: "bibliographic repertory"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 1 || res.Total != 1 || res.Results[0].URL != srv.URL+"/article" || res.Results[0].Alternates != 2 {
		var urls []string
		for _, r := range res.Results {
			urls = append(urls, fmt.Sprintf("%s (%d alternates)", r.URL, r.Alternates))
		}
		t.Errorf("search found %d (total %d): %v; want the article once, with its 2 copies", len(res.Results), res.Total, urls)
	}
}

// A long page is indexed whole under the default limit; one over --max-body is cut there,
// its beginning indexed, and the cut recorded as a problem (issue 18: a 3 MB page's last
// words were not found, and nothing said why).
func TestLongPages(t *testing.T) {
	long := func(words int, last string) string {
		var b strings.Builder
		b.WriteString("<title>Long</title><p>")
		for b.Len() < words {
			b.WriteString("ordinary words of a long and legitimate document ")
		}
		return b.String() + last + "</p>"
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, page("Home", `<a href="/three-mb">3 MB</a>`))
	})
	mux.HandleFunc("/three-mb", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, long(3<<20, "zanzibar epilogue")) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	st := openStore(t)
	run(t, st, Config{Seeds: []string{srv.URL + "/"}, Scope: ScopeSite})
	if n := matches(t, st, "zanzibar"); n != 1 {
		t.Errorf("the last words of a 3 MB page: %d matches", n)
	}
	if p, _ := st.Page(context.Background(), pageID(t, st.Store, srv.URL+"/three-mb")); len(p.Problems) != 0 {
		t.Errorf("a 3 MB page has problems %q", p.Problems)
	}

	st2 := openStore(t)
	run(t, st2, Config{Seeds: []string{srv.URL + "/"}, Scope: ScopeSite, MaxBody: 64 << 10})
	p, _ := st2.Page(context.Background(), pageID(t, st2.Store, srv.URL+"/three-mb"))
	if p.State != store.StateFetched || p.Problems[len(p.Problems)-1] != extract.ProblemTruncated {
		t.Errorf("over --max-body: state %s, problems %q", p.State, p.Problems)
	}
	if matches(t, st2, "ordinary") != 1 || matches(t, st2, "zanzibar") != 0 {
		t.Error("the beginning of a cut page is not indexed, or its end is")
	}
}

func pageID(t *testing.T, st *store.Store, url string) int64 {
	t.Helper()
	id, err := st.PageID(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// --sitemaps seeds the crawl from the sitemaps robots.txt names (a sitemap index, a gzip
// sitemap, a plain one), and from /sitemap.xml when robots.txt names none.
func TestSitemaps(t *testing.T) {
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	fmt.Fprint(z, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>BASE/orphan/1</loc></url>
		<url><loc>http://elsewhere.example/x</loc></url></urlset>`)
	z.Close()
	mux := http.NewServeMux()
	var base string
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nDisallow: /private\nSitemap: %s/index.xml\n", base)
	})
	mux.HandleFunc("/index.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<?xml version="1.0"?><sitemapindex><sitemap><loc>%[1]s/one.xml.gz</loc></sitemap>
			<sitemap><loc>%[1]s/two.xml</loc></sitemap></sitemapindex>`, base)
	})
	mux.HandleFunc("/one.xml.gz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/gzip")
		w.Write(gzipped(strings.ReplaceAll(ungz(gz.Bytes()), "BASE", base)))
	})
	mux.HandleFunc("/two.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<urlset><url><loc>%[1]s/orphan/2</loc></url><url><loc>%[1]s/private/3</loc></url></urlset>`, base)
	})
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, page("Home", "no links")) })
	mux.HandleFunc("/orphan/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, page("Orphan "+r.URL.Path, "found by sitemap only"))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	base = srv.URL

	st := openStore(t)
	run(t, st, Config{Seeds: []string{srv.URL + "/"}, Scope: ScopeSite})
	if _, err := st.PageID(context.Background(), srv.URL+"/orphan/1"); err == nil {
		t.Fatal("without --sitemaps the sitemaps were read")
	}
	p := run(t, st, Config{Seeds: []string{srv.URL + "/"}, Scope: ScopeSite, Sitemaps: true})
	for _, path := range []string{"/orphan/1", "/orphan/2"} {
		if got := pageOf(t, st, srv.URL+path); got.state != store.StateFetched {
			t.Errorf("%s: %+v", path, got)
		}
	}
	if got := pageOf(t, st, srv.URL+"/private/3"); got.reason != ReasonRobots {
		t.Errorf("a sitemap's URL disallowed by robots.txt: %+v", got)
	}
	if got := pageOf(t, st, "http://elsewhere.example/x"); got.reason != ReasonScope {
		t.Errorf("a sitemap's URL out of scope: %+v", got)
	}
	if n := matches(t, st, "sitemapindex OR urlset OR orphan"); n != 2 {
		t.Errorf("%d index rows match: the sitemaps themselves were indexed, or the orphans were not", n)
	}
	if p.Pages[store.StateFailed] != 0 {
		t.Errorf("%d failed pages", p.Pages[store.StateFailed])
	}

	// Without a Sitemap line, /sitemap.xml.
	mux2 := http.NewServeMux()
	mux2.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "http://"+r.Host+"/orphan/9\n")
	})
	mux2.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, page("x", "y")) })
	srv2 := httptest.NewServer(mux2)
	defer srv2.Close()
	run(t, st, Config{Seeds: []string{srv2.URL + "/"}, Scope: ScopeSite, Sitemaps: true})
	if got := pageOf(t, st, srv2.URL+"/orphan/9"); got.state != store.StateFetched {
		t.Errorf("/sitemap.xml was not read: %+v", got)
	}
}

func gzipped(s string) []byte {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte(s))
	z.Close()
	return b.Bytes()
}

func ungz(b []byte) string {
	z, _ := gzip.NewReader(bytes.NewReader(b))
	var out bytes.Buffer
	out.ReadFrom(z)
	return out.String()
}
