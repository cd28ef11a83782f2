package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mundaneum/backend/store"
)

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, &out, &errb, func(string) error { return fmt.Errorf("no desktop in tests") })
	return code, out.String(), errb.String()
}

func site(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<title>Otlet's index</title><p>Universal Decimal Classification</p><a href="/cards">the cards</a> <a href="/gone">gone</a>`)
		case "/cards":
			fmt.Fprint(w, "<title>Cards \x1b[2J wiped \x1b]0;pwned\x07</title><p>twelve million index cards</p>")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestCrawlSearchStatusJSON(t *testing.T) {
	srv := site(t)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	code, out, errOut := run(t, "crawl", "--db", db, "--json", "--delay", "0", srv.URL+"/")
	if code != ExitOK {
		t.Fatalf("crawl exit %d: %s", code, errOut)
	}
	var sum crawlSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("crawl --json: %v\n%s", err, out)
	}
	if sum.State != store.CrawlDone || sum.Fetched != 2 || sum.Failed != 1 {
		t.Fatalf("summary = %+v", sum)
	}

	code, out, _ = run(t, "search", "--db", db, "--json", "index", "cards")
	if code != ExitOK {
		t.Fatalf("search exit %d", code)
	}
	var res searchJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 || res.Results[0].Score != 1000 || res.Results[0].URL == "" || res.Results[0].Title == "" {
		t.Fatalf("search = %+v", res)
	}

	code, out, _ = run(t, "status", "--db", db, "--json")
	if code != ExitOK {
		t.Fatalf("status exit %d", code)
	}
	var st struct {
		Pages map[string]int64 `json:"pages"`
		Hosts int64            `json:"hosts"`
		Links int64            `json:"links"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if st.Pages["fetched"] != 2 || st.Pages["failed"] != 1 || st.Pages["queued"] != 0 || st.Hosts != 1 || st.Links != 2 {
		t.Fatalf("status = %+v", st)
	}
	for _, k := range []string{"fetched", "queued", "failed", "skipped"} {
		if _, ok := st.Pages[k]; !ok {
			t.Errorf("status pages lacks %q", k)
		}
	}
}

func TestHumanOutputIsCleanText(t *testing.T) {
	srv := site(t)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	if code, _, errOut := run(t, "crawl", "--db", db, "--delay", "0", srv.URL+"/"); code != ExitOK {
		t.Fatalf("crawl: %s", errOut)
	}
	code, out, _ := run(t, "search", "--db", db, "wiped")
	if code != ExitOK {
		t.Fatal(code)
	}
	if strings.Contains(out, "\x1b") {
		t.Fatalf("terminal escape from a crawled title reached the output: %q", out)
	}
	if !strings.Contains(out, "1000") || !strings.Contains(out, "Cards") {
		t.Fatalf("search output = %q", out)
	}
}

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	notDB := filepath.Join(dir, "notes.txt")
	os.WriteFile(notDB, []byte("just some notes, not a database"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"no args to crawl", []string{"crawl", "--db", filepath.Join(dir, "a")}, ExitUsage},
		{"unknown flag", []string{"crawl", "--nope", "http://x.test/"}, ExitUsage},
		{"unknown command", []string{"frobnicate"}, ExitUsage},
		{"bad scope", []string{"crawl", "--db", filepath.Join(dir, "b"), "--scope", "galaxy", "http://x.test/"}, ExitUsage},
		{"bad seed", []string{"crawl", "--db", filepath.Join(dir, "c"), "ftp://x.test/"}, ExitUsage},
		{"not a workspace", []string{"status", "--db", notDB}, ExitNotWorkspace},
		{"not a workspace crawl", []string{"crawl", "--db", notDB, "http://x.test/"}, ExitNotWorkspace},
		{"unreachable", []string{"crawl", "--db", filepath.Join(dir, "d"), "http://127.0.0.1:1/"}, ExitUnreachable},
	} {
		if code, _, errOut := run(t, tc.args...); code != tc.want {
			t.Errorf("%s: exit %d, want %d (%s)", tc.name, code, tc.want, errOut)
		}
	}
	// A workspace held by a writer refuses a second writer but not readers.
	db := filepath.Join(dir, "held.mundaneum")
	st, err := store.Open(t.Context(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if code, _, _ := run(t, "crawl", "--db", db, "http://127.0.0.1:1/"); code != ExitLocked {
		t.Errorf("locked workspace: exit %d, want %d", code, ExitLocked)
	}
	if code, _, errOut := run(t, "status", "--db", db); code != ExitOK {
		t.Errorf("status beside a writer: exit %d (%s)", code, errOut)
	}
}
