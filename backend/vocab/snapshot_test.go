package vocab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"mundaneum/backend/index"
	"mundaneum/backend/searchtest"
)

// prepared returns a vocabulary over db with its terms in memory, and waits until the file
// of its terms is written when it had to write one.
func prepared(t *testing.T, db DB) *Vocabulary {
	t.Helper()
	ctx := context.Background()
	v := New(db)
	v.Prepare(ctx)
	if _, err := v.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	for {
		v.mem.mu.Lock()
		done, err := !v.mem.saving && !v.mem.dirty, v.mem.saveErr
		v.mem.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		if done {
			return v
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// terms returns the vocabulary's terms in memory with their weights.
func terms(v *Vocabulary) map[string]uint32 {
	m := v.mem
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]uint32, len(m.terms)+len(m.added))
	for i, t := range m.terms {
		out[t] = m.weight[i]
	}
	for t, w := range m.added {
		out[t] = w
	}
	return out
}

// TestSnapshot checks that a vocabulary opened again takes its terms from the file the
// first one wrote, reads from the index only the segments written since, and ends with the
// terms a vocabulary reading the whole index finds; and that a file of another index is
// not used.
func TestSnapshot(t *testing.T) {
	w := searchtest.New(t)
	w.Add(searchtest.Corpus...)
	db := w.SearchDB()
	first := prepared(t, db)
	path, err := snapshotPath(context.Background(), db)
	if err != nil || path == "" {
		t.Fatalf("snapshot path %q, %v", path, err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no vocabulary file after the first reading: %v", err)
	}
	if first.mem.fromFile != 0 {
		t.Errorf("the first reading took %d terms from a file", first.mem.fromFile)
	}
	again := prepared(t, db)
	if again.mem.fromFile == 0 || len(terms(again)) != len(terms(first)) || again.mem.readPages != 0 {
		t.Errorf("opened again: %d terms from the file, %d in all, want all %d; %d pages of the index read besides",
			again.mem.fromFile, len(terms(again)), len(terms(first)), again.mem.readPages)
	}

	// New pages are new segments: read from the index, the rest from the file.
	for i, word := range []string{"quoxilated", "zorblewicks"} {
		w.Add(searchtest.Page{URL: fmt.Sprintf("http://new.test/%d", i), Title: "New " + word, Body: "a page about " + word})
	}
	grown := prepared(t, db)
	whole := New(db)
	whole.mem.wanted = true // read every segment: no file
	ctx := context.Background()
	d, err := readNew(ctx, db, 0, nil, 1<<62)
	if err != nil {
		t.Fatal(err)
	}
	whole.mem.install(d)
	got, want := terms(grown), terms(whole)
	if grown.mem.fromFile == 0 || len(got) != len(want) || grown.mem.readPages == 0 || grown.mem.readPages >= d.pages {
		t.Fatalf("grown: %d terms from the file, %d in all, want %d; %d pages read besides, of %d",
			grown.mem.fromFile, len(got), len(want), grown.mem.readPages, d.pages)
	}
	for term := range want {
		if _, ok := got[term]; !ok {
			t.Errorf("grown: %q missing", term)
		}
	}
	if _, ok := got["zorblewicks"]; !ok {
		t.Error("a term of the new segments is missing")
	}

	// A file of another index (another generation) is ignored, then written again.
	s, err := loadSnapshot(ctx, db)
	if err != nil || s == nil {
		t.Fatalf("loadSnapshot = %v, %v", s, err)
	}
	s.gen++
	if err := saveSnapshot(ctx, db, s); err != nil {
		t.Fatal(err)
	}
	if other, err := loadSnapshot(ctx, db); other != nil || err != nil {
		t.Errorf("a file of generation %d was taken for generation %d (%v)", s.gen, s.gen-1, err)
	}
	if v := prepared(t, db); v.mem.fromFile != 0 || len(terms(v)) != len(want) {
		t.Errorf("after a file of another index: %d terms from it, %d in all", v.mem.fromFile, len(terms(v)))
	}
	// A file cut short is ignored.
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if cut, err := loadSnapshot(ctx, db); cut != nil || err != nil {
		t.Errorf("a file cut short was read: %v", err)
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	s := &snapshot{workspace: "w-1", gen: 3, covered: []originSpan{{1, 4}, {6, 9}},
		terms: []string{"", "a", "ab", "abc", "b", "zzz", "é"}, weight: []uint32{0, 1, 2, 300, 70000, 1<<32 - 1, 5}}
	got, err := decodeSnapshot(s.encode())
	if err != nil {
		t.Fatal(err)
	}
	if got.workspace != s.workspace || got.gen != s.gen || !slices.Equal(got.covered, s.covered) ||
		!slices.Equal(got.terms, s.terms) || !slices.Equal(got.weight, s.weight) {
		t.Errorf("round trip: %+v, want %+v", got, s)
	}
	b := s.encode()
	for i := range len(b) {
		if _, err := decodeSnapshot(b[:i]); err == nil {
			t.Errorf("a file cut at %d of %d bytes parsed", i, len(b))
		}
	}
}

// FuzzSnapshot feeds vocabulary files to decodeSnapshot: it never panics, and what it reads
// is written back the same.
func FuzzSnapshot(f *testing.F) {
	f.Add((&snapshot{workspace: "w", gen: 1, covered: []originSpan{{1, 2}}, terms: []string{"a", "ab"}, weight: []uint32{1, 2}}).encode())
	f.Add([]byte(snapshotMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := decodeSnapshot(b)
		if err != nil {
			return
		}
		if !slices.IsSorted(s.terms) || len(s.terms) != len(s.weight) {
			t.Fatalf("decoded %+v", s)
		}
		if again, err := decodeSnapshot(s.encode()); err != nil || !slices.Equal(again.terms, s.terms) {
			t.Fatalf("written back: %v", err)
		}
	})
}

// TestCloseWaits: a vocabulary closed while it reads the index and writes the file of its
// terms returns only once neither runs, and starts nothing after: the workspace's folder
// can be removed or moved at once (a test's temporary folder once failed to be removed
// because the file was written into it after the workspace closed).
func TestCloseWaits(t *testing.T) {
	w := searchtest.New(t)
	w.Add(searchtest.Corpus...)
	db := w.SearchDB()
	path, err := snapshotPath(context.Background(), db)
	if err != nil || path == "" {
		t.Fatalf("snapshot path %q, %v", path, err)
	}
	for range 20 {
		os.Remove(path)
		v := New(db)
		v.Prepare(context.Background())
		v.Close()
		m := v.mem
		m.mu.Lock()
		building, saving := m.building, m.saving
		m.mu.Unlock()
		if building || saving {
			t.Fatalf("closed while building %v, saving %v", building, saving)
		}
		_, statErr := os.Stat(path)
		// Nothing may write the file now: prepare again (refused) and look that it stays as it is.
		v.Prepare(context.Background())
		if _, err := v.Wait(context.Background()); err != nil && !errors.Is(err, context.Canceled) {
			t.Fatal(err)
		}
		m.mu.Lock()
		building = m.building
		m.mu.Unlock()
		if building {
			t.Fatal("a closed vocabulary started reading the index")
		}
		if _, err := os.Stat(path); (err == nil) != (statErr == nil) {
			t.Fatalf("the file of the terms changed after Close: before %v, after %v", statErr, err)
		}
	}
}

// TestSnapshotOfIndexMadeAnew: an index file deleted (the file of its terms left beside it)
// and built again from the workspace is another index, even though it indexes the same
// workspace, starts again at its first generation and reuses the same origins: the old
// file's terms are not taken for the new index's. (They once were: a term the new index
// holds and the old one did not was missing from the vocabulary, so approximate words did
// not find it.)
func TestSnapshotOfIndexMadeAnew(t *testing.T) {
	ctx := context.Background()
	w := searchtest.New(t)
	w.Add(searchtest.Page{URL: "http://a.test/old", Title: "Old", Body: "a page about quoxilated things"})
	old := prepared(t, w.SearchDB())
	if _, ok := terms(old)["quoxilated"]; !ok {
		t.Fatal("the first index's vocabulary misses its word")
	}
	old.Close()
	vf, err := snapshotPath(ctx, w.SearchDB())
	if err != nil || vf == "" {
		t.Fatalf("snapshot path %q, %v", vf, err)
	}

	// A page the old index never saw, then the index deleted and built again.
	w.Add(searchtest.Page{URL: "http://a.test/new", Title: "New", Body: "a page about zorblewicks"})
	if err := w.Index.Close(); err != nil {
		t.Fatal(err)
	}
	for _, f := range index.Files(w.Path()) {
		if f != vf {
			if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}
		}
	}
	if _, err := os.Stat(vf); err != nil {
		t.Fatalf("the old file of terms is gone: %v", err)
	}
	idx, err := index.Open(ctx, w.Store)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	if err := idx.Wait(ctx, nil); err != nil {
		t.Fatal(err)
	}
	v := prepared(t, idx.SearchDB())
	defer v.Close()
	got := terms(v)
	for _, term := range []string{"quoxilated", "zorblewicks"} {
		if _, ok := got[term]; !ok {
			t.Errorf("the new index's vocabulary misses %q (%d terms from the old file)", term, v.mem.fromFile)
		}
	}
}

// TestWriteFile: the file of terms written without a vocabulary in memory (as the index's
// stage writes it) holds the terms a whole reading finds; it is written again from the old
// file and the new segments, not at all when current, and a torn or stale one is replaced.
func TestWriteFile(t *testing.T) {
	ctx := context.Background()
	w := searchtest.New(t)
	w.Add(searchtest.Corpus...)
	db := w.SearchDB()
	path, err := snapshotPath(ctx, db)
	if err != nil || path == "" {
		t.Fatalf("snapshot path %q, %v", path, err)
	}
	whole := func() map[string]uint32 {
		v := New(db)
		v.mem.wanted = true
		d, err := readNew(ctx, db, 0, nil, 1<<62)
		if err != nil {
			t.Fatal(err)
		}
		v.mem.install(d)
		return terms(v)
	}
	check := func(when string) *snapshot {
		t.Helper()
		s, err := loadSnapshot(ctx, db)
		if err != nil || s == nil {
			t.Fatalf("%s: no file of this index (%v)", when, err)
		}
		want := whole()
		if len(s.terms) != len(want) {
			t.Fatalf("%s: %d terms in the file, %d in the index", when, len(s.terms), len(want))
		}
		for i, term := range s.terms {
			if w, ok := want[term]; !ok || w != s.weight[i] {
				t.Fatalf("%s: %q weighs %d in the file, %d (%v) in the index", when, term, s.weight[i], w, ok)
			}
		}
		return s
	}
	if err := WriteFile(ctx, db); err != nil {
		t.Fatal(err)
	}
	check("written")
	st1, _ := os.Stat(path)
	if err := WriteFile(ctx, db); err != nil {
		t.Fatal(err)
	}
	if st2, _ := os.Stat(path); !st2.ModTime().Equal(st1.ModTime()) {
		t.Error("a current file was written again")
	}

	w.Add(searchtest.Page{URL: "http://new.test/w", Title: "New", Body: "a page about zorblewicks"})
	if err := WriteFile(ctx, db); err != nil {
		t.Fatal(err)
	}
	if s := check("after new pages"); !slices.Contains(s.terms, "zorblewicks") {
		t.Fatal("the new page's word is missing")
	}

	// Torn (cut short, or a byte changed), or of another generation: replaced by a whole one.
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	flipped := slices.Clone(good)
	flipped[len(flipped)/2] ^= 0x40
	s, _ := decodeSnapshot(good)
	s.gen++
	for name, bad := range map[string][]byte{"cut": good[:len(good)-7], "flipped": flipped, "stale": s.encode()} {
		if err := os.WriteFile(path, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		if got, err := loadSnapshot(ctx, db); got != nil || err != nil {
			t.Fatalf("%s: the file was taken (%v)", name, err)
		}
		if err := WriteFile(ctx, db); err != nil {
			t.Fatal(err)
		}
		check("after a " + name + " file")
	}
}
