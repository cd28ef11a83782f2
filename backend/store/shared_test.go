package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mundaneum/backend/library"
	"mundaneum/backend/store/dbtest"
)

// ownerBusy keeps the owner's writer busy the way a crawl does: operations back to back,
// committed by the batch timer, never by a flush.
func ownerBusy(t *testing.T, st *Store, stop <-chan struct{}) *atomic.Int64 {
	t.Helper()
	var n atomic.Int64
	go func() {
		ctx := context.Background()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			err := st.Writer().Do(ctx, func(tx *Tx) error {
				_, err := tx.ExecContext(ctx, `INSERT INTO counts(name, n) VALUES ('busy', 1) ON CONFLICT(name) DO UPDATE SET n = n + 1`)
				return err
			})
			if err != nil {
				select {
				case <-stop: // the test closed the store while this write was under way
				default:
					t.Errorf("owner: %v", err)
				}
				return
			}
			n.Add(1)
			if i%50 == 0 {
				time.Sleep(time.Millisecond)
			}
		}
	}()
	return &n
}

// TestShortWritesBesideTheOwner: while the owner of a workspace writes without pause, a
// second store opened Shared makes short writes that wait their turn (none fails with
// "database is locked"), both sides' writes all land, and the owner's own caches and page
// writes go on unharmed.
func TestShortWritesBesideTheOwner(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.mundaneum")
	owner, err := Open(ctx, path, Options{BatchDelay: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	if _, err := Open(ctx, path, Options{}); !errors.Is(err, ErrLocked) {
		t.Fatalf("a second owner: %v", err)
	}
	guest, err := Open(ctx, path, Options{Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	defer guest.Close()
	if guest.Writer() != nil || !guest.Shared() {
		t.Fatal("a shared store has the owner's writer")
	}

	stop := make(chan struct{})
	busy := ownerBusy(t, owner, stop)
	// Pages written by the owner, before and after the guest's writes, through its caches
	// of page and host ids.
	cr, err := owner.CreateCrawl(ctx, "k", []string{"http://a.test/"}, "site", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	target := func(path string) Target {
		return Target{URL: "http://a.test" + path, Origin: "http://a.test", Kind: "a", Follow: true}
	}
	if _, err := owner.Enqueue(ctx, cr.ID, []Target{target("/1")}); err != nil {
		t.Fatal(err)
	}
	save := func(path string, links ...Target) {
		t.Helper()
		if err := owner.Writer().Flush(ctx); err != nil {
			t.Fatal(err)
		}
		id, err := owner.PageID(ctx, "http://a.test"+path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = owner.SaveResult(ctx, &Result{CrawlID: cr.ID, PageID: id, URL: "http://a.test" + path,
			State: StateFetched, Status: 200, Hash: "h" + path, Blob: []byte{1}, Codec: "zstd",
			Doc: &Doc{Title: path}, Links: links, ReplaceLinks: true})
		if err != nil {
			t.Fatal(err)
		}
	}
	save("/1", target("/2"))

	lib := library.New(owner)
	glib := library.New(guest)
	time.Sleep(300 * time.Millisecond) // the owner is in the middle of a batch
	const each = 15
	var wg sync.WaitGroup
	var worst atomic.Int64
	for who, l := range []*library.Library{glib, glib, lib} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				start := time.Now()
				_, err := l.Point(ctx, library.RootID, library.PointerInput{URL: fmt.Sprintf("https://w%d.example/%d", who, i)})
				if err != nil {
					t.Errorf("writer %d, write %d: %v", who, i, err)
					return
				}
				if d := time.Since(start); int64(d) > worst.Load() {
					worst.Store(int64(d))
				}
			}
		}()
	}
	if _, _, err := guest.SaveView(ctx, "from the guest", "site:example.org", false); err != nil {
		t.Errorf("saving a view beside the owner: %v", err)
	}
	wg.Wait()
	save("/2", target("/1"), target("/3"))
	close(stop)
	if err := owner.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("owner ops: %d; slowest short write: %v", busy.Load(), time.Duration(worst.Load()))

	// Everything is there, read through a third connection.
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	var n int
	if err := ro.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM lib_nodes WHERE kind = 'pointer'`).Scan(&n); err != nil || n != 3*each {
		t.Errorf("pointers: %d, %v (want %d)", n, err, 3*each)
	}
	if _, err := ro.ViewNamed(ctx, "from the guest"); err != nil {
		t.Errorf("the guest's view: %v", err)
	}
	var pages int
	if err := ro.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM pages WHERE url LIKE 'http://a.test/%'`).Scan(&pages); err != nil || pages != 3 {
		t.Errorf("owner's pages: %d, %v", pages, err)
	}
	if v, err := ro.IntegrityCheck(ctx); err != nil || v != "ok" {
		t.Errorf("integrity: %s %v", v, err)
	}
	// Ids never collide: every pointer has its own.
	var ids int
	dbtest.Scan(t, ro.ReadDB().QueryRowContext(ctx, `SELECT count(DISTINCT id) FROM lib_nodes`), &ids)
	if ids != 3*each+1 {
		t.Errorf("distinct ids %d", ids)
	}
}

// TestShortWriteFromAnotherProcess: a second process writes while this one owns the
// workspace (what `mundaneum library add` does beside `mundaneum serve`).
func TestShortWriteFromAnotherProcess(t *testing.T) {
	if p := os.Getenv("MUNDANEUM_SHARED_CHILD"); p != "" {
		st, err := Open(context.Background(), p, Options{Shared: true})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		for i := range 5 {
			if _, err := library.New(st).Point(context.Background(), library.RootID,
				library.PointerInput{URL: fmt.Sprintf("https://child.example/%d", i)}); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(4)
			}
		}
		st.Close()
		os.Exit(0)
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.mundaneum")
	owner, err := Open(ctx, path, Options{BatchDelay: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	stop := make(chan struct{})
	ownerBusy(t, owner, stop)
	defer close(stop)
	cmd := osexec.Command(os.Args[0], "-test.run=^TestShortWriteFromAnotherProcess$")
	cmd.Env = append(os.Environ(), "MUNDANEUM_SHARED_CHILD="+path)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var n int
	if err := owner.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM lib_nodes WHERE url LIKE 'https://child.example/%'`).Scan(&n); err != nil || n != 5 {
		t.Errorf("the child's pointers: %d, %v", n, err)
	}
}

// A shared open of a new file creates and upgrades it, and leaves it free for an owner.
func TestSharedOpenCreatesWorkspace(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "new.mundaneum")
	st, err := Open(ctx, path, Options{Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := library.New(st).Create(ctx, library.RootID, library.LibraryInput{Title: "Computing"}); err != nil {
		t.Fatal(err)
	}
	owner, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("an owner beside a shared store: %v", err)
	}
	owner.Close()
	st.Close()
}
