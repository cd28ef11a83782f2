package archive

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"mundaneum/backend/crawl"
	"mundaneum/backend/formats/wwww"
	"mundaneum/backend/store"
)

func TestWWWWExportImport(t *testing.T) {
	ctx := context.Background()
	st, _, base, crawlID := crawledTwice(t)
	var buf bytes.Buffer
	rep, err := exportWWWW(ctx, st, &buf, ExportOptions{CrawlID: crawlID})
	if err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{
		"T " + base + "/ Home\n",
		"R " + base + "/a.html " + base + "/ first\n",
		"I " + base + "/i.png " + base + "/ Home\n", // an image takes its page's title
		"T " + base + "/a.html A\n",
		"C " + base + "/a.html\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("export lacks %q:\n%s", want, text)
		}
	}
	if rep.Responses != 4 || rep.Records != strings.Count(text, "\n") {
		t.Errorf("report %+v for\n%s", rep, text)
	}
	// Every line reads back with the format's reader.
	rd := wwww.NewReader(strings.NewReader(text))
	n := 0
	for {
		if _, err := rd.Next(); err != nil {
			break
		}
		n++
	}
	if n != rep.Records {
		t.Errorf("read back %d lines of %d", n, rep.Records)
	}

	// Import into another workspace: the pages, titles and references with their anchors.
	dst := openStore(t)
	irep, err := importWWWW(ctx, dst, strings.NewReader(text), ImportOptions{Name: "w.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if irep.Pages != 4 || irep.ProblemCount != 0 || irep.RerunCrawlID == 0 {
		t.Errorf("import %+v", irep)
	}
	home, err := dst.PageID(ctx, base+"/")
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := dst.Page(ctx, home); p.Title != "Home" || p.State != store.StateFetched {
		t.Errorf("home %+v", p)
	}
	links, _ := dst.Links(ctx, home)
	var anchors []string
	for _, l := range links {
		anchors = append(anchors, l.Kind+" "+l.URL+" "+l.Anchor)
	}
	if len(links) != 4 || anchors[0] != "a "+base+"/a.html first" || !strings.Contains(strings.Join(anchors, "|"), "img "+base+"/i.png Home") {
		t.Errorf("home's references: %q", anchors)
	}
	if got := hits(t, dst, "first"); len(got) != 1 || got[0] != base+"/a.html" {
		t.Errorf("anchor text search: %v", got)
	}
	// Exporting the import gives the same archive.
	var again bytes.Buffer
	if _, err := exportWWWW(ctx, dst, &again, ExportOptions{CrawlID: irep.CrawlID}); err != nil {
		t.Fatal(err)
	}
	if again.String() != text {
		t.Errorf("round trip differs:\n%s\nwant\n%s", again.String(), text)
	}
}

// A rerun fetches every page the archive did not complete and none that it did, following
// the completed pages' stored references instead (the paper's section 3.2.2).
func TestWWWWRerunSkipsCompleted(t *testing.T) {
	ctx := context.Background()
	s := newSite(map[string]string{
		"/":       `<title>Home</title><a href="a.html">a</a> <a href="b.html">b</a>`,
		"/a.html": `<title>A</title><a href="c.html">c</a>`,
		"/b.html": `<title>B</title>`,
		"/c.html": `<title>C</title><a href="d.html">d</a>`,
		"/d.html": `<title>D</title>`,
	})
	srv := newServer(t, s)
	u := srv + "/"
	archive := strings.Join([]string{
		"T " + u + " Home",
		"R " + u + "a.html " + u + " a",
		"R " + u + "b.html " + u + " b",
		"C " + u,
		"T " + u + "a.html A",
		"R " + u + "c.html " + u + "a.html c",
		"C " + u + "a.html",
		"T " + u + "b.html B",
		"junk line without meaning",
		"",
	}, "\n")
	st := openStore(t)
	rep, err := importWWWW(ctx, st, strings.NewReader(archive), ImportOptions{Name: "w.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Pages != 3 || rep.ProblemCount != 1 || rep.RerunCrawlID == 0 {
		t.Fatalf("import %+v", rep)
	}
	rerun, err := st.Crawl(ctx, rep.RerunCrawlID)
	if err != nil || rerun.State != store.CrawlPaused || len(rerun.Seeds) != 1 || rerun.Seeds[0] != u {
		t.Fatalf("rerun %+v %v", rerun, err)
	}
	cr, err := crawl.Resume(ctx, st, nil, rep.RerunCrawlID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cr.Run(ctx, nil); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]int{"/": 0, "/a.html": 0, "/b.html": 1, "/c.html": 1, "/d.html": 1} {
		if got := s.hit(path); got != want {
			t.Errorf("%s fetched %d time(s), want %d", path, got, want)
		}
	}
}
