package index

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"

	"modernc.org/sqlite"

	"mundaneum/backend/store"
)

// mmapSearch is how many bytes of each file (the workspace, the index) a search connection
// maps into memory: as many as SQLite allows (its build caps mmap_size at 2 GiB). A mapped
// page is read without a system call and a copy (docs/benchmarks.md, "Search latency").
// The store's readers and the writers map nothing: mapped pages count in the process's
// resident size, and a crawl that never searches keeps it small.
const mmapSearch = 2 << 30

// IndexSchema is the name the index file is attached under on search connections. Its
// tables' names are distinct from the workspace's, so queries name them unqualified.
const IndexSchema = "idx"

// openPool opens a read-only pool over the workspace at ws, with the index at path
// attached to each connection (when it exists when the connection opens), both files
// mapped into memory up to mmap bytes.
func openPool(ws, path string, mmap, conns int) (*sql.DB, error) {
	base, err := sqlite.NewConnector(store.ReadDSN(ws, "mmap_size("+strconv.Itoa(mmap)+")"))
	if err != nil {
		return nil, fmt.Errorf("search pool: %w", err)
	}
	a := attacher{Connector: base, ws: ws, path: path, mmap: mmap}
	if mmap > 0 && canAdvise {
		a.watch = newFileWatch(map[string]string{"main": ws, IndexSchema: path})
	}
	db := sql.OpenDB(a)
	db.SetMaxOpenConns(conns)
	// Every connection stays open once made: database/sql keeps two idle by default, and
	// a search that reads on more at once (its snippets in parts, a facets request beside
	// it) would open the others again each time, attaching the index and reading the
	// schema, and lose their page caches and prepared statements.
	db.SetMaxIdleConns(conns)
	return db, nil
}

// attacher opens workspace connections and attaches the index to each.
type attacher struct {
	driver.Connector
	ws    string // the workspace's file
	path  string
	mmap  int
	watch *fileWatch // the files' changes, for the maps' advice (advise.go); nil: none
}

func (a attacher) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := a.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(a.path); errors.Is(err, fs.ErrNotExist) {
		return c, nil // no index yet: searches say so (ErrNoIndex)
	}
	ex, ok := c.(driver.ExecerContext)
	if !ok {
		c.Close()
		return nil, errors.New("search pool: the driver cannot attach")
	}
	if _, err := ex.ExecContext(ctx, `ATTACH DATABASE ? AS `+IndexSchema, []driver.NamedValue{{Ordinal: 1, Value: a.path}}); err != nil {
		c.Close()
		return nil, fmt.Errorf("search pool: attach the index: %w", err)
	}
	if _, err := ex.ExecContext(ctx, `PRAGMA `+IndexSchema+`.mmap_size = `+strconv.Itoa(a.mmap)+`; PRAGMA `+IndexSchema+`.cache_size = -4000`, nil); err != nil {
		c.Close()
		return nil, fmt.Errorf("search pool: %w", err)
	}
	if a.mmap > 0 {
		return advised(ctx, c, map[string]string{"main": a.ws, IndexSchema: a.path}, a.watch), nil
	}
	return c, nil
}
