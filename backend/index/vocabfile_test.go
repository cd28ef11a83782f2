package index

import (
	"bytes"
	"context"
	"os"
	"testing"

	"mundaneum/backend/vocab"
)

// TestStageWritesVocabularyFile: an index asked to keep the file of its terms writes it
// once settled (the first search of a workspace just crawled finds it), writes it again
// when new pages changed its segments, and not when nothing changed.
func TestStageWritesVocabularyFile(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.idx.KeepVocabularyFile(vocab.WriteFile)
	file := Files(f.path)[3]
	f.visit(page{url: "http://a.test/1", title: "One", body: "a page about quoxilated things"})
	if err := f.idx.Settle(ctx, nil); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no file of terms once settled: %v", err)
	}
	if !bytes.Contains(first, []byte("quoxilated")) {
		t.Fatalf("the file of terms misses the page's word (%d bytes)", len(first))
	}
	before, _ := os.Stat(file)

	f.visit(page{url: "http://a.test/2", title: "Two", body: "a page about zorblewicks"})
	if err := f.idx.Settle(ctx, nil); err != nil {
		t.Fatal(err)
	}
	second, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(second, []byte("zorblewicks")) || !bytes.Contains(second, []byte("quoxilated")) {
		t.Fatalf("the file of terms was not brought up to date (%d bytes)", len(second))
	}
	after, _ := os.Stat(file)
	if after.ModTime().Equal(before.ModTime()) && bytes.Equal(first, second) {
		t.Fatal("the file of terms was not written again")
	}

	// Nothing changed: the stage does not write it again.
	if err := f.idx.Settle(ctx, nil); err != nil {
		t.Fatal(err)
	}
	again, _ := os.Stat(file)
	if !again.ModTime().Equal(after.ModTime()) {
		t.Error("the file of terms was written again with nothing new")
	}
}
