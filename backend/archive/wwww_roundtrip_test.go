package archive

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"mundaneum/backend/crawl"
)

// wwwwExport exports a WWWW archive of crawl (0: the workspace) as its sorted lines.
func wwwwExport(t *testing.T, ctx context.Context, st interface{}, export func(*bytes.Buffer) error) []string {
	t.Helper()
	var buf bytes.Buffer
	if err := export(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	slices.Sort(lines)
	return lines
}

func lineKinds(lines []string) map[byte]int {
	n := map[byte]int{}
	for _, l := range lines {
		n[l[0]]++
	}
	return n
}

// TestWWWWRoundTrip: a WWWW export, imported into another workspace and exported again,
// has the same lines, its C (completed) lines among them, whether the second export is of
// the whole workspace or of the import's crawl: a re-import then refetches nothing the first
// crawl completed. (Every page here links back home, as a manual's do: the rerun the import
// seeds from home once made every page look unfinished, and the export kept one C line of
// 1,169.)
func TestWWWWRoundTrip(t *testing.T) {
	ctx := context.Background()
	pages := map[string]string{"/": `<title>Manual</title><a href="ch1.html">one</a> <a href="ch2.html">two</a> <img src="logo.png">`}
	for i := 1; i <= 2; i++ {
		pages[fmt.Sprintf("/ch%d.html", i)] = fmt.Sprintf(`<title>Chapter %d</title><a href="/">home</a> <a href="ch%d-s.html">section</a>`, i, i)
		pages[fmt.Sprintf("/ch%d-s.html", i)] = fmt.Sprintf(`<title>Section %d</title><a href="/">home</a> <a href="ch%d.html">up</a>`, i, i)
	}
	srv := newServer(t, newSite(pages))
	st := openStore(t)
	runCrawl(t, st, crawl.Config{Seeds: []string{srv + "/"}, Scope: crawl.ScopeSite, Delay: 0, PerHost: 2})
	first := wwwwExport(t, ctx, st, func(b *bytes.Buffer) error { _, err := exportWWWW(ctx, st, b, ExportOptions{}); return err })
	if n := lineKinds(first); n['T'] != 5 || n['C'] != 5 {
		t.Fatalf("first export: %v\n%s", n, strings.Join(first, "\n"))
	}

	dst := openStore(t)
	rep, err := importWWWW(ctx, dst, strings.NewReader(strings.Join(first, "\n")+"\n"), ImportOptions{Name: "manual.wwww"})
	if err != nil || rep.ProblemCount != 0 || rep.RerunCrawlID == 0 {
		t.Fatalf("import %+v %v", rep, err)
	}
	for _, crawlID := range []int64{0, rep.CrawlID} {
		again := wwwwExport(t, ctx, dst, func(b *bytes.Buffer) error {
			_, err := exportWWWW(ctx, dst, b, ExportOptions{CrawlID: crawlID})
			return err
		})
		if !slices.Equal(again, first) {
			t.Errorf("export of crawl %d after the import: %v, want %v\n%s", crawlID, lineKinds(again), lineKinds(first), strings.Join(again, "\n"))
		}
	}
}

// TestWWWWRoundTripKeepsIncomplete: a page the archive opened without completing (no C
// line) is still incomplete when the import is exported again, before its rerun.
func TestWWWWRoundTripKeepsIncomplete(t *testing.T) {
	ctx := context.Background()
	u := "http://fen.example/"
	archive := []string{
		"T " + u + " Home",
		"R " + u + "a.html " + u + " a",
		"R " + u + "b.html " + u + " b",
		"T " + u + "a.html A",
		"C " + u + "a.html",
		"T " + u + "b.html B",
	}
	st := openStore(t)
	rep, err := importWWWW(ctx, st, strings.NewReader(strings.Join(archive, "\n")+"\n"), ImportOptions{Name: "w.txt"})
	if err != nil || rep.ProblemCount != 0 {
		t.Fatalf("import %+v %v", rep, err)
	}
	want := slices.Clone(archive)
	slices.Sort(want)
	for _, crawlID := range []int64{0, rep.CrawlID} {
		again := wwwwExport(t, ctx, st, func(b *bytes.Buffer) error {
			_, err := exportWWWW(ctx, st, b, ExportOptions{CrawlID: crawlID})
			return err
		})
		if !slices.Equal(again, want) {
			t.Errorf("export of crawl %d:\n%s\nwant\n%s", crawlID, strings.Join(again, "\n"), strings.Join(want, "\n"))
		}
	}
}
