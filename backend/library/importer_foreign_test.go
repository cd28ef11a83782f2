package library_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"mundaneum/backend/library"
)

func hasProblem(rep library.ImportReport, line int, what string) bool {
	for _, p := range rep.Problems {
		if p.Line == line && strings.Contains(p.Reason, what) {
			return true
		}
	}
	return false
}

// TestImportOtherProjectsFiles: Shaarli's, linkding's and Firefox's own test files import
// as their writers meant them, and the report says what the library does not keep.
func TestImportOtherProjectsFiles(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	rep := must[library.ImportReport](t)(lib.Import(ctx, library.RootID, fixture(t, "foreign/shaarli_netscape_basic.htm"), library.Author{}))
	if rep.Pointers != 2 || rep.Skipped != 0 || !hasProblem(rep, 8, "private flag") {
		t.Errorf("shaarli: %+v", rep)
	}
	secret := resolve(t, lib, "/Secret stuff")
	if !reflect.DeepEqual(secret.Tags, []string{"private", "secret"}) ||
		secret.CreatedAt != time.Date(2000, 10, 10, 10, 55, 36, 0, time.UTC).UnixMilli() {
		t.Errorf("Shaarli's bookmark: tags %q, created %v", secret.Tags, time.UnixMilli(secret.CreatedAt).UTC())
	}

	_, lib = open(t)
	rep = must[library.ImportReport](t)(lib.Import(ctx, library.RootID, fixture(t, "foreign/mozilla_bookmarks.preplaces.html"), library.Author{}))
	if rep.Pointers != 8 || rep.Skipped != 0 {
		t.Errorf("firefox: %+v", rep)
	}
	for _, w := range []struct {
		line int
		what string
	}{{12, "favicon (ICON) of 5"}, {21, `keyword "test"`}, {32, "feed address"}} {
		if !hasProblem(rep, w.line, w.what) {
			t.Errorf("no word of %q at line %d: %+v", w.what, w.line, rep.Problems)
		}
	}
}

// TestImportLongTitle: a title longer than the library keeps is cut, and the report says so
// (it was once replaced by the address in silence).
func TestImportLongTitle(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	long := strings.Repeat("Otlet ", 10000/6+1)[:10000]
	file := "<DL><p>\n<DT><H3>" + long + "</H3>\n<DL><p>\n<DT><A HREF=\"https://long.test/\">" + long + "</A>\n</DL><p>\n</DL><p>\n"
	rep := must[library.ImportReport](t)(lib.Import(ctx, library.RootID, []byte(file), library.Author{}))
	if rep.Pointers != 1 || rep.Libraries != 1 || !hasProblem(rep, 2, "title cut") || !hasProblem(rep, 4, "title cut") {
		t.Fatalf("report %+v", rep)
	}
	root := must[library.Page](t)(lib.Open(ctx, library.RootID, library.ListQuery{Order: library.ByManual}))
	if len(root.Libraries) != 1 || !strings.HasPrefix(root.Libraries[0].Title, "Otlet Otlet") ||
		utf8.RuneCountInString(root.Libraries[0].Title) > library.MaxTitle {
		t.Fatalf("folder %+v", root.Libraries)
	}
	folder := must[library.Page](t)(lib.Open(ctx, root.Libraries[0].ID, library.ListQuery{Order: library.ByManual}))
	if len(folder.Postings) != 1 || !strings.HasPrefix(folder.Postings[0].Title, "Otlet Otlet") ||
		utf8.RuneCountInString(folder.Postings[0].Title) > library.MaxTitle {
		t.Errorf("pointer %+v", folder.Postings)
	}
}
