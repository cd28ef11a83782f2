package app

import (
	"bytes"
	"os"
	"testing"
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
