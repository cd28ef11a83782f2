package index

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

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

// TestWaitLeavesVocabularyFile: the index told as caught up (the end of a crawl, of a
// rebuild: Wait) has the file of its terms written, before its idle work, so that a search
// opened on it at once reads its vocabulary from the file. (Before, only the idle work
// wrote it, after the pair index and the merges: a process that ended at Wait left none.)
func TestWaitLeavesVocabularyFile(t *testing.T) {
	old, oldRows := MaintainDelay, VocabWaitRows
	MaintainDelay = time.Hour // no idle work during the test: only Wait can have written it
	VocabWaitRows = 0         // a small index held to the file too
	defer func() { MaintainDelay, VocabWaitRows = old, oldRows }()
	f := newFixture(t)
	f.idx.KeepVocabularyFile(vocab.WriteFile)
	file := Files(f.path)[3]
	f.visit(page{url: "http://a.test/1", title: "One", body: "a page about quoxilated things"})
	f.wait()
	first, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no file of terms once the index caught up: %v", err)
	}
	if !bytes.Contains(first, []byte("quoxilated")) {
		t.Fatalf("the file of terms misses the page's word (%d bytes)", len(first))
	}

	// A rebuild (a new generation): its end brings the file up to date.
	f.visit(page{url: "http://a.test/2", title: "Two", body: "a page about zorblewicks"})
	if err := f.idx.StartRebuild(); err != nil {
		t.Fatal(err)
	}
	f.wait()
	second, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(first, second) || !bytes.Contains(second, []byte("zorblewicks")) {
		t.Fatalf("the file of terms was not written for the rebuilt index (%d bytes)", len(second))
	}

	// A rebuild nobody waits for (the window's, after a change of format): its end writes
	// the file before the idle work (here none at all).
	f.visit(page{url: "http://a.test/3", title: "Three", body: "a page about flumptious"})
	f.wait()
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.idx.StartRebuild(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		third, _ := os.ReadFile(file)
		p := f.idx.Progress(context.Background())
		if !p.Rebuilding && bytes.Contains(third, []byte("flumptious")) && !bytes.Equal(third, before) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no file of terms after a rebuild nobody waited for (progress %s)", p)
		}
	}

	// The index closed right after, a cold open of it reads its terms from the file: no
	// leaf of the index is read (TestSnapshot's reading of the file, from vocab's side).
	f.close()
	ro := openReadOnly(t, f.path)
	defer ro.Close()
	v := vocab.New(ro.SearchDB())
	defer v.Close()
	v.Prepare(context.Background())
	if _, err := v.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	fromFile, readPages := v.Source()
	if fromFile == 0 || readPages != 0 {
		t.Errorf("the cold open took %d terms from the file and read %d pages of the index; want all from the file", fromFile, readPages)
	}
}
