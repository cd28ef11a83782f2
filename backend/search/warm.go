package search

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"mundaneum/backend/priority"
)

// A searcher that answers many queries (the window's, serve's) is prepared once, when its
// workspace opens. A workspace just opened answers from a cold disk: at a million pages the
// first query read about a thousand scattered pages (the index's doclists and row sizes,
// the pages' titles and URLs, their citations, their texts) and took 1.3 s, and the queries
// after it waited on the disk whenever they reached a part not read yet (p99 68 ms, against
// 33 ms warm). So Prepare starts, in the background, what the queries need: the index's
// terms in memory (from their file, see backend/vocab), the citation counts and the pair
// index's frequent words in memory, and the files read into the OS's cache, the index
// first (every query reads its doclists), then the workspace (the pages' rows and texts),
// in large sequential reads at the lowest CPU and I/O priority, so that a query running
// meanwhile waits for neither. The reading stops at half of the memory the OS says is
// available, and when ctx ends (the workspace closes).

// warmChunk is how much one read of a file asks for.
const warmChunk = 1 << 20

// Prepare readies the searcher for many queries (see above) and returns at once; the
// readying ends with ctx or Close.
func (s *Searcher) Prepare(ctx context.Context) {
	s.bg.mu.Lock()
	defer s.bg.mu.Unlock()
	if s.bg.closed {
		return
	}
	ctx, stop := context.WithCancel(ctx)
	s.bg.stop = append(s.bg.stop, stop)
	s.vocab.Prepare(ctx)
	s.bg.wg.Add(1)
	go func() {
		defer s.bg.wg.Done()
		runtime.LockOSThread()  // the thread's priority is lowered for good: it ends with the goroutine
		_, _ = priority.Lower() // below the process, never so low that a collection waits for it
		priority.IdleIO()       // its reads wait until no one else reads the disk
		_, _ = s.warm(ctx)      // only ever faster: a failure leaves the queries to read what they need
	}()
}

// Close stops what Prepare started and waits for it to end: once it returns, nothing the
// searcher started reads the workspace or writes beside it. The pool is the caller's.
func (s *Searcher) Close() {
	s.bg.mu.Lock()
	s.bg.closed = true
	for _, stop := range s.bg.stop {
		stop()
	}
	s.bg.mu.Unlock()
	s.vocab.Close()
	s.bg.wg.Wait()
}

// warm loads the citation counts and the frequent words, and reads the index's and the
// workspace's files into the OS's cache; it returns how many bytes of the files it read.
func (s *Searcher) warm(ctx context.Context) (int64, error) {
	if s.w.Pairs {
		if _, err := s.pairs.frequent(ctx, s.db.DB); err != nil {
			return 0, err
		}
	}
	maxPage, err := s.estimator().maxRowid(ctx)
	if err != nil {
		return 0, err
	}
	s.cites.loadNow(ctx, s.db, maxPage)
	files, err := s.files(ctx)
	if err != nil {
		return 0, err
	}
	budget := availableMemory() / 2
	read := int64(0)
	buf := make([]byte, warmChunk)
	for _, f := range files {
		n, err := readThrough(ctx, f, buf, budget-read)
		read += n
		if err != nil || read >= budget {
			return read, err
		}
	}
	return read, nil
}

// files returns the index's file and the workspace's, in the order warm reads them.
func (s *Searcher) files(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, file FROM pragma_database_list`)
	if err != nil {
		return nil, fmt.Errorf("warm: %w", err)
	}
	defer rows.Close()
	var main, idx string
	for rows.Next() {
		var name, file string
		if err := rows.Scan(&name, &file); err != nil {
			return nil, fmt.Errorf("warm: %w", err)
		}
		switch name {
		case "main":
			main = file
		case "idx":
			idx = file
		}
	}
	var out []string
	for _, f := range []string{idx, main} {
		if f != "" {
			out = append(out, f)
		}
	}
	return out, rows.Err()
}

// readThrough reads the file at path from its start, at most max bytes, and returns how
// many it read.
func readThrough(ctx context.Context, path string, buf []byte, max int64) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("warm: %w", err)
	}
	defer f.Close()
	read := int64(0)
	for read < max {
		if err := ctx.Err(); err != nil {
			return read, err
		}
		n, err := f.ReadAt(buf, read)
		read += int64(n)
		if errors.Is(err, io.EOF) {
			return read, nil
		}
		if err != nil {
			return read, fmt.Errorf("warm: %w", err)
		}
	}
	return read, nil
}
