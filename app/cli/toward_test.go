package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCrawlToward runs a query-directed crawl from the CLI: --json lists the crawl's pages
// that match the query, ranked; the text output lists them too; the same seeds toward
// another query are another crawl.
func TestCrawlToward(t *testing.T) {
	srv := site(t)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	code, out, errOut := run(t, "crawl", "--db", db, "--json", "--delay", "0", "--toward", "index cards", srv.URL+"/")
	if code != ExitOK {
		t.Fatalf("crawl --toward exit %d: %s", code, errOut)
	}
	var sum crawlSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("crawl --toward --json: %v\n%s", err, out)
	}
	if len(sum.Matches) == 0 || !strings.HasSuffix(sum.Matches[0].URL, "/cards") {
		t.Fatalf("matches = %+v, want /cards first", sum.Matches)
	}
	code, out, errOut = run(t, "crawl", "--db", db, "--delay", "0", "--toward", "universal classification", srv.URL+"/")
	if code != ExitOK {
		t.Fatalf("crawl --toward exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "crawl 2 ") || !strings.Contains(out, "match the query") || !strings.Contains(errOut, `toward "universal classification"`) {
		t.Fatalf("another query should be another crawl, listing its matches:\n%s\n%s", out, errOut)
	}
}
