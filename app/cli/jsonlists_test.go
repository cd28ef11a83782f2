package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"mundaneum/backend/store"
)

// emptyWorkspaceVerbs are the arguments each verb runs with after --db and --json, on an
// empty workspace and on one that holds two pages ({a} links to {b}, which links nowhere);
// every runnable command of the tree is named here (a new verb fails the test until it
// is), nil for the few that cannot run in a test without a window, a browser or a server of
// their own (they are tested elsewhere).
var emptyWorkspaceVerbs = map[string][]string{
	"avoid":                   {"ls"},
	"browsers":                {},
	"browsers unpair":         {"1"},
	"capture":                 nil, // a browser tab to capture
	"check":                   {"--all"},
	"crawl":                   nil, // a site to crawl: TestCrawlSearchStatusJSON
	"diff":                    {"{b}"},
	"export":                  nil, // writes an archive, not JSON
	"history":                 {"{b}"},
	"import":                  nil, // reads an archive: archive_test.go
	"library":                 {},
	"library accept-redirect": {"/nothing"},
	"library add":             {"http://example.invalid/a", "--to", "/"},
	"library cp":              {"/nothing", "/"},
	"library crawl":           nil, // crawls the web
	"library edit":            {"/nothing", "--title", "t"},
	"library export":          nil, // writes a file format, not JSON
	"library import":          nil, // reads a file: library_test.go
	"library ls":              {},
	"library mkdir":           {"/shelf"},
	"library mv":              {"/nothing", "/"},
	"library redo":            {},
	"library report":          {"nothing"},
	"library rm":              {"/nothing"},
	"library search":          {"otlet"},
	"library show":            {"/"},
	"library tags":            {},
	"library undo":            {},
	"library view":            {"nothing"},
	"links":                   {"{b}"},
	"orphans":                 {},
	"page":                    {"{b}"},
	"pages":                   {},
	"path":                    {"{a}", "{b}"},
	"reindex":                 {},
	"report":                  {},
	"retention":               {},
	"rules check":             {"+url:*"},
	"rules test":              {"+url:*", "{b}"},
	"screenshot":              nil, // a browser
	"search":                  {"otlet"},
	"serve":                   nil, // a server: serve_test.go
	"sites":                   {"ls"},
	"source add":              nil, // another instance to add
	"source list":             {},
	"source pull":             {},
	"source remove":           {"1"},
	"status":                  {},
	"task":                    {"ls"},
	"token issue":             {"reader"},
	"token list":              {},
	"token revoke":            {"1"},
	"tree":                    {},
	"views":                   {"list"},
}

// TestJSONListsOnEmptyWorkspace runs every verb with --json on a new, empty workspace and
// on one of two pages: a list with nothing in it prints as [], never as null (a script or
// the frontend reading the output wants a list). A null is allowed only where an object may
// be absent.
func TestJSONListsOnEmptyWorkspace(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // no verb reaches a real home
	empty := filepath.Join(t.TempDir(), "empty.mundaneum")
	st, err := store.Open(context.Background(), empty, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<title>Otlet</title><p>the index</p><a href="/b">b</a>`)
		case "/b":
			fmt.Fprint(w, `<title>B</title><p>a page that links nowhere</p>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	small := filepath.Join(t.TempDir(), "small.mundaneum")
	if code, _, errOut := run(t, "crawl", "--db", small, "--delay", "0", srv.URL+"/"); code != ExitOK {
		t.Fatalf("crawl: exit %d: %s", code, errOut)
	}
	urls := strings.NewReplacer("{a}", srv.URL+"/", "{b}", srv.URL+"/b")

	var verbs []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Runnable() && c.HasParent() {
			verbs = append(verbs, strings.TrimPrefix(c.CommandPath(), "mundaneum "))
		}
		for _, s := range c.Commands() {
			if s.Name() != "help" && s.Name() != "completion" {
				walk(s)
			}
		}
	}
	walk(Command())
	for _, v := range verbs {
		if _, ok := emptyWorkspaceVerbs[v]; !ok {
			t.Errorf("verb %q is not in emptyWorkspaceVerbs: say what it runs with on an empty workspace", v)
		}
	}
	for verb, args := range emptyWorkspaceVerbs {
		if !slices.Contains(verbs, verb) {
			t.Errorf("emptyWorkspaceVerbs names %q, which is no verb", verb)
		}
		if args == nil {
			continue
		}
		for _, db := range []string{empty, small} {
			argv := append(strings.Fields(verb), "--db", db, "--json")
			for _, a := range args {
				argv = append(argv, urls.Replace(a))
			}
			code, out, errOut := run(t, argv...)
			if strings.TrimSpace(out) == "" {
				t.Logf("%s on %s: exit %d, no JSON (%s)", verb, filepath.Base(db), code, strings.TrimSpace(errOut))
				continue
			}
			var doc any
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Errorf("%s --json on %s: not JSON: %v\n%s", verb, filepath.Base(db), err, out)
				continue
			}
			for _, where := range nulls(doc, "") {
				if !nullableObject(where) {
					t.Errorf("%s --json on %s: null at %s (a list prints as [], an absent object is named in nullableObject)\n%s",
						verb, filepath.Base(db), where, out)
				}
			}
		}
	}
}

// nullableObject reports whether the null at where is an object that may be absent (a
// pointer field), not a list.
func nullableObject(where string) bool {
	key := where[strings.LastIndexByte(where, '.')+1:]
	return slices.Contains([]string{"error", "from", "known", "view", "health"}, key)
}

// nulls lists where doc holds a null, as dotted paths.
func nulls(doc any, at string) []string {
	switch d := doc.(type) {
	case nil:
		return []string{at}
	case map[string]any:
		var out []string
		for k, v := range d {
			out = append(out, nulls(v, at+"."+k)...)
		}
		return out
	case []any:
		var out []string
		for _, v := range d {
			out = append(out, nulls(v, at+"[]")...)
		}
		return out
	}
	return nil
}
