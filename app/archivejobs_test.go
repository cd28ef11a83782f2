package app

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mundaneum/backend/formats/warc"
	"mundaneum/backend/store"
)

// jobEvents collects the archive:job events of an App.
type jobEvents struct {
	mu     sync.Mutex
	events []ArchiveJob
	ended  chan ArchiveJob
	crawl  chan struct{}
}

func newJobApp(t *testing.T) (*App, *store.Store, *jobEvents, string) {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(context.Background(), filepath.Join(dir, "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
	ev := &jobEvents{ended: make(chan ArchiveJob, 16), crawl: make(chan struct{}, 1)}
	a.startup(context.Background(), func(name string, p any) {
		switch name {
		case EventCrawlDone:
			ev.crawl <- struct{}{}
		case EventArchiveJob:
			j := p.(ArchiveJob)
			ev.mu.Lock()
			ev.events = append(ev.events, j)
			ev.mu.Unlock()
			if j.State != JobRunning {
				ev.ended <- j
			}
		}
	})
	t.Cleanup(a.shutdown)
	return a, st, ev, dir
}

func (ev *jobEvents) wait(t *testing.T, id int64) ArchiveJob {
	t.Helper()
	for {
		select {
		case j := <-ev.ended:
			if j.ID == id {
				return j
			}
		case <-time.After(2 * time.Minute):
			t.Fatalf("job %d did not end", id)
		}
	}
}

// monotonic checks that no job's counts ever moved backwards in the events.
func (ev *jobEvents) monotonic(t *testing.T) {
	t.Helper()
	ev.mu.Lock()
	defer ev.mu.Unlock()
	last := map[int64]ArchiveJob{}
	for _, j := range ev.events {
		if p, ok := last[j.ID]; ok && (j.Done < p.Done || j.Pages < p.Pages || j.Bytes < p.Bytes) {
			t.Errorf("job %d moved backwards: %+v after %+v", j.ID, j, p)
		}
		last[j.ID] = j
	}
}

func TestArchiveJobsExportAndImport(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<title>Page %s</title><a href="/a">to a</a>`, r.URL.Path)
	}))
	defer srv.Close()
	a, _, ev, dir := newJobApp(t)
	c, err := a.StartCrawl(CrawlRequest{Seeds: []string{srv.URL + "/"}, DelayMs: 0})
	if err != nil {
		t.Fatal(err)
	}
	<-ev.crawl
	if fs := a.ArchiveFormats(); !slices.ContainsFunc(fs, func(f ArchiveFormat) bool { return f.Name == "warc" }) ||
		!slices.ContainsFunc(fs, func(f ArchiveFormat) bool { return f.Name == "wwww" }) {
		t.Errorf("formats %+v", fs)
	}
	file := filepath.Join(dir, "c.warc.gz")
	j, err := a.StartExport(c.ID, "warc", file)
	if err != nil || j.State != JobRunning || j.Op != "export" || j.Name != "c.warc.gz" {
		t.Fatalf("export %+v %v", j, err)
	}
	if end := ev.wait(t, j.ID); end.State != JobDone || end.Export == nil || end.Export.Responses != 2 || end.Bytes == 0 {
		t.Fatalf("export ended %+v", end)
	}
	if _, err := a.StartExport(c.ID, "arc", file); !isCode(err, CodeInvalid) {
		t.Errorf("unknown format: %v", err)
	}
	if _, err := a.StartExport(c.ID, "warc", " "); !isCode(err, CodeInvalid) {
		t.Errorf("no path: %v", err)
	}
	if _, err := a.StartExport(c.ID, "warc", filepath.Join(dir, "no", "such", "x.warc")); !isCode(err, CodeNotFound) {
		t.Errorf("no folder: %v", err)
	}
	j, err = a.StartImport(file)
	if err != nil || j.Format != "warc" || j.Total == 0 {
		t.Fatalf("import %+v %v", j, err)
	}
	end := ev.wait(t, j.ID)
	if end.State != JobDone || end.Import == nil || end.Import.Pages != 2 || end.Pages != 2 || end.CrawlID == 0 || end.Done != end.Total {
		t.Fatalf("import ended %+v", end)
	}
	if _, err := a.StartImport(filepath.Join(dir, "none.warc")); !isCode(err, CodeNotFound) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := a.StartImport(dir); !isCode(err, CodeInvalid) {
		t.Errorf("a folder: %v", err)
	}
	if jobs := a.ArchiveJobs(); len(jobs) != 2 || jobs[0].Op != "import" || jobs[1].Op != "export" {
		t.Errorf("jobs %+v", jobs)
	}
	if err := a.CancelArchiveJob(999); !isCode(err, CodeNotFound) {
		t.Errorf("cancel unknown: %v", err)
	}
	if _, err := a.ChooseImportFile(); !isCode(err, CodeUnavailable) {
		t.Errorf("dialogs outside the window: %v", err)
	}
	ev.monotonic(t)
}

// writeBigWARC writes a WARC of n HTML responses of distinct content.
func writeBigWARC(t *testing.T, path string, n int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriter(f)
	w := warc.NewWriter(bw, true)
	at := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	filler := strings.Repeat("the archive holds words that someone will search for later ", 40)
	for i := range n {
		body := fmt.Sprintf("<title>Page %d</title><p>%d %s</p><a href=\"/p%d\">next</a>", i, i, filler, i+1)
		block := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
		h := warc.Header{{Name: "WARC-Type", Value: "response"}, {Name: "WARC-Record-ID", Value: warc.NewRecordID()},
			{Name: "WARC-Date", Value: warc.FormatDate(at.Add(time.Duration(i) * time.Second))},
			{Name: "WARC-Target-URI", Value: fmt.Sprintf("http://archive.example/p%d", i)},
			{Name: "Content-Type", Value: "application/http; msgtype=response"}}
		if err := w.WriteRecord(h, []byte(block)); err != nil {
			t.Fatal(err)
		}
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// A cancelled import keeps every page it committed whole, ends its crawl as cancelled, and
// importing the file again brings in the rest without a second copy of anything.
func TestArchiveJobCancelAndResume(t *testing.T) {
	a, st, ev, dir := newJobApp(t)
	const n = 3000
	file := filepath.Join(dir, "big.warc.gz")
	writeBigWARC(t, file, n)
	j, err := a.StartImport(file)
	if err != nil {
		t.Fatal(err)
	}
	// Cancel once some pages are in.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		jobs := a.ArchiveJobs()
		if jobs[0].Pages >= 50 || jobs[0].State != JobRunning || time.Now().After(deadline) {
			break
		}
	}
	if err := a.CancelArchiveJob(j.ID); err != nil {
		t.Fatal(err)
	}
	end := ev.wait(t, j.ID)
	if end.State != JobCancelled || end.Import == nil {
		t.Fatalf("cancelled import ended %+v", end)
	}
	if err := a.CancelArchiveJob(j.ID); err != nil { // cancelling an ended job is harmless
		t.Errorf("cancel again: %v", err)
	}
	ctx := context.Background()
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	count := func(q string) int {
		var c int
		if err := st.ReadDB().QueryRowContext(ctx, q).Scan(&c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	// Nothing half-written: every page with content has its version and its body.
	half := `SELECT count(*) FROM pages p WHERE p.hash IS NOT NULL AND (NOT EXISTS (SELECT 1 FROM versions v WHERE v.page_id = p.id)
		OR NOT EXISTS (SELECT 1 FROM blobs b WHERE b.hash = p.hash))`
	if h := count(half); h != 0 {
		t.Fatalf("%d page(s) half-written after the cancel", h)
	}
	first := count(`SELECT count(*) FROM pages WHERE hash IS NOT NULL`)
	if first == 0 || first >= n {
		t.Logf("the cancel landed at %d of %d pages", first, n)
	}
	var state string
	if err := st.ReadDB().QueryRowContext(ctx, `SELECT state FROM crawls WHERE id = ?`, end.CrawlID).Scan(&state); err != nil || state != string(store.CrawlCancelled) {
		t.Errorf("the cancelled import's crawl is %q (%v)", state, err)
	}
	// Again, to the end: the rest comes in, nothing twice.
	j2, err := a.StartImport(file)
	if err != nil {
		t.Fatal(err)
	}
	end2 := ev.wait(t, j2.ID)
	if end2.State != JobDone || end2.Import.Pages != n {
		t.Fatalf("second import ended %+v", end2)
	}
	if got := count(`SELECT count(*) FROM pages WHERE hash IS NOT NULL`); got != n {
		t.Errorf("%d pages with content, want %d", got, n)
	}
	if got := count(`SELECT count(*) FROM versions`); got != n {
		t.Errorf("%d versions, want %d (one per page: the re-import adds none twice)", got, n)
	}
	if got := count(`SELECT count(*) FROM blobs`); got != n {
		t.Errorf("%d bodies, want %d", got, n)
	}
	if h := count(half); h != 0 {
		t.Errorf("%d page(s) half-written", h)
	}
	ev.monotonic(t)
}

// A cancelled export leaves no file, whole or partial.
func TestArchiveJobCancelledExportLeavesNoFile(t *testing.T) {
	a, _, ev, dir := newJobApp(t)
	file := filepath.Join(dir, "big.warc.gz")
	writeBigWARC(t, file, 1500)
	j, err := a.StartImport(file)
	if err != nil {
		t.Fatal(err)
	}
	ev.wait(t, j.ID)
	out := filepath.Join(dir, "out", "x.warc.gz")
	os.Mkdir(filepath.Dir(out), 0o755)
	j, err = a.StartExport(0, "warc", out)
	if err != nil {
		t.Fatal(err)
	}
	a.CancelArchiveJob(j.ID)
	end := ev.wait(t, j.ID)
	left, _ := os.ReadDir(filepath.Dir(out))
	switch end.State {
	case JobCancelled:
		if len(left) != 0 {
			t.Errorf("a cancelled export left %v", left)
		}
	case JobDone: // it won the race: the file must be whole
		if len(left) != 1 || end.Export.Responses != 1500 {
			t.Errorf("export ended %+v, folder %v", end, left)
		}
	default:
		t.Errorf("export ended %+v", end)
	}
}
