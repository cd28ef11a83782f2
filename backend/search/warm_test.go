package search

import (
	"context"
	"os"
	"testing"

	"mundaneum/backend/index"
	"mundaneum/backend/searchtest"
)

// TestWarm checks what a prepared searcher readies before its first query: the citation
// counts, the frequent words of a complete pair index, and both files read through.
func TestWarm(t *testing.T) {
	w := searchtest.New(t)
	w.Add(searchtest.Corpus...)
	ctx := context.Background()
	s := New(w.SearchDB())
	s.cites.minPages = 0
	read, err := s.warm(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := int64(0)
	for _, f := range []string{w.Path(), index.Path(w.Path())} {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		want += fi.Size()
	}
	if read != want {
		t.Errorf("read %d bytes of the files, want their %d", read, want)
	}
	s.cites.mu.Lock()
	loaded := s.cites.n != nil
	s.cites.mu.Unlock()
	if !loaded {
		t.Error("the citation counts were not loaded")
	}
	// A budget ends the reading; a context ended stops it.
	buf := make([]byte, warmChunk)
	if n, err := readThrough(ctx, w.Path(), buf, 10); err != nil || n < 10 || n > warmChunk {
		t.Errorf("readThrough with a budget of 10 bytes read %d (%v)", n, err)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if n, err := readThrough(done, w.Path(), buf, 1<<40); err == nil || n != 0 {
		t.Errorf("readThrough after its context ended read %d (%v)", n, err)
	}
}
