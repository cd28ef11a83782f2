package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"mundaneum/backend/store"
)

func TestRulesAndGraphThroughBoundAPI(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<title>Home</title><a href="/a">to a</a> <a href="/tmp/x">temp</a>`)
		case "/a":
			fmt.Fprint(w, `<title>Café</title><p>about the card index</p>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{}, 1)
	a.startup(context.Background(), func(name string, _ any) {
		if name == EventCrawlDone {
			done <- struct{}{}
		}
	})
	defer a.shutdown()

	// Highlighting counts JavaScript indexes: "é" is one, "𝄞" two.
	chk, err := a.CheckRules("+title:é𝄞* -path:*/tmp/*")
	if err != nil || !chk.OK || chk.Canonical != "+title:é𝄞*\n-path:*/tmp/*" || chk.NeedsPage != true {
		t.Fatalf("check: %+v %v", chk, err)
	}
	if s := chk.Spans[3]; s.Kind != "glob" || s.From != 7 || s.To != 11 {
		t.Errorf("glob span %+v", s)
	}
	bad, err := a.CheckRules("{OR +url:a")
	if err != nil || bad.OK || bad.Error == nil || bad.Error.Line != 1 || bad.Error.Column != 11 {
		t.Fatalf("bad rules: %+v %v", bad, err)
	}

	c, err := a.StartCrawl(CrawlRequest{Seeds: []string{srv.URL + "/"}, DelayMs: 0, Rules: "-path:/tmp/*"})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("no crawl:done event")
	}
	if cs, _ := a.Crawls(); cs[0].Rules != "-path:/tmp/*" {
		t.Errorf("crawl's rules: %q", cs[0].Rules)
	}
	_, err = a.StartCrawl(CrawlRequest{Seeds: []string{srv.URL + "/x"}, Rules: "{OR"})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeInvalid {
		t.Errorf("bad rules in a crawl: %v", err)
	}

	// A crawled page is tested with what was read of it.
	rt, err := a.TestRules("+url:*/nothing -title:*café*", srv.URL+"/a")
	if err != nil || !rt.Stored || rt.Value != "rejected" || rt.Atom != "-title:*café*" || rt.From != 15 || rt.To != 28 {
		t.Fatalf("test: %+v %v", rt, err)
	}
	rt, err = a.TestRules("-title:*café*", "http://elsewhere.example/")
	if err != nil || rt.Stored || rt.Value != "untested" || rt.Potential != "next" {
		t.Fatalf("test a URL: %+v %v", rt, err)
	}
	// LOCAL blocks: /a was reached through the seed, so a block the seed's URL selects holds
	// for it (and says through which page); one on another selector says what it would do.
	rules := "+url:*\n{LOCAL url:" + srv.URL + "/ -title:café}\n{LOCAL host:elsewhere.* -url:*}"
	rt, err = a.TestRules(rules, srv.URL+"/a")
	if err != nil || rt.Value != "rejected" || rt.Atom != "-title:café" || rt.Element != "01.01" || len(rt.Elements) != 1 ||
		len(rt.Elements[0].Locals) != 1 || rt.Elements[0].Locals[0] != 0 {
		t.Fatalf("test with LOCAL: %+v %v", rt, err)
	}
	if l := rt.Locals; len(l) != 2 || !l[0].Active || l[0].Through != srv.URL+"/" || l[0].From != 7 ||
		l[0].To != utf8.RuneCountInString(rules[:strings.Index(rules, "}")+1]) || l[1].Active || l[1].IfActive.Value != "rejected" ||
		l[1].Selector != "host:elsewhere.*" {
		t.Fatalf("LOCAL blocks: %+v", rt.Locals)
	}
	rt, err = a.TestRules(rules, "http://elsewhere.example/a")
	if err != nil || rt.Element != "" || rt.Value != "next" || rt.Locals[0].Active || rt.Locals[0].IfActive.Value != "untested" {
		t.Fatalf("LOCAL blocks for a URL never crawled: %+v %v", rt, err)
	}

	v, err := a.GraphView(c.ID, 100)
	if err != nil || len(v.Nodes) != 2 || len(v.Edges) != 1 || v.Nodes[1].Parent != 0 {
		t.Fatalf("view: %+v %v", v, err)
	}
	p, err := a.GraphPath(v.Nodes[0].ID, v.Nodes[1].ID, false)
	if err != nil || !p.Found || p.Length != 1 || p.Path[1].Anchor != "to a" {
		t.Fatalf("path: %+v %v", p, err)
	}
	rel, err := a.GraphLinks(v.Nodes[1].ID, 10)
	if err != nil || rel.ClickDepth.Depth != 1 || len(rel.Elements) != 1 || rel.Links.InTotal != 1 {
		t.Fatalf("relations: %+v %v", rel, err)
	}
	tr, err := a.GraphTree(c.ID, "", 100)
	if err != nil || len(tr.Elements) != 3 || tr.Elements[2].Value != "rejected" {
		t.Fatalf("tree: %+v %v", tr, err)
	}
	if _, err := a.GraphPath(v.Nodes[0].ID, 999, false); !errors.As(err, &e) || e.Code != CodeNotFound {
		t.Errorf("path to nowhere: %v", err)
	}
}
