package store

import (
	"bytes"
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mundaneum/backend/sqlcache"
	"mundaneum/backend/walcap"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"
	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

// The workspace itself: opening it (pragmas, migrations, the lock), its pools and its
// writer, closing it. See doc.go for the map of the other domains' files.

// ApplicationID marks a SQLite file as a Mundaneum workspace (PRAGMA application_id, "MUND").
const ApplicationID = 0x4D554E44

var (
	// ErrLocked means another process has the workspace open for writing.
	ErrLocked = errors.New("workspace is in use by another process")
	// ErrNotWorkspace means the file exists but is not a Mundaneum workspace.
	ErrNotWorkspace = errors.New("not a mundaneum workspace")
	// ErrTooNew means the workspace was written by a newer Mundaneum.
	ErrTooNew = errors.New("workspace was created by a newer version of mundaneum")
	// ErrNotFound is returned when a requested row does not exist.
	ErrNotFound = errors.New("not found")
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// Options tune Open.
type Options struct {
	// ReadOnly opens without taking the writer lock: for search and status while another
	// process crawls. Writes fail.
	ReadOnly bool
	// Shared opens beside the process that owns the workspace (the window, serve or a
	// crawl), for short writes through Update that wait their turn (see shared.go). The
	// store has no Writer: crawling and index work need the workspace to themselves. A
	// shared open of a workspace nobody owns upgrades its schema first.
	Shared bool
	// BatchSize and BatchDelay bound one writer transaction (defaults 4096 ops, 1 s).
	BatchSize  int
	BatchDelay time.Duration
	// HoldLinks keeps the links a crawl stores packed until ExpandLinks is called, instead
	// of expanding them behind the crawl: for tests of what readers see while the
	// expansion lags.
	HoldLinks bool
}

// Store is an open workspace.
type Store struct {
	path   string
	lock   *flock.Flock
	read   *sqlcache.DB // the read pool, its statements prepared once per connection
	writer *Writer      // nil when read-only or shared
	short  *Writer      // the short writes of a shared store (see Update)
	ids    ids          // writer-goroutine-only caches
	closed sync.Once
	err    error    // of Close
	log    indexLog // the index's notes of the current batch
	keep   int      // versions a page keeps, 0 all, -1 unknown yet (writer goroutine only)
	// crawlKeep are the crawls' own settings' limits (nil: not read yet; writer goroutine only).
	crawlKeep map[int64]int
	census    censusCache // what the skipped rows hold (counts.go)
	// expand expands link packs behind the crawl (linkpack.go); nil without a writer.
	expand *expander
}

// DefaultPath is the workspace in the user's data directory ($XDG_DATA_HOME or
// ~/.local/share on Linux, the platform's config directory elsewhere).
func DefaultPath() (string, error) {
	dir := os.Getenv("XDG_DATA_HOME")
	if dir == "" && runtime.GOOS == "linux" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find data directory: %w", err)
		}
		dir = filepath.Join(home, ".local", "share")
	}
	if dir == "" {
		var err error
		if dir, err = os.UserConfigDir(); err != nil {
			return "", fmt.Errorf("find data directory: %w", err)
		}
	}
	return filepath.Join(dir, "mundaneum", "workspace.mundaneum"), nil
}

// Open opens (creating if needed) the workspace at path.
func Open(ctx context.Context, path string, opt Options) (*Store, error) {
	if err := checkHeader(path); err != nil {
		return nil, err
	}
	s := &Store{path: path, ids: ids{pages: map[string]int64{}, hosts: map[string]int64{}},
		log: indexLog{pages: map[int64]bool{}}, keep: -1}
	if opt.Shared && !opt.ReadOnly {
		if err := s.openShared(ctx); err != nil {
			return nil, err
		}
	} else if !opt.ReadOnly {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("create workspace directory: %w", err)
		}
		s.lock = flock.New(path + ".lock")
		ok, err := s.lock.TryLock()
		if err != nil {
			return nil, fmt.Errorf("lock workspace: %w", err)
		}
		if !ok {
			held := &HeldError{Path: path}
			if h, ok := ReadHolder(path); ok {
				held.Holder = &h
			}
			return nil, held
		}
		// Who holds it, for a second owner's message (holder.go); the lock works without.
		_ = writeHolder(path + ".lock")
		wdb, err := sql.Open("sqlite", dsn(path, false))
		if err != nil {
			clearHolder(s.lock.Path())
			s.lock.Unlock()
			return nil, err
		}
		wdb.SetMaxOpenConns(1)
		wdb.SetConnMaxIdleTime(0)
		if err := migrate(ctx, wdb); err != nil {
			wdb.Close()
			clearHolder(s.lock.Path())
			s.lock.Unlock()
			return nil, err
		}
		s.writer = newWriter(wdb, opt.BatchSize, opt.BatchDelay, s.writeLog, s.resetLog)
		s.writer.gate = ownerTurn(path)
		s.writer.walCap = walcap.New(path, WALLimit, walWait)
	} else if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open workspace: %w", err)
	}
	rdb, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		s.Close()
		return nil, err
	}
	rdb.SetMaxOpenConns(8)
	rdb.SetMaxIdleConns(8) // kept with their page caches and prepared statements (sqlcache)
	s.read = sqlcache.New(rdb, readStatements)
	if opt.ReadOnly || s.short != nil {
		if err := checkReadable(ctx, rdb); err != nil {
			s.Close()
			return nil, err
		}
	}
	if s.writer != nil {
		s.expand = newExpander()
		if opt.HoldLinks {
			close(s.expand.stopped)
		} else {
			go s.runExpander()
		}
	}
	return s, nil
}

// readStatements is how many statements the read pool keeps prepared.
const readStatements = 64

// WALLimit is the workspace's write-ahead log's journal_size_limit and the limit of its
// walcap: after a batch, a log left holding more than a quarter of it is restarted, a
// file larger than it emptied, the writer waiting up to walWait for readers of older
// snapshots (backend/walcap). The index's log has the same limit.
const WALLimit = 64 << 20

const walWait = 200 * time.Millisecond

// ReadDSN is the data source name of a read-only connection to the workspace at path, with
// pragmas added to the usual ones (the index's search pool opens its connections with it).
func ReadDSN(path string, pragmas ...string) string { return dsn(path, true, pragmas...) }

// dsn is the data source name of a connection to the workspace at path, with pragmas
// added to the usual ones.
func dsn(path string, readOnly bool, pragmas ...string) string {
	v := url.Values{}
	// The writer gets a larger page cache than each reader.
	cache := "cache_size(-4000)"
	if !readOnly {
		cache = "cache_size(-16000)"
	}
	for _, p := range []string{
		"busy_timeout(10000)",
		"foreign_keys(1)",
		"synchronous(NORMAL)",
		"temp_store(MEMORY)",
		cache,
	} {
		v.Add("_pragma", p)
	}
	for _, p := range pragmas {
		v.Add("_pragma", p)
	}
	if readOnly {
		v.Add("_pragma", "query_only(1)")
	} else {
		v.Add("_pragma", "journal_mode(WAL)")
		// REPLACE conflict resolution then fires delete triggers, which keep counts exact.
		v.Add("_pragma", "recursive_triggers(1)")
		// A checkpointed WAL is cut back to 64 MiB instead of keeping its largest size.
		v.Add("_pragma", "journal_size_limit("+strconv.Itoa(WALLimit)+")")
		v.Add("_txlock", "immediate")
	}
	return "file:" + filepath.ToSlash(path) + "?" + v.Encode()
}

// checkHeader rejects an existing file that is not SQLite before the driver touches it.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open workspace: %w", err)
	}
	defer f.Close()
	head := make([]byte, 16)
	n, err := io.ReadFull(f, head)
	if n == 0 && (err == io.EOF || err == io.ErrUnexpectedEOF) {
		return nil // empty file: a new workspace
	}
	if !bytes.Equal(head[:n], []byte("SQLite format 3\x00")) {
		return fmt.Errorf("%s: %w (not a SQLite file)", path, ErrNotWorkspace)
	}
	return nil
}

func checkReadable(ctx context.Context, db *sql.DB) error {
	var app, ver int
	if err := db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&app); err != nil {
		return fmt.Errorf("read workspace: %w", err)
	}
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&ver); err != nil {
		return fmt.Errorf("read workspace: %w", err)
	}
	if app != ApplicationID {
		return ErrNotWorkspace
	}
	if ver > latestVersion() {
		return ErrTooNew
	}
	if ver < latestVersion() {
		return fmt.Errorf("workspace was made by an older mundaneum and needs an upgrade, which reading does not do: open it once with a command that writes (crawl, serve, views save) or the window: %w", ErrNotWorkspace)
	}
	return nil
}

type migration struct {
	version int
	name    string
}

func migrations() []migration {
	entries, _ := fs.ReadDir(migrationFS, "migrations")
	var ms []migration
	for _, e := range entries {
		n, err := strconv.Atoi(strings.SplitN(e.Name(), "_", 2)[0])
		if err == nil {
			ms = append(ms, migration{n, e.Name()})
		}
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	return ms
}

// latestVersion is the newest migration's number: the schema version of this build.
func latestVersion() int {
	ms := migrations()
	if len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

// migrate brings the schema to the newest version, each migration in its own transaction.
func migrate(ctx context.Context, db *sql.DB) error {
	var app, ver, tables int
	if err := db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&app); err != nil {
		if strings.Contains(err.Error(), "not a database") {
			return ErrNotWorkspace
		}
		return fmt.Errorf("read workspace: %w", err)
	}
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&ver); err != nil {
		return fmt.Errorf("read workspace: %w", err)
	}
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&tables); err != nil {
		return fmt.Errorf("read workspace: %w", err)
	}
	if app != ApplicationID && (tables > 0 || ver > 0) {
		return ErrNotWorkspace
	}
	ms := migrations()
	if ver > latestVersion() {
		return ErrTooNew
	}
	for _, m := range ms {
		if m.version <= ver {
			continue
		}
		body, err := migrationFS.ReadFile("migrations/" + m.name)
		if err != nil {
			return err
		}
		if err := applyMigration(ctx, db, m.version, string(body)); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	return nil
}

func applyMigration(ctx context.Context, db *sql.DB, version int, body string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, body); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = %d", ApplicationID, version)); err != nil {
		return err
	}
	return tx.Commit()
}

// WriterActive reports whether some process (this one included) has the workspace open for
// writing: a crawl marked running in a workspace nobody writes was interrupted.
func (s *Store) WriterActive() bool {
	if s.writer != nil {
		return true
	}
	l := flock.New(s.path + ".lock")
	ok, err := l.TryLock()
	if err != nil || !ok {
		return true
	}
	l.Unlock()
	return false
}

// Path is the workspace file.
func (s *Store) Path() string { return s.path }

// ReadDB is the pool for reads. Readers see committed data only.
func (s *Store) ReadDB() *sql.DB { return s.read.DB }

// Writer is the single writer, nil for a read-only store.
func (s *Store) Writer() *Writer { return s.writer }

// Flush commits what was given to the writer so far (an Enqueue outside a crawl's run):
// readers see it once Flush returns.
func (s *Store) Flush(ctx context.Context) error { return s.writer.Flush(ctx) }

// Close flushes pending writes and closes the workspace. Closing again does nothing.
func (s *Store) Close() error {
	s.closed.Do(func() {
		var errs []error
		if s.expand != nil {
			close(s.expand.stop)
			<-s.expand.stopped
		}
		for _, w := range []*Writer{s.writer, s.short} {
			if w != nil {
				errs = append(errs, w.Close())
			}
		}
		if s.read != nil {
			errs = append(errs, s.closeCensus(), s.read.Close())
		}
		if s.lock != nil {
			clearHolder(s.lock.Path())
			errs = append(errs, s.lock.Unlock())
		}
		s.err = errors.Join(errs...)
	})
	return s.err
}

// IntegrityCheck runs PRAGMA integrity_check and returns its verdict ("ok" when sound).
func (s *Store) IntegrityCheck(ctx context.Context) (string, error) {
	rows, err := s.read.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return "", err
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n"), rows.Err()
}

func nowMs() int64 { return time.Now().UnixMilli() }
