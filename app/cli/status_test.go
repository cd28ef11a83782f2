package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStatusAfterImport: a crawl an import made has no seeds; status names where it came from
// (it once indexed the first seed and panicked on every workspace holding an import).
func TestStatusAfterImport(t *testing.T) {
	dir := t.TempDir()
	body := "<html><head><title>Imported page</title></head><body><p>warcimportword here.</p></body></html>"
	http := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	rec := fmt.Sprintf("WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:0b5c3a2e-0000-4000-8000-000000000001>\r\n"+
		"WARC-Date: 2024-01-02T03:04:05Z\r\nWARC-Target-URI: http://imported.example/page\r\n"+
		"Content-Type: application/http;msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", len(http), http)
	file := filepath.Join(dir, "one.warc")
	if err := os.WriteFile(file, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "w.mundaneum")
	if code, _, errOut := run(t, "import", "--db", db, file); code != ExitOK {
		t.Fatalf("import: %d %s", code, errOut)
	}
	soif := filepath.Join(dir, "harvest.soif")
	if err := os.WriteFile(soif, []byte("@FILE { http://harvest.example/node99.html\ntitle{23}:\tAbout this document ...\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(t, "import", "--db", db, soif); code != ExitOK {
		t.Fatalf("import soif: %d %s", code, errOut)
	}
	code, out, errOut := run(t, "status", "--db", db)
	if code != ExitOK {
		t.Fatalf("status: %d %q %q", code, out, errOut)
	}
	if !strings.Contains(out, "import warc file one.warc") {
		t.Errorf("status does not say where the imported crawl came from:\n%s", out)
	}
	if !strings.Contains(out, "harvest.soif") {
		t.Errorf("status does not name the imported SOIF file:\n%s", out)
	}
}
