package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"mundaneum/backend/store/dbtest"
)

// openTest opens a fresh workspace in a temp dir.
func openTest(t *testing.T) *Store {
	t.Helper()
	st, err := Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestOpenCreatesAndReopens(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", "w.mundaneum")
	st, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateCrawl(ctx, "k", []string{"http://a/"}, "site", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	var mode string
	if err := st.ReadDB().QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v", mode, err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cs, err := st.Crawls(ctx)
	if err != nil || len(cs) != 1 || cs[0].Seeds[0] != "http://a/" {
		t.Fatalf("crawls after reopen = %+v, %v", cs, err)
	}
	if v, err := st.IntegrityCheck(ctx); err != nil || v != "ok" {
		t.Fatalf("integrity = %q, %v", v, err)
	}
}

func TestOpenRejectsForeignFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte("hello, this is not a database at all"), 0o644)
	if _, err := Open(ctx, text, Options{}); !errors.Is(err, ErrNotWorkspace) {
		t.Fatalf("text file: err = %v, want ErrNotWorkspace", err)
	}
	other := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE t(x)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(ctx, other, Options{}); !errors.Is(err, ErrNotWorkspace) {
		t.Fatalf("foreign sqlite: err = %v, want ErrNotWorkspace", err)
	}
	if _, err := Open(ctx, other, Options{ReadOnly: true}); !errors.Is(err, ErrNotWorkspace) {
		t.Fatalf("foreign sqlite read-only: err = %v, want ErrNotWorkspace", err)
	}
}

func TestOpenLockedAndReadOnly(t *testing.T) {
	ctx := context.Background()
	st := openTest(t)
	if _, err := Open(ctx, st.Path(), Options{}); !errors.Is(err, ErrLocked) {
		t.Fatalf("second writer: err = %v, want ErrLocked", err)
	}
	ro, err := Open(ctx, st.Path(), Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only beside a writer: %v", err)
	}
	defer ro.Close()
	if _, err := ro.Counts(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := ro.ReadDB().ExecContext(ctx, "DELETE FROM pages"); err == nil {
		t.Fatal("read-only store accepted a write")
	}
}

func TestWriterIsolatesFailingOps(t *testing.T) {
	ctx := context.Background()
	st := openTest(t)
	w := st.Writer()
	insert := func(origin string) error {
		return w.Do(ctx, func(tx *Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO hosts(origin) VALUES (?)`, origin)
			return err
		})
	}
	if err := insert("http://a"); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := w.Do(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO hosts(origin) VALUES ('http://b')`); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if err := w.Do(ctx, func(tx *Tx) error { panic("op panics") }); err == nil {
		t.Fatal("a panicking op reported success")
	}
	if err := insert("http://a"); err == nil {
		t.Fatal("duplicate origin accepted")
	}
	if err := insert("http://c"); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var n int
	dbtest.Scan(t, st.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM hosts`), &n)
	if n != 2 {
		t.Fatalf("hosts = %d, want 2 (a and c; b rolled back)", n)
	}
}

func TestWriterClosedRefusesWork(t *testing.T) {
	st := openTest(t)
	st.Writer().Close()
	err := st.Writer().Do(context.Background(), func(*Tx) error { return nil })
	if !errors.Is(err, ErrClosed) {
		t.Fatalf("err = %v, want ErrClosed", err)
	}
}

func TestWriterReplaysBatchAfterFailure(t *testing.T) {
	ctx := context.Background()
	st := openTest(t)
	w := st.Writer()
	// Two operations in one batch: the second fails after writing; the first must survive
	// the replay exactly once, the second leave nothing behind.
	ids, err := Get(ctx, w, func(tx *Tx) (int64, error) {
		res, err := tx.ExecContext(ctx, `INSERT INTO hosts(origin) VALUES ('http://kept')`)
		if err != nil {
			return 0, err
		}
		return res.LastInsertId()
	})
	if err != nil || ids == 0 {
		t.Fatal(ids, err)
	}
	_, err = Get(ctx, w, func(tx *Tx) (int, error) {
		tx.ExecContext(ctx, `INSERT INTO hosts(origin) VALUES ('http://partial')`)
		return 0, errors.New("fails after a write")
	})
	if err == nil {
		t.Fatal("failure not reported")
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var origins []string
	rows, err := st.ReadDB().QueryContext(ctx, `SELECT origin FROM hosts ORDER BY origin`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var o string
		if err := rows.Scan(&o); err != nil {
			t.Fatal(err)
		}
		origins = append(origins, o)
	}
	rows.Close()
	if len(origins) != 1 || origins[0] != "http://kept" {
		t.Fatalf("origins = %v", origins)
	}
}

func TestSettingsRoundTrip(t *testing.T) {
	ctx := context.Background()
	st := openTest(t)
	got, err := st.Settings(ctx)
	if err != nil || got != DefaultSettings() {
		t.Fatalf("defaults = %+v, %v", got, err)
	}
	want := Settings{UserAgentSuffix: "contact: me@example.org", From: "me@example.org", DelayMs: 250, PerHost: 1, Agents: 4, Theme: "dark"}
	if err := st.SaveSettings(ctx, want); err != nil {
		t.Fatal(err)
	}
	if got, err := st.Settings(ctx); err != nil || got != want {
		t.Fatalf("settings = %+v, %v", got, err)
	}
}
