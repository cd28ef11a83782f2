package index

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// TestBenchHold: a measurement build's held stage writes nothing while nobody waits, and
// catches up when the crawl's end waits for it (else the crawl-floor script would hang).
func TestBenchHold(t *testing.T) {
	benchHold = "1"
	t.Cleanup(func() { benchHold = "" })
	f := newFixture(t)
	f.visit(page{url: "http://a.test/", title: "Held", body: "a card index",
		links: []link{{to: "http://a.test/about", anchor: "about"}}},
		page{url: "http://a.test/about", title: "About", body: "otlet"})
	if err := f.st.Writer().Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if p := f.idx.Progress(context.Background()); p.Indexed != 0 {
		t.Fatalf("held stage indexed %d rows before anyone waited", p.Indexed)
	}
	f.wait()
	if got := f.match("card"); !reflect.DeepEqual(got, []string{"/"}) {
		t.Errorf("after the wait: MATCH card = %v", got)
	}
	if p := f.idx.Progress(context.Background()); !p.Current() || p.Indexed != 2 {
		t.Errorf("after the wait: progress = %+v", p)
	}
}

// TestBenchNoPrefix: a measurement build's page_fts has no prefix index, in a format of its
// own that a shipped build rebuilds; prefix queries still answer (from the terms).
func TestBenchNoPrefix(t *testing.T) {
	benchNoPrefix = "1"
	t.Cleanup(func() { benchNoPrefix = "" })
	f := newFixture(t)
	f.visit(page{url: "http://a.test/", title: "Cards", body: "a card index"})
	f.wait()
	var sql string
	var ver int
	if err := f.idx.db.QueryRow(`SELECT sql FROM sqlite_master WHERE name = 'page_fts'`).Scan(&sql); err != nil {
		t.Fatal(err)
	}
	if err := f.idx.db.QueryRow(`PRAGMA user_version`).Scan(&ver); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sql, "prefix") || ver != schemaVersion+1000 {
		t.Fatalf("format %d, page_fts %s", ver, sql)
	}
	if got := f.match("ca*"); !reflect.DeepEqual(got, []string{"/"}) {
		t.Errorf("MATCH ca* = %v", got)
	}
	benchNoPrefix = ""
	f.reopen()
	f.wait()
	if err := f.idx.db.QueryRow(`SELECT sql FROM sqlite_master WHERE name = 'page_fts'`).Scan(&sql); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sql, "prefix") {
		t.Errorf("a shipped build kept the measurement's index: %s", sql)
	}
}
