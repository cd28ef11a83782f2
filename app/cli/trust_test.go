package cli

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// `page` says in words what is wrong with a file that is not HTML: a gzip cut short is
// flagged, and no problem is shown with empty parentheses (issue 29, item 13).
func TestPageNamesFileProblems(t *testing.T) {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	fmt.Fprint(zw, strings.Repeat("the quagga and the okapi graze together ", 4000))
	zw.Close()
	cut := z.Bytes()[:z.Len()/2]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<title>Files</title><a href="/notes.txt.gz">notes</a> <a href="/broken.pdf">paper</a>`)
		case "/notes.txt.gz":
			w.Header().Set("Content-Type", "application/gzip")
			w.Write(cut)
		case "/broken.pdf":
			w.Header().Set("Content-Type", "application/pdf")
			fmt.Fprint(w, "%PDF-1.4\n1 0 obj << /Type /Catalog ")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	if code, _, errOut := run(t, "crawl", "--db", db, "--delay", "0", "--types", "all", srv.URL+"/"); code != ExitOK {
		t.Fatalf("crawl: %s", errOut)
	}
	for path, want := range map[string]string{"/notes.txt.gz": "incomplete (the file stops before its end",
		"/broken.pdf": "unreadable (the file is broken"} {
		code, out, errOut := run(t, "page", "--db", db, srv.URL+path)
		if code != ExitOK || !strings.Contains(out, want) || strings.Contains(out, "()") {
			t.Errorf("page %s (exit %d, %s): want %q in\n%s", path, code, errOut, want, out)
		}
	}
}
