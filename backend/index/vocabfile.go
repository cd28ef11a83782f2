package index

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
)

// The file of the index's terms (backend/vocab keeps it beside the index: Files lists it)
// lets a search opened on a large workspace have its vocabulary at once instead of reading
// every leaf of the index (23.9 s at a million pages from a cold disk). A search that keeps
// its vocabulary writes the file as it reads; the stage writes it too, when idle and
// merged; and, for an index of VocabWaitRows rows or more, before it tells anyone waiting
// for the index that it caught up (the end of a crawl, of a rebuild); and as soon as a
// rebuild ends, before the idle work (the pair index of a million pages takes half an
// hour), so that the first search after a crawl or a rebuild finds it current. It is
// written again only when the index's segments changed.

// VocabWaitRows is the size of the index from which a waiter is told the index caught up
// only once the file of its terms is written too. Below it, a search reads the terms from
// the index itself in well under a second, and writing the file from nothing would add to
// the end of every small crawl (1.7 s at 100,000 pages, warm). A variable for tests.
var VocabWaitRows int64 = 50_000

// holdsWaiters reports whether waiters wait for the file of the terms (the index is large
// enough: VocabWaitRows).
func (s *stage) holdsWaiters() bool { return s.state.Rows >= VocabWaitRows }

// VocabularyWriter brings the file of the terms of the index db reads up to date
// (backend/vocab's WriteFile).
type VocabularyWriter func(ctx context.Context, db *sql.DB) error

// KeepVocabularyFile asks the stage to keep the file of the index's terms written with w
// when it is idle. The index does not know how the file is made: the caller that opens it
// does (index cannot import backend/vocab, whose tests build indexes).
func (x *Index) KeepVocabularyFile(w VocabularyWriter) {
	if x.st == nil {
		return
	}
	x.st.mu.Lock()
	x.st.vocabWriter = w
	x.st.mu.Unlock()
}

// vocabStep writes the file of the terms when the index's segments changed since it last
// did (the structure record tells), and reports whether it did. A failure to write it is
// reported once for those segments: the file is only ever a head start.
func (s *stage) vocabStep() (bool, error) {
	s.mu.Lock()
	w := s.vocabWriter
	s.mu.Unlock()
	if w == nil {
		return false, nil
	}
	// Tried once for the rows written up to here, written or not: a failure is reported,
	// and waiters are not held back by a file that is only a head start.
	s.vocabDue, s.vocabAt = false, s.state.Applied
	var record []byte
	err := s.x.db.QueryRowContext(s.ctx, `SELECT block FROM page_fts_data WHERE id = 10`).Scan(&record)
	if err != nil {
		return false, fmt.Errorf("index: structure record: %w", err)
	}
	if s.vocabFor != nil && bytes.Equal(record, s.vocabFor) {
		return false, nil
	}
	s.vocabFor = record
	if err := w(s.ctx, s.x.db); err != nil {
		return false, fmt.Errorf("index: %w", err)
	}
	return true, nil
}
