package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// packedWorkspace opens a workspace holding its links packed (no expander) with pages
// pages and the packs of the first packs of them, links links each.
func packedWorkspace(t testing.TB, pages, packs, links int) *Store {
	t.Helper()
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(t.TempDir(), "w.mundaneum"), Options{HoldLinks: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rng := rand.New(rand.NewPCG(1, 2))
	err = st.Writer().Do(ctx, func(tx *Tx) error {
		if _, err := tx.Exec(`INSERT INTO hosts(origin) VALUES ('http://a.test')`); err != nil {
			return err
		}
		for i := range pages {
			if _, err := tx.Exec(`INSERT INTO pages(url, host_id, state, discovered_at) VALUES (?, 1, 'fetched', 0)`,
				fmt.Sprintf("http://a.test/p%d", i)); err != nil {
				return err
			}
		}
		for from := 1; from <= packs; from++ {
			var p linkPack
			for k := range links {
				tg := Target{Kind: "a", Anchor: fmt.Sprintf("word%d", rng.IntN(2000)), Pos: k + 1}
				p.add(int64(1+rng.IntN(pages)), &tg)
			}
			if _, err := tx.Exec(`INSERT INTO link_packs(page_id, n, data) VALUES (?, ?, ?)`, from, p.n, p.json()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	return st
}

// waitFor waits until cond holds (a condition the test's own goroutines bring about).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		runtime.Gosched()
	}
}

// An idle expansion stands aside while other operations wait for the writer, and runs when
// none does.
func TestExpandIfIdle(t *testing.T) {
	ctx := context.Background()
	st := packedWorkspace(t, 50, 20, 5)
	w := st.Writer()

	// Hold the writer, queue the expansion, then an operation behind it.
	hold, held := make(chan struct{}), make(chan struct{})
	go w.Do(ctx, func(*Tx) error { close(held); <-hold; return nil })
	<-held
	type res struct {
		n    int
		busy bool
		err  error
	}
	got := make(chan res, 1)
	go func() {
		n, busy, err := st.expandIfIdle(ctx, expandIdleBatch)
		got <- res{n, busy, err}
	}()
	waitFor(t, "the expansion to be queued", func() bool { return len(w.ops) == 1 })
	after := make(chan error, 1)
	go func() { after <- w.Do(ctx, func(*Tx) error { return nil }) }()
	waitFor(t, "an operation behind it", func() bool { return len(w.ops) == 2 })
	close(hold)
	r := <-got
	if r.err != nil || !r.busy || r.n != 0 {
		t.Fatalf("with an operation waiting: expanded %d, busy %v, %v; want none, busy", r.n, r.busy, r.err)
	}
	if err := <-after; err != nil {
		t.Fatal(err)
	}
	if n, err := st.PendingLinks(ctx); err != nil || n != 20 {
		t.Fatalf("pending %d, %v; want 20", n, err)
	}

	// Nothing waits: it expands.
	n, busy, err := st.expandIfIdle(ctx, expandIdleBatch)
	if err != nil || busy || n != 20 {
		t.Fatalf("idle: expanded %d, busy %v, %v; want 20", n, busy, err)
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := st.PendingLinks(ctx); err != nil || n != 0 {
		t.Fatalf("pending %d, %v; want 0", n, err)
	}
}

// What the expander does: a full batch at the cap or once packs stop coming, an idle
// batch while they come, nothing without packs.
func TestExpanderDue(t *testing.T) {
	e := newExpander()
	if m, _ := e.due(); m != expandWait {
		t.Fatalf("no packs: %v", m)
	}
	e.pending, e.last = 10, time.Now()
	if m, wait := e.due(); m != expandIdle || wait <= 0 || wait > expandQuiet {
		t.Fatalf("packs coming: %v, %s", m, wait)
	}
	e.pending = expandCap
	if m, _ := e.due(); m != expandFull {
		t.Fatalf("at the cap: %v", m)
	}
	e.pending, e.last = 10, time.Now().Add(-2*expandQuiet)
	if m, _ := e.due(); m != expandFull {
		t.Fatalf("quiet: %v", m)
	}
}

// BenchmarkLinksPendingRead reads the links to one page while 128 to 8,192 pages' packs (20
// links each) wait: what a reader of links pays at the cap.
//
//	CGO_ENABLED=0 go test -run '^$' -bench LinksPendingRead ./backend/store/
func BenchmarkLinksPendingRead(b *testing.B) {
	for _, packs := range []int{expandIdleBatch, expandBatch, 4096, 8192} {
		b.Run(fmt.Sprint(packs), func(b *testing.B) {
			ctx := context.Background()
			st := packedWorkspace(b, 10_000, packs, 20)
			b.ResetTimer()
			for i := range b.N {
				var n int
				if err := st.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM links WHERE to_id = ?`, 1+i%10_000).Scan(&n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
