package index

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// A search connection maps the workspace and the index into memory (mmapSearch), and a
// page of a mapped file not yet in the OS's cache is read when a query first touches it.
// Linux then reads around it as for a file read in sequence: read_ahead_kb on each side,
// 8 MiB on the virtual disks where the benchmarks run. A b-tree is not read in sequence:
// the first query on a workspace just opened touched a few hundred scattered pages and
// read 265 MB for them (docs/benchmarks.md, "cold-1m"). So each search connection's maps
// of both files are marked for random reads (madvise MADV_RANDOM, as LMDB does with its
// map): a page touched is read alone, and Prepare's warm reads the files in sequence
// behind the first queries.
//
// SQLite maps a file when a query first reads one of its pages past the first, and the
// advice can only be given to a map that exists; so a new connection first has each file
// mapped by reading a small table's root page, read on its own into the OS's cache
// beforehand, and then advises the maps.

// SQLite drops a connection's maps and makes new ones when it sees that another connection
// changed the file (a read transaction that finds the WAL changed unmaps; a file grown by a
// checkpoint is mapped again at its new size), and a new map has no advice: a window left
// open while a crawl runs would read around again. So each search connection is advised
// again when it is taken from the pool (ResetSession) if the files or their WALs changed
// since it was last advised (their sizes and times, looked at by the pool at most once per
// watchEvery). The query that made new maps (the first after a change) ran without the
// advice; those after it have it.

// searchConn is what database/sql asks of a search connection (modernc's has it all).
type searchConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// advisedConn is a search connection whose maps are advised again when they may be new.
type advisedConn struct {
	searchConn
	files map[string]string // schema to path
	watch *fileWatch        // the pool's
	seen  uint64            // the watch's count of changes when the maps were last advised
}

// fileWatch tells the connections of a pool whether the files or their WALs changed: it
// looks (four stat calls) at most once per watchEvery, however many connections are taken
// (a search takes several: a stat each time cost 2% of the searches' CPU).
type fileWatch struct {
	paths   []string // the files and their WALs
	mu      sync.Mutex
	at      time.Time
	stamps  []fileStamp
	changes uint64
}

// watchEvery is how often at most a pool looks at its files: a query that begins within it
// after another connection's commit maps without the advice, and those after it have it.
// A variable for tests.
var watchEvery = 20 * time.Millisecond

type fileStamp struct{ size, mod int64 }

func newFileWatch(files map[string]string) *fileWatch {
	w := &fileWatch{}
	for _, schema := range []string{"main", IndexSchema} {
		if path, ok := files[schema]; ok {
			w.paths = append(w.paths, path, path+"-wal")
		}
	}
	w.stamps, w.at = w.look(), time.Now()
	return w
}

// count returns how many times the files were seen to change.
func (w *fileWatch) count() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if now := time.Now(); now.Sub(w.at) >= watchEvery {
		w.at = now
		if s := w.look(); !slices.Equal(s, w.stamps) {
			w.stamps = s
			w.changes++
		}
	}
	return w.changes
}

// look returns the sizes and times of the files, in order.
func (w *fileWatch) look() []fileStamp {
	out := make([]fileStamp, len(w.paths))
	for i, p := range w.paths {
		if fi, err := os.Stat(p); err == nil {
			out[i] = fileStamp{fi.Size(), fi.ModTime().UnixNano()}
		}
	}
	return out
}

// advised advises c's maps of files (schema to path) and returns c made to advise them
// again when the pool's watch sees the files change; c itself where the OS takes no advice.
func advised(ctx context.Context, c driver.Conn, files map[string]string, watch *fileWatch) driver.Conn {
	if !canAdvise {
		return c
	}
	sc, ok := c.(searchConn)
	if !ok || watch == nil {
		adviseRandom(ctx, c, files)
		return c
	}
	a := &advisedConn{searchConn: sc, files: files, watch: watch, seen: watch.count()}
	adviseRandom(ctx, c, files)
	return a
}

// ResetSession runs before the pool hands the connection out again.
func (a *advisedConn) ResetSession(ctx context.Context) error {
	if err := a.searchConn.ResetSession(ctx); err != nil {
		return err
	}
	if n := a.watch.count(); n != a.seen {
		a.seen = n
		adviseRandom(ctx, a.searchConn, a.files)
	}
	return nil
}

// adviseRandom maps the files of conn's schemas (name to path) with no reading around
// and marks every map of them in the process for random reads. It does nothing where the
// OS takes no such advice; a failure leaves the maps as they are (only slower when cold).
func adviseRandom(ctx context.Context, conn driver.Conn, files map[string]string) {
	if !canAdvise {
		return
	}
	q, ok := conn.(driver.QueryerContext)
	if !ok {
		return
	}
	paths := make([]string, 0, len(files))
	for schema, path := range files {
		_ = mapQuietly(ctx, q, schema, path)
		paths = append(paths, path)
	}
	adviseMapped(paths...)
}

// mapQuietly has SQLite map the file of schema (at path) by reading a table whose root
// page is a leaf, after that page was read into the OS's cache on its own.
func mapQuietly(ctx context.Context, q driver.QueryerContext, schema, path string) error {
	pageSize, err := queryInt(ctx, q, `PRAGMA "`+schema+`".page_size`)
	if err != nil || pageSize < 512 {
		return err
	}
	rows, err := q.QueryContext(ctx, `SELECT name, rootpage FROM "`+schema+`".sqlite_schema
		WHERE type = 'table' AND rootpage > 1 AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY rootpage LIMIT 16`, nil)
	if err != nil {
		return err
	}
	type table struct {
		name string
		root int64
	}
	var tables []table
	v := make([]driver.Value, 2)
	for rows.Next(v) == nil {
		name, _ := v[0].(string)
		root, _ := v[1].(int64)
		tables = append(tables, table{name, root})
	}
	rows.Close()
	for _, t := range tables {
		page, err := cachePage(path, (t.root-1)*pageSize, pageSize)
		if err != nil {
			return err
		}
		const tableLeaf = 13 // the b-tree page type of a table's leaf
		if len(page) == 0 || page[0] != tableLeaf {
			continue
		}
		_, err = queryInt(ctx, q, `SELECT 1 FROM "`+schema+`"."`+strings.ReplaceAll(t.name, `"`, `""`)+`" LIMIT 1`)
		if errors.Is(err, io.EOF) {
			err = nil // an empty table is mapped all the same
		}
		return err
	}
	return nil
}

// queryInt runs a query of one integer on conn.
func queryInt(ctx context.Context, q driver.QueryerContext, query string) (int64, error) {
	rows, err := q.QueryContext(ctx, query, nil)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	v := make([]driver.Value, len(rows.Columns()))
	if err := rows.Next(v); err != nil {
		return 0, err
	}
	n, _ := v[0].(int64)
	return n, nil
}
