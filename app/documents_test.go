package app

import (
	"bytes"
	"os"
	"testing"
	"time"
)

func TestWriteDocumentIsPrivate(t *testing.T) {
	path, err := writeDocument(7, []byte("%PDF-1.4 x"))
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(path[:len(path)-len("/page-7.pdf")])
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o400 {
		t.Fatalf("file %v %v", fi, err)
	}
	di, _ := os.Stat(path[:len(path)-len("/page-7.pdf")])
	if di.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %v", di.Mode())
	}
	b, _ := os.ReadFile(path)
	if !bytes.Equal(b, []byte("%PDF-1.4 x")) {
		t.Error("content")
	}
}

// TestDocTickets checks that a ticket names its one page until it expires, and that
// expired tickets are forgotten when the next is issued.
func TestDocTickets(t *testing.T) {
	var tk docTickets
	now := time.Now()
	a, err := tk.issue(7, now)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := tk.issue(8, now)
	if a == b || len(a) < 32 {
		t.Fatalf("tickets %q %q", a, b)
	}
	if id, ok := tk.page(a, now.Add(time.Minute)); !ok || id != 7 {
		t.Errorf("page(a) = %d %v, want 7", id, ok)
	}
	if _, ok := tk.page("made-up", now); ok {
		t.Error("a made-up ticket opens a page")
	}
	if _, ok := tk.page(b, now.Add(documentTicketLife+time.Second)); ok {
		t.Error("an expired ticket opens its page")
	}
	tk.issue(9, now.Add(documentTicketLife+time.Second))
	if len(tk.m) != 1 {
		t.Errorf("%d tickets kept, want only the new one", len(tk.m))
	}
}
