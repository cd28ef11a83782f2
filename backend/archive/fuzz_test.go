package archive

import (
	"bytes"
	"context"
	"os"
	"testing"
)

// FuzzImportWARC feeds arbitrary bytes to the WARC import: it must end with a report or an
// error, never a crash or a hang, and never leave a fetched page without its content.
func FuzzImportWARC(f *testing.F) {
	if data, err := os.ReadFile("testdata/wget.warc.gz"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("WARC/1.1\r\nWARC-Type: response\r\nWARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: http://a.example/\r\n" +
		"Content-Type: application/http; msgtype=response\r\nContent-Length: 60\r\n\r\n" +
		"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<title>t</title>hi\r\n\r\n"))
	f.Add([]byte("WARC/1.0\r\nWARC-Type: revisit\r\nWARC-Date: 2026-01-01\r\nWARC-Target-URI: <http://a.example/x>\r\n" +
		"WARC-Profile: server-not-modified\r\nContent-Length: 0\r\n\r\n\r\n\r\n"))
	st := openStore(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, _ := importWARC(context.Background(), st, bytes.NewReader(data), ImportOptions{Name: "fuzz"})
		if len(rep.Problems) > maxProblems || rep.ProblemCount < len(rep.Problems) {
			t.Fatalf("problems %d listed of %d", len(rep.Problems), rep.ProblemCount)
		}
		var broken int
		if err := st.ReadDB().QueryRow(`SELECT count(*) FROM pages p WHERE p.state = 'fetched' AND p.hash IS NOT NULL
			AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.hash = p.hash)`).Scan(&broken); err != nil {
			t.Fatal(err)
		}
		if broken != 0 {
			t.Fatalf("%d page(s) without their content", broken)
		}
	})
}

// FuzzImportWWWW feeds arbitrary text to the WWWW import.
func FuzzImportWWWW(f *testing.F) {
	f.Add([]byte("T http://a.example/ Home\nR http://a.example/b http://a.example/ b\nI http://a.example/i.png http://a.example/ x\nC http://a.example/\n"))
	f.Add([]byte("R http://a.example/ http://a.example/ self\nT javascript:alert(1) x\nC\n"))
	st := openStore(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := importWWWW(context.Background(), st, bytes.NewReader(data), ImportOptions{Name: "fuzz"})
		if err == nil && rep.Records == 0 && rep.Pages != 0 {
			t.Fatalf("pages from no lines: %+v", rep)
		}
	})
}
