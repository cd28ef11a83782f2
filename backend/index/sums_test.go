package index

import (
	"os"
	"testing"

	"mundaneum/backend/store/dbtest"
)

// origin is the FTS5 origin of a page's row (contentless_delete tables give every row
// written a new one): it changes exactly when the row is written again.
func (f *fixture) origin(url string) int64 {
	f.t.Helper()
	var o int64
	dbtest.Scan(f.t, f.idx.SearchDB().QueryRow(`SELECT d.origin FROM page_fts_docsize d JOIN pages p ON p.id = d.id WHERE p.url = ?`,
		target(f.t, url).URL), &o)
	return o
}

// TestSameRowNotWrittenAgain checks that a page noted again whose row would hold the same
// text keeps its row (no new FTS5 write, its body not tokenised again): a new link whose
// anchor text the row has, a fetch that brings the same page; and that a new anchor text
// or a changed page is written.
func TestSameRowNotWrittenAgain(t *testing.T) {
	f := newFixture(t)
	f.visit(page{url: "http://a.test/", title: "Home", body: "start"},
		page{url: "http://a.test/b", title: "B", body: "bee", links: []link{{to: "http://a.test/", anchor: "homepage"}}})
	f.wait()
	if got := f.match("anchors:homepage"); len(got) != 1 || got[0] != "/" {
		t.Fatalf("anchors:homepage = %v", got)
	}
	before := f.origin("http://a.test/")

	// A link from a new page with the same anchor text: / is noted, its row stays.
	f.visit(page{url: "http://a.test/c", title: "C", body: "sea", links: []link{{to: "http://a.test/", anchor: "homepage"}}})
	f.wait()
	if got := f.origin("http://a.test/"); got != before {
		t.Fatalf("the row of / was written again (origin %d -> %d) for anchor text it had", before, got)
	}
	if got := f.match("sea"); len(got) != 1 || got[0] != "/c" {
		t.Fatalf("sea = %v", got)
	}

	// The same page fetched again, unchanged.
	f.visit(page{url: "http://a.test/", title: "Home", body: "start"})
	f.wait()
	if got := f.origin("http://a.test/"); got != before {
		t.Fatalf("the row of / was written again (origin %d -> %d) for the same page", before, got)
	}

	// New anchor text: written, and found.
	f.visit(page{url: "http://a.test/d", title: "D", body: "dee", links: []link{{to: "http://a.test/", anchor: "frontdoor"}}})
	f.wait()
	after := f.origin("http://a.test/")
	if after == before {
		t.Fatalf("the row of / was not written for its new anchor text")
	}
	if got := f.match("anchors:frontdoor AND start"); len(got) != 1 || got[0] != "/" {
		t.Fatalf("anchors:frontdoor AND start = %v", got)
	}

	// The page changed: written.
	f.visit(page{url: "http://a.test/", title: "Home", body: "started over"})
	f.wait()
	if f.origin("http://a.test/") == after {
		t.Fatalf("the row of / was not written for its new text")
	}
	if got := f.match("over AND anchors:homepage"); len(got) != 1 || got[0] != "/" {
		t.Fatalf("over AND anchors:homepage = %v", got)
	}
	checkIndexIntegrity(t, f)

	// The rows are what a rebuild makes of the workspace.
	inc := snapshot(t, f.path)
	f.close()
	for _, x := range []string{"", "-wal", "-shm"} {
		os.Remove(Path(f.path) + x)
	}
	f.open()
	f.wait()
	sameSnapshots(t, "incremental vs rebuilt", inc, snapshot(t, f.path))
}
