package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"mundaneum/backend/library"
	"mundaneum/backend/store/dbtest"
)

// TestLibraryEditsFromTwoConnections: the window (the owner, its writer busy) and a CLI
// beside it (a shared store) edit the same part of the tree at the same moment. Moves that
// would each be fine alone but together make a cycle (A into B while B goes into A) are
// checked inside the write that makes them, so one of the pair is refused and the tree stays
// a tree; two edits of one posting both land, the last one wins, and the library's index
// finds the title that won and not the one that lost.
func TestLibraryEditsFromTwoConnections(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.mundaneum")
	owner, err := Open(ctx, path, Options{BatchDelay: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	guest, err := Open(ctx, path, Options{Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	defer guest.Close()
	stop := make(chan struct{})
	ownerBusy(t, owner, stop)
	defer close(stop)

	lib, glib := library.New(owner), library.New(guest)
	a, err := lib.Create(ctx, library.RootID, library.LibraryInput{Title: "A"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := glib.Create(ctx, library.RootID, library.LibraryInput{Title: "B"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := lib.Point(ctx, a.ID, library.PointerInput{URL: "https://race.example/", Title: "start"})
	if err != nil {
		t.Fatal(err)
	}

	const rounds = 12
	var wg sync.WaitGroup
	var mu sync.Mutex
	refused := 0
	run := func(l *library.Library, node, into int64, who string) {
		defer wg.Done()
		for i := range rounds {
			err := l.Move(ctx, []int64{node}, into, -1, "")
			switch {
			case err == nil:
			case errors.Is(err, library.ErrInvalid) || errors.Is(err, library.ErrConflict):
				mu.Lock()
				refused++
				mu.Unlock()
			default:
				t.Errorf("%s, move %d: %v", who, i, err)
				return
			}
			// Back to the root: always legal, wherever the other side left it.
			if err := l.Move(ctx, []int64{node}, library.RootID, -1, ""); err != nil {
				t.Errorf("%s, back %d: %v", who, i, err)
				return
			}
			title := fmt.Sprintf("%s %d", who, i)
			if _, err := l.Edit(ctx, p.Node.ID, library.Edit{Title: &title}, ""); err != nil {
				t.Errorf("%s, edit %d: %v", who, i, err)
				return
			}
		}
	}
	wg.Add(2)
	go run(lib, a.ID, b.ID, "owner")
	go run(glib, b.ID, a.ID, "guest")
	wg.Wait()
	if err := owner.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("cross moves refused as cycles: %d of %d", refused, 2*rounds)

	// The tree is a tree: every node's path is its parent's plus itself.
	var bad int
	if err := owner.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM lib_nodes n JOIN lib_nodes p ON p.id = n.parent_id
		WHERE n.path <> p.path || n.id || '/'`).Scan(&bad); err != nil || bad != 0 {
		t.Fatalf("nodes whose path is not their parent's: %d, %v", bad, err)
	}
	for _, id := range []int64{a.ID, b.ID} {
		n, err := lib.Node(ctx, id)
		if err != nil || n.Parent != library.RootID {
			t.Errorf("library %d ends under %d (%v), want the root", id, n.Parent, err)
		}
	}
	// The last edit won, and the index agrees with the table.
	n, err := lib.Node(ctx, p.Node.ID)
	if err != nil {
		t.Fatal(err)
	}
	if n.Title != fmt.Sprintf("owner %d", rounds-1) && n.Title != fmt.Sprintf("guest %d", rounds-1) {
		t.Errorf("title after both edited: %q", n.Title)
	}
	var hits int
	if err := owner.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM lib_fts WHERE lib_fts MATCH ?`,
		fmt.Sprintf(`title:"%s"`, n.Title)).Scan(&hits); err != nil || hits != 1 {
		t.Errorf("the index finds %q %d times (%v)", n.Title, hits, err)
	}
	if err := owner.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM lib_fts WHERE lib_fts MATCH 'title:start'`).Scan(&hits); err != nil || hits != 0 {
		t.Errorf("the index still finds the old title %d times (%v)", hits, err)
	}
	// The root is never indexed (see migration 0016): renaming it leaves the index whole.
	root := "Everything"
	if _, err := glib.Edit(ctx, library.RootID, library.Edit{Title: &root}, ""); err != nil {
		t.Fatal(err)
	}
	if err := owner.Writer().Do(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO lib_fts(lib_fts, rank) VALUES ('integrity-check', 0)`)
		return err
	}); err != nil {
		t.Errorf("lib_fts integrity: %v", err)
	}
	var indexed, nodes int
	dbtest.Scan(t, owner.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM lib_fts_docsize`), &indexed)
	dbtest.Scan(t, owner.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM lib_nodes WHERE id <> 1`), &nodes)
	if indexed != nodes {
		t.Errorf("lib_fts holds %d documents for %d nodes below the root", indexed, nodes)
	}
}
