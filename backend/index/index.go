// Package index is the workspace's full-text index as a stage of its own, behind the crawl.
//
// The crawl stores pages, their extracted text (compressed, once) and their links in the
// workspace, and notes in the workspace's index log which pages' rows may have changed
// (backend/store). The index lives in a file of its own beside the workspace,
// "<workspace>-index", with its own SQLite writer on a goroutine of its own, so that
// storing and indexing overlap on both cores; SQLite allows one writer per file. The
// stage reads the log in order, rebuilds the rows of the pages it names from what is
// stored (Doc), and records in the same transaction how far it got: a kill at any moment
// loses nothing, and the next open goes on from there. The file is derived data: when it
// is missing, of another version, of another workspace, or older or newer than the
// workspace, it is rebuilt from the stored pages; to the user the workspace is still one
// path.
//
// What a document to index is: Doc, one row per page, built by DocOf from what the
// workspace stores (store.IndexInput): a fetched page's stored text (title, headings,
// body, as the crawl's extractor summarised it), its URL and the anchor text of links
// pointing at it; a resource known only from links gets the anchor text and the titles of
// the pages citing it. A new kind of summary (a PDF's text, a main-content body) gets
// into the index by being stored as the page's text; a new field is a new column of
// page_fts and a new schemaVersion, which rebuilds every index.
//
// Searches read the workspace and the index together through SearchDB, a pool whose
// connections attach the index file. Rows come only from indexed pages; Progress says how
// far behind the crawl the index is.
package index

import (
	"context"
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"mundaneum/backend/store"
)

// ApplicationID marks an index file (PRAGMA application_id, "MUNI").
const ApplicationID = 0x4D554E49

// schemaVersion is the index file's format. Any change to its tables, its tokenizer or
// what a Doc holds bumps it: every index is then rebuilt from its workspace.
const schemaVersion = 4

//go:embed schema.sql
var schemaSQL string

// Source is the workspace the index reads (backend/store's Store satisfies it).
type Source interface {
	Path() string
	// Writer is the workspace's writer, nil when it is open read-only: only the process
	// that writes the workspace writes its index.
	Writer() *store.Writer
	WorkspaceID(ctx context.Context) (string, error)
	IndexLog(ctx context.Context, after int64, limit int) ([]store.LogEntry, error)
	IndexLogEnd(ctx context.Context) (int64, error)
	IndexLogPage(ctx context.Context, seq int64) (int64, bool, error)
	TrimIndexLog(ctx context.Context, before int64) error
	IndexInputs(ctx context.Context, ids []int64) ([]store.IndexInput, error)
	IndexablePages(ctx context.Context, after int64, limit int) ([]int64, error)
	OnIndexLog(fn func())
	// ExpandLinks commits what the writer holds and expands the links stored packed (the
	// index reads anchor text from expanded links only).
	ExpandLinks(ctx context.Context) error
}

// ErrNoIndex means the workspace has no usable index and this process cannot build one
// (it has the workspace open read-only).
var ErrNoIndex = errors.New("the workspace's search index is not built")

// Index is a workspace's open index.
type Index struct {
	src    Source
	path   string
	db     *sql.DB // the index's writer (one connection); nil when read-only
	search *sql.DB // the workspace with the index attached, for searches
	stat   *sql.DB // the same, unmapped, for Progress (a crawl that never searches stays small)
	st     *stage  // nil when read-only
	why    string  // why the index was reset when it was opened

	progress  progressCache
	closeOnce sync.Once
	closeErr  error
}

// Path is the index file of the workspace at workspace.
func Path(workspace string) string { return workspace + "-index" }

// Files lists the files of a workspace's index: the index, its SQLite companions, and the
// copy of its terms that searches keep beside it (backend/vocab), which goes with it.
func Files(workspace string) []string {
	p := Path(workspace)
	return []string{p, p + "-wal", p + "-shm", p + "-vocab"}
}

// Open opens the index of the workspace src. When src is writable, the index is created or
// validated (and queued for a rebuild when stale) and the stage starts following the
// workspace's log; a read-only index only reads what some writer built.
func Open(ctx context.Context, src Source) (*Index, error) {
	x := &Index{src: src, path: Path(src.Path())}
	if src.Writer() != nil {
		if err := x.openWriter(ctx); err != nil {
			return nil, err
		}
	}
	var err error
	if x.search, err = openPool(src.Path(), x.path, mmapSearch, 8); err != nil {
		x.Close()
		return nil, err
	}
	if x.stat, err = openPool(src.Path(), x.path, 0, 2); err != nil {
		x.Close()
		return nil, err
	}
	if x.db != nil {
		makeRoom()
		x.st = newStage(x)
		src.OnIndexLog(x.st.kick)
		go x.st.run()
	}
	return x, nil
}

// openWriter opens (creating if needed) the index file for writing, and resets it when it
// cannot be used as it is.
func (x *Index) openWriter(ctx context.Context) error {
	db, err := openIndexDB(x.path)
	if err != nil {
		return err
	}
	why, err := x.check(ctx, db)
	if err != nil && isNotADatabase(err) {
		// Not an SQLite file at all: it is derived data, start again.
		db.Close()
		for _, f := range Files(x.src.Path()) {
			if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("index: %w", err)
			}
		}
		if db, err = openIndexDB(x.path); err != nil {
			return err
		}
		why, err = "the index file was not readable", nil
	}
	if err != nil {
		db.Close()
		return err
	}
	x.db = db
	if why != "" {
		if err := x.reset(ctx, why); err != nil {
			db.Close()
			x.db = nil
			return err
		}
	}
	return nil
}

func openIndexDB(path string) (*sql.DB, error) {
	v := url.Values{}
	for _, p := range []string{
		"busy_timeout(10000)",
		"synchronous(NORMAL)",
		"temp_store(MEMORY)",
		"cache_size(-16000)",
		"journal_mode(WAL)",
		// A checkpointed WAL is cut back to 64 MiB instead of keeping its largest size.
		"journal_size_limit(" + strconv.Itoa(store.WALLimit) + ")",
	} {
		v.Add("_pragma", p)
	}
	v.Add("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path)+"?"+v.Encode())
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	db.SetMaxOpenConns(1)
	db.SetConnMaxIdleTime(0)
	return db, nil
}

func isNotADatabase(err error) bool {
	return strings.Contains(err.Error(), "not a database") || strings.Contains(err.Error(), "malformed")
}

// state is the row of index_state.
type state struct {
	Workspace      string
	Generation     int64
	Applied        int64
	AppliedPage    int64
	Rebuilding     bool
	RebuiltThrough int64
	Rows           int64
	present        bool
}

func readState(ctx context.Context, db interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, schema string) (state, error) {
	var s state
	err := db.QueryRowContext(ctx, `SELECT workspace, generation, applied, applied_page, rebuilding, rebuilt_through, rows
		FROM `+schema+`index_state`).Scan(&s.Workspace, &s.Generation, &s.Applied, &s.AppliedPage, &s.Rebuilding, &s.RebuiltThrough, &s.Rows)
	if errors.Is(err, sql.ErrNoRows) {
		return s, nil
	}
	if err != nil {
		return s, err
	}
	s.present = true
	return s, nil
}

// check says why the index file cannot be used as it is ("" when it can).
func (x *Index) check(ctx context.Context, db *sql.DB) (string, error) {
	var app, ver int
	if err := db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&app); err != nil {
		return "", fmt.Errorf("index: %w", err)
	}
	if err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&ver); err != nil {
		return "", fmt.Errorf("index: %w", err)
	}
	switch {
	case app == 0 && ver == 0:
		return "there was no index", nil
	case app != ApplicationID:
		return "the index file is not a Mundaneum index", nil
	case ver != formatVersion():
		return fmt.Sprintf("the index has format %d, this version of Mundaneum writes %d", ver, formatVersion()), nil
	}
	s, err := readState(ctx, db, "")
	if err != nil {
		return "", fmt.Errorf("index: %w", err)
	}
	return x.checkState(ctx, s)
}

// checkState says why an index in state s does not match the workspace ("" when it does).
func (x *Index) checkState(ctx context.Context, s state) (string, error) {
	ws, err := x.src.WorkspaceID(ctx)
	if err != nil {
		return "", err
	}
	if !s.present || s.Workspace != ws {
		return "the index belongs to another workspace", nil
	}
	if s.Applied == 0 {
		first, err := x.src.IndexLog(ctx, 0, 1)
		if err != nil {
			return "", err
		}
		if len(first) > 0 && first[0].Seq > 1 {
			return "the workspace has changes the index never saw", nil
		}
		return "", nil
	}
	page, ok, err := x.src.IndexLogPage(ctx, s.Applied)
	if err != nil {
		return "", err
	}
	if !ok || page != s.AppliedPage {
		return "the workspace and its index were saved at different times", nil
	}
	return "", nil
}

// reset empties the index and starts a rebuild from the stored pages.
func (x *Index) reset(ctx context.Context, why string) error {
	ws, err := x.src.WorkspaceID(ctx)
	if err != nil {
		return err
	}
	// The rebuild covers every change noted up to now: it reads the pages as they are.
	end, err := x.src.IndexLogEnd(ctx)
	if err != nil {
		return err
	}
	var endPage int64
	if end > 0 {
		if endPage, _, err = x.src.IndexLogPage(ctx, end); err != nil {
			return err
		}
	}
	conn, err := x.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	defer conn.Close()
	var gen int64
	if old, err := readState(ctx, conn, ""); err == nil {
		gen = old.Generation
	}
	// The new generation follows the clock as well as the old one: an index whose state was
	// lost (its file deleted, or not an index) starts past every index of the workspace
	// before it instead of at 1 again, so that what was derived from an older index (the
	// file of its terms beside it, backend/vocab) is never taken for this one's.
	gen = max(gen, time.Now().UnixMicro())
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	defer tx.Rollback()
	// Virtual tables first: dropping one drops its shadow tables.
	for _, kind := range []string{"AND sql LIKE 'CREATE VIRTUAL%'", ""} {
		rows, err := tx.QueryContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' `+kind)
		if err != nil {
			return fmt.Errorf("index: %w", err)
		}
		var names []string
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				rows.Close()
				return err
			}
			names = append(names, n)
		}
		rows.Close()
		for _, n := range names {
			if _, err := tx.ExecContext(ctx, `DROP TABLE IF EXISTS "`+strings.ReplaceAll(n, `"`, `""`)+`"`); err != nil {
				return fmt.Errorf("index: drop %s: %w", n, err)
			}
		}
	}
	if _, err := tx.ExecContext(ctx, schema()); err != nil {
		return fmt.Errorf("index: create: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO index_state(id, workspace, generation, applied, applied_page, rebuilding, rebuilt_through, rows)
		VALUES (1, ?, ?, ?, ?, 1, 0, 0)`, ws, gen+1, end, endPage); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA application_id = %d; PRAGMA user_version = %d`, ApplicationID, formatVersion())); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	x.why = why // reported by Progress while the rebuild runs
	return nil
}

// SearchDB is the pool searches read through: the workspace, with the index attached
// (both read-only, mapped into memory). Its connections open on first use.
func (x *Index) SearchDB() *sql.DB { return x.search }

// Close stops the stage (its current step commits or rolls back) and closes the files.
func (x *Index) Close() error {
	x.closeOnce.Do(func() {
		var errs []error
		if x.st != nil {
			errs = append(errs, x.st.close())
		}
		for _, db := range []*sql.DB{x.search, x.stat} {
			if db != nil {
				errs = append(errs, db.Close())
			}
		}
		if x.db != nil {
			errs = append(errs, x.db.Close())
		}
		x.closeErr = errors.Join(errs...)
	})
	return x.closeErr
}
