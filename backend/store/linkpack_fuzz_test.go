package store

import (
	"database/sql"
	"strings"
	"testing"
)

// FuzzPack: a pack of any kind, anchor and rel text reads back as written (invalid UTF-8
// as U+FFFD), as SQLite's JSON functions read it too; and parsePack never panics on any
// input, whatever it is.
func FuzzPack(f *testing.F) {
	f.Add(int64(7), "a", "Home", "", int64(1), `[[1,"a","x","",2]]`)
	f.Add(int64(1)<<40, "img", "quote \" back\\ \x01\x7f \xff é 😀", "nofollow", int64(-3), `[[1,"a","\ud83d\ude00 \ud800","",0]]`)
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		f.Fatal(err)
	}
	defer db.Close()
	f.Fuzz(func(t *testing.T, to int64, kind, anchor, rel string, pos int64, raw string) {
		parsePack(raw, 1, nil) // any input: an error or links, never a panic
		var p linkPack
		p.add(to, &Target{Kind: kind, Anchor: anchor, Rel: rel, Pos: int(pos)})
		p.add(to, &Target{Kind: kind, Anchor: "again", Pos: 2}) // the same target and kind: kept once
		p.add(to+1, &Target{Kind: kind, Anchor: anchor + "2", Rel: rel, Pos: int(pos)})
		js := p.json()
		ls, err := parsePack(js, 9, nil)
		if err != nil {
			t.Fatalf("parse %q: %v", js, err)
		}
		valid := func(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }
		want := []packedLink{{9, to, valid(kind), valid(anchor), valid(rel), int64(int(pos))},
			{9, to + 1, valid(kind), valid(anchor + "2"), valid(rel), int64(int(pos))}}
		if len(ls) != 2 || ls[0] != want[0] || ls[1] != want[1] {
			t.Fatalf("pack %q read back as %+v, want %+v", js, ls, want)
		}
		// SQLite reads the same pack alike (the view that readers see it through).
		var sqlTo int64
		var sqlKind, sqlAnchor, sqlRel string
		if err := db.QueryRow(`SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(?) LIMIT 1`, js).
			Scan(&sqlTo, &sqlKind, &sqlAnchor, &sqlRel); err != nil {
			t.Fatalf("sqlite reads %q: %v", js, err)
		}
		if sqlTo != to || sqlKind != want[0].kind || sqlAnchor != want[0].anchor || sqlRel != want[0].rel {
			t.Fatalf("sqlite reads %q as %d %q %q %q", js, sqlTo, sqlKind, sqlAnchor, sqlRel)
		}
	})
}
