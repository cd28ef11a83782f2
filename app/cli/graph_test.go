package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mundaneum/app"
	"mundaneum/backend/graph"
)

// chain serves / -> /a -> /b -> /c, / -> /x (x only through /), and /b -> /private/.
func chain(t *testing.T) *httptest.Server {
	t.Helper()
	links := map[string]string{
		"/":           `<a href="/a">first step</a> <a href="/x">aside</a>`,
		"/a":          `<a href="/b">second step</a>`,
		"/b":          `<a href="/c">third step</a> <a href="/private/">private</a>`,
		"/c":          `the end`,
		"/x":          `aside`,
		"/private/":   `secret`,
		"/robots.txt": "",
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := links[r.URL.Path]
		if !ok || r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, "<title>Page %s</title>%s", r.URL.Path, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestRulesCheck(t *testing.T) {
	code, out, _ := run(t, "rules", "check", "{NOT {AND +url:*.mit.edu/* -url:*.mit.edu/personnal/* {OR -body:*badword* +head:*goodcontext*}}}")
	if code != ExitOK || strings.TrimSpace(out) != "{NOT {AND +url:*.mit.edu/* -url:*.mit.edu/personnal/* {OR -body:*badword* +head:*goodcontext*}}}" {
		t.Fatalf("check: %d %q", code, out)
	}
	code, _, errOut := run(t, "rules", "check", "{AND +url:*.mit.edu/* {OR -body:")
	if code == ExitOK || !strings.Contains(errOut, "1:33:") || !strings.Contains(errOut, "^") {
		t.Fatalf("bad rule: %d %q", code, errOut)
	}
	code, out, errOut = run(t, "rules", "check", "--json", "+url:a\n  -bdy:x")
	var res app.RulesCheck
	if code == ExitOK || errOut != "" || json.Unmarshal([]byte(out), &res) != nil || res.OK || res.Error.Line != 2 || res.Error.Column != 4 {
		t.Fatalf("bad rule, json: %d %q %q", code, out, errOut)
	}
	file := filepath.Join(t.TempDir(), "rules.txt")
	os.WriteFile(file, []byte("# mine\n+url:*.org/*   -path:*/tmp/*\n"), 0o644)
	code, out, _ = run(t, "rules", "check", "@"+file)
	if code != ExitOK || out != "+url:*.org/*\n-path:*/tmp/*\n" {
		t.Fatalf("from a file: %d %q", code, out)
	}
}

func TestGraphVerbs(t *testing.T) {
	srv := chain(t)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	code, _, errOut := run(t, "crawl", "--db", db, "--delay", "0", "--rules", "-path:/private/*", srv.URL+"/")
	if code != ExitOK {
		t.Fatalf("crawl: %d %s", code, errOut)
	}
	code, out, errOut := run(t, "path", "--db", db, "--json", srv.URL+"/", srv.URL+"/c")
	var p graph.PathResult
	if code != ExitOK || json.Unmarshal([]byte(out), &p) != nil {
		t.Fatalf("path: %d %s %s", code, out, errOut)
	}
	if !p.Found || p.Length != 3 || p.Shortest != 1 || len(p.Path) != 4 || p.Path[3].Anchor != "third step" {
		t.Fatalf("path: %+v", p)
	}
	code, out, _ = run(t, "path", "--db", db, srv.URL+"/c", srv.URL+"/")
	if code != ExitOK || !strings.Contains(out, "no path of links") {
		t.Fatalf("no path: %d %q", code, out)
	}
	code, out, _ = run(t, "path", "--db", db, "--undirected", srv.URL+"/c", srv.URL+"/x")
	if code != ExitOK || !strings.HasPrefix(out, "4 degrees of separation") {
		t.Fatalf("separation: %d %q", code, out)
	}
	code, _, errOut = run(t, "path", "--db", db, srv.URL+"/", "http://nowhere.example/")
	if code == ExitOK || !strings.Contains(errOut, "not in the workspace") {
		t.Fatalf("unknown page: %d %q", code, errOut)
	}

	code, out, _ = run(t, "links", "--db", db, "--json", srv.URL+"/b")
	var l app.PageRelations
	if code != ExitOK || json.Unmarshal([]byte(out), &l) != nil {
		t.Fatalf("links: %d %s", code, out)
	}
	if l.Links.OutTotal != 2 || l.Links.InTotal != 1 || l.Links.In[0].Anchor != "second step" || l.ClickDepth.Depth != 2 ||
		len(l.Elements) != 1 || l.Elements[0].Family != "01.01.01" {
		t.Fatalf("links: %+v", l)
	}

	code, out, _ = run(t, "tree", "--db", db, "--leaves")
	if code != ExitOK || !strings.Contains(out, "[01.01.01.02]") || !strings.Contains(out, "rejected") {
		t.Fatalf("tree: %d\n%s", code, out)
	}
	code, out, _ = run(t, "tree", "--db", db, "--json", "--rules", "-path:/b", srv.URL+"/")
	var tr graph.Tree
	if code != ExitOK || json.Unmarshal([]byte(out), &tr) != nil || len(tr.Elements) != 4 {
		t.Fatalf("tree --rules: %d %s", code, out)
	}

	code, out, _ = run(t, "rules", "test", "--db", db, "--json", "--", "-body:*end*", srv.URL+"/c", srv.URL+"/nowhere")
	var tests []app.RulesTest
	if code != ExitOK || json.Unmarshal([]byte(out), &tests) != nil || len(tests) != 2 {
		t.Fatalf("rules test: %d %s", code, out)
	}
	if !tests[0].Stored || tests[0].Value != "rejected" || tests[0].Atom != "-body:*end*" || tests[1].Value != "untested" {
		t.Fatalf("rules test: %+v", tests)
	}
	// A LOCAL block holds below the page its selector matches: /c is reached through /a.
	local := "+url:*\n{LOCAL url:*/a -url:*/c}"
	code, out, _ = run(t, "rules", "test", "--db", db, "--json", "--", local, srv.URL+"/c", "http://elsewhere.example/c")
	tests = nil
	if code != ExitOK || json.Unmarshal([]byte(out), &tests) != nil || len(tests) != 2 {
		t.Fatalf("rules test with LOCAL: %d %s", code, out)
	}
	if c := tests[0]; c.Value != "rejected" || c.Atom != "-url:*/c" || c.Element == "" || len(c.Locals) != 1 ||
		!c.Locals[0].Active || c.Locals[0].Through != srv.URL+"/a" || len(c.Elements) != 1 || c.Elements[0].Locals[0] != 0 {
		t.Fatalf("rules test with LOCAL, crawled page: %s", out)
	}
	if c := tests[1]; c.Value != "next" || c.Element != "" || c.Locals[0].Active ||
		c.Locals[0].IfActive.Value != "rejected" {
		t.Fatalf("rules test with LOCAL, a URL never crawled: %s", out)
	}
	code, out, _ = run(t, "rules", "test", "--db", db, "--", local, "http://elsewhere.example/c")
	if code != ExitOK || !strings.Contains(out, "LOCAL url:*/a (2:1) could apply: reached through a page it matches, rejected") {
		t.Fatalf("rules test with LOCAL, text: %d %s", code, out)
	}
	code, _, errOut = run(t, "rules", "check", "-url:*x*")
	if code != ExitUsage || !strings.Contains(errOut, "after --") {
		t.Fatalf("a rule that looks like a flag: %d %s", code, errOut)
	}
	code, out, _ = run(t, "orphans", "--db", db, "--json")
	if code != ExitOK || !strings.Contains(out, `"total": 0`) {
		t.Fatalf("orphans: %d %s", code, out)
	}
	code, _, errOut = run(t, "crawl", "--db", db, "--rules", "{OR +url:a", srv.URL+"/")
	if code != ExitUsage || !strings.Contains(errOut, "1:11") {
		t.Fatalf("crawl with bad rules: %d %s", code, errOut)
	}
}
