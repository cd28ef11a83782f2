package vocab

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// The vocabulary in memory: a copy of the index's terms, kept by a long-lived Vocabulary
// (the window's, serve's) once Prepare asks for it, so that an approximate word
// (approx.go) finds its terms with binary searches instead of reading the index's b-tree
// and probing a few hundred strings with MATCH at every query.
//
// It is built once per index generation by reading every leaf page that starts a term
// (the pages btree.go reads a prefix's terms from, all of them) on a goroutine of
// its own; until it is ready, and whenever it cannot be kept current, approximate words
// are answered from the b-tree as before, so the vocabulary is only ever a faster path.
//
// It stays current as the crawl adds words without being rebuilt. FTS5 writes new rows
// into new segments and merges segments into larger ones; a merge makes no new terms.
// Every segment carries the range of "origins" (one per flush of new rows) it holds, in
// FTS5's structure record (rowid 10 of page_fts_data; contentless_delete tables always
// write its version with origins), and live segments hold disjoint, consecutive ranges.
// So the vocabulary remembers which origins it has read: a segment whose range it has
// read (a merge of segments already read) costs nothing, and a new one, a flush of the
// last batch of pages, is a few leaf pages, read during the query that first sees it.
// Only when the new segments hold more than vocabInlinePages pages (a rebuild, a bulk
// load) are they read in the background again, the b-tree answering meanwhile. The terms
// only accumulate: a term whose rows were all deleted stays, as it stays in a segment
// until the next merge, and matches nothing.

const (
	// vocabInlinePages bounds the leaf pages a query reads to bring the vocabulary up to
	// date (a flush of a crawl's batch is a few dozen).
	vocabInlinePages = 256
	// maxVocabTerms bounds the vocabulary (about 30 bytes a term in memory): an index with
	// more terms is left to the b-tree.
	maxVocabTerms = 10_000_000
	// vocabMergeAt is how many terms added since the build are kept apart (in a map)
	// before they are merged into the sorted list.
	vocabMergeAt = 4096
	// vocabPrefixBudget bounds the terms an approximate word compares itself with (those
	// sharing its first k letters), as prefixPageBudget bounds the pages read from the
	// b-tree.
	vocabPrefixBudget = 3000
)

// inMemory is a Vocabulary's copy of the index's terms (see above).
type inMemory struct {
	mu       sync.Mutex
	wanted   bool // Prepare was called
	building bool // a goroutine is reading segments
	ready    bool // terms reflect record
	gen      int64
	record   []byte       // the structure record the terms are current with
	covered  []originSpan // the origins read, sorted and disjoint
	terms    []string     // sorted
	weight   []uint32     // per term: its doclist bytes (a frequency proxy)
	added    map[string]uint32
	built    time.Duration // how long the first build took
	err      error
	// The file of the terms (snapshot.go): how many terms the first build took from it (and
	// how many leaf pages of the index it read besides), whether the terms changed since it
	// was written, and its writing.
	fromFile  int
	readPages int64
	dirty     bool
	saving    bool // a write is under way or scheduled
	savedAt   time.Time
	saveErr   error
	// What runs in the background (a build, a write of the file) runs under life, which
	// Close ends; Close then waits for it (wg), and nothing starts once closed.
	life   context.Context
	end    context.CancelFunc
	wg     sync.WaitGroup
	closed bool
	timer  *time.Timer // a write scheduled for later
}

func newInMemory() *inMemory {
	m := &inMemory{}
	m.life, m.end = context.WithCancel(context.Background())
	return m
}

// originSpan is a range of FTS5 origins, both ends included.
type originSpan struct{ lo, hi uint64 }

// ftsSegment is a segment as FTS5's structure record describes it.
type ftsSegment struct {
	id, first, last  int64 // segment id, first and last leaf page
	origin1, origin2 uint64
}

// ftsStructureV2 follows the cookie in a structure record that lists segment origins.
var ftsStructureV2 = []byte{0xff, 0x00, 0x00, 0x01}

// parseStructure decodes FTS5's structure record: a 4-byte cookie, the V2 marker, the
// number of levels and of segments and the write counter, then per level the number of
// segments being merged and of segments, and per segment its id, first and last leaf
// page, origins and tombstone counts (fts5_index.c, fts5StructureDecode). ok is false for
// a record without origins or one that does not parse.
func parseStructure(b []byte) (segs []ftsSegment, ok bool) {
	if len(b) < 8 || !bytes.Equal(b[4:8], ftsStructureV2) {
		return nil, false
	}
	i := 8
	bad := false
	next := func() uint64 {
		v, n := ftsVarint(b[i:])
		if n == 0 {
			bad = true
		}
		i += n
		return v
	}
	levels, total := next(), next()
	next() // the write counter
	// FTS5_MAX_SEGMENT bounds both counts.
	const maxSegments = 2000
	if bad || levels > maxSegments || total > maxSegments {
		return nil, false
	}
	for range levels {
		next() // segments being merged
		n := next()
		if bad || n > total-uint64(len(segs)) {
			return nil, false
		}
		for range n {
			s := ftsSegment{id: int64(next()), first: int64(next()), last: int64(next()), origin1: next(), origin2: next()}
			next()
			next()
			next() // tombstone pages, tombstone entries, entries
			if bad || s.id <= 0 || s.first < 0 || s.last < s.first || s.origin2 < s.origin1 {
				return nil, false
			}
			segs = append(segs, s)
		}
	}
	return segs, !bad && uint64(len(segs)) == total
}

// covers reports whether the origins of s have all been read.
func covers(spans []originSpan, s ftsSegment) bool {
	i, _ := slices.BinarySearchFunc(spans, s.origin1, func(sp originSpan, o uint64) int {
		switch {
		case sp.hi < o:
			return -1
		case sp.lo > o:
			return 1
		}
		return 0
	})
	return i < len(spans) && spans[i].lo <= s.origin1 && spans[i].hi >= s.origin2
}

// addSpan returns spans with s's origins added, adjacent ranges joined.
func addSpan(spans []originSpan, s ftsSegment) []originSpan {
	spans = append(slices.Clone(spans), originSpan{s.origin1, s.origin2})
	slices.SortFunc(spans, func(a, b originSpan) int { return cmpU64(a.lo, b.lo) })
	out := spans[:1]
	for _, sp := range spans[1:] {
		last := &out[len(out)-1]
		if sp.lo <= last.hi+1 {
			last.hi = max(last.hi, sp.hi)
		} else {
			out = append(out, sp)
		}
	}
	return out
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// vocabState is what the index says now: its generation and structure record.
const vocabStateSQL = `SELECT (SELECT generation FROM index_state), (SELECT block FROM page_fts_data WHERE id = 10)`

// segmentTermsSQL returns the leaf pages of segment @seg that start a term, in order, with
// their page numbers.
const segmentTermsSQL = `SELECT i.pgno >> 1, d.block FROM page_fts_idx i
	JOIN page_fts_data d ON d.id = (i.segid << 37) + (i.pgno >> 1)
	WHERE i.segid = @seg ORDER BY i.segid, i.term`

// delta is what reading the segments not yet read found.
type delta struct {
	gen     int64
	record  []byte
	covered []originSpan
	terms   map[string]uint32
	pages   int64 // leaf pages of the segments read
	tooBig  bool  // more than maxPages pages to read: nothing was read
}

// readNew reads, in one snapshot of the index, the terms of the segments whose origins
// are not in covered, unless they hold more than maxPages leaf pages.
func readNew(ctx context.Context, db DB, gen int64, covered []originSpan, maxPages int64) (*delta, error) {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	d := &delta{covered: covered, terms: map[string]uint32{}}
	var g sql.NullInt64
	if err := tx.QueryRowContext(ctx, vocabStateSQL).Scan(&g, &d.record); err != nil {
		return nil, fmt.Errorf("index structure: %w", err)
	}
	if d.gen = g.Int64; d.gen != gen {
		covered, d.covered = nil, nil // a rebuilt index: read it all
	}
	segs, ok := parseStructure(d.record)
	if !ok {
		return nil, fmt.Errorf("%w: structure record", errFTSFormat)
	}
	var todo []ftsSegment
	pages := int64(0)
	for _, s := range segs {
		if !covers(covered, s) {
			todo = append(todo, s)
			pages += s.last - s.first + 1
		}
	}
	if pages > maxPages {
		d.tooBig = true
		return d, nil
	}
	d.pages = pages
	for _, s := range todo {
		if err := segmentTerms(ctx, tx, s, d.terms); err != nil {
			return nil, err
		}
		if len(d.terms) > maxVocabTerms {
			return nil, fmt.Errorf("more than %d terms", maxVocabTerms)
		}
		d.covered = addSpan(d.covered, s)
	}
	return d, nil
}

// segmentTerms adds the terms of segment s to terms, each with the bytes of its doclist
// (the rest of its page, and the pages after it that start no term, for the last term of
// a page) added to its weight.
func segmentTerms(ctx context.Context, tx *sql.Tx, s ftsSegment, terms map[string]uint32) error {
	rows, err := tx.QueryContext(ctx, segmentTermsSQL, sql.Named("seg", s.id))
	if err != nil {
		return fmt.Errorf("read segment %d: %w", s.id, err)
	}
	defer rows.Close()
	var (
		last     string // the previous page's last term
		lastPgno int64
		lastSize int
		page     []byte
		pgno     int64
	)
	flush := func(next int64) {
		if last != "" {
			extra := max(next-lastPgno-1, 0) * int64(lastSize)
			terms[last] = satAdd(terms[last], extra)
		}
	}
	for rows.Next() {
		if err := rows.Scan(&pgno, &page); err != nil {
			return fmt.Errorf("read segment %d: %w", s.id, err)
		}
		flush(pgno)
		last = ""
		ok := leafTermsSized(page, func(t []byte, size int) {
			if len(t) > 0 && t[0] == ftsMainKey {
				term := string(t[1:])
				terms[term] = satAdd(terms[term], int64(size))
				last = term
			} else {
				last = ""
			}
		})
		if !ok {
			return fmt.Errorf("%w: a leaf page does not parse", errFTSFormat)
		}
		lastPgno, lastSize = pgno, len(page)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read segment %d: %w", s.id, err)
	}
	flush(s.last + 1)
	return nil
}

func satAdd(w uint32, n int64) uint32 { return uint32(min(int64(w)+n, 1<<32-1)) }

// Prepare asks the vocabulary to keep the index's terms in memory (for approximate words),
// and starts reading them on a goroutine of its own; it returns at once. A vocabulary that
// answers many queries (the window's, serve's) is prepared once.
func (v *Vocabulary) Prepare(ctx context.Context) {
	m := v.mem
	m.mu.Lock()
	defer m.mu.Unlock()
	m.wanted = true
	m.startBuild(v.db, nil)
}

// Close stops the reading and writing Prepare and searches started and waits for them to
// end: once it returns, nothing of the vocabulary reads the index or writes the file of the
// terms (a write not yet due is dropped: the file is only ever a head start). Searches
// after Close read the index as without Prepare.
func (v *Vocabulary) Close() {
	m := v.mem
	m.mu.Lock()
	m.closed = true
	if m.timer != nil && m.timer.Stop() {
		m.saving = false
		m.wg.Done()
	}
	m.mu.Unlock()
	m.end()
	m.wg.Wait()
}

// Wait waits until the terms in memory are ready (or their reading failed) and returns how
// long the first reading took.
func (v *Vocabulary) Wait(ctx context.Context) (time.Duration, error) {
	for {
		m := v.mem
		m.mu.Lock()
		done, built, err := m.ready || !m.building, m.built, m.err
		m.mu.Unlock()
		if done {
			return built, err
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// Source says where the first reading of the terms in memory took them from: how many
// terms came from the file of the terms (snapshot.go) and how many leaf pages of the index
// it read besides (every leaf that starts a term when there was no file of this index).
func (v *Vocabulary) Source() (fromFile int, readPages int64) {
	m := v.mem
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.fromFile, m.readPages
}

// startBuild reads the segments not yet read on a goroutine (m.mu held). The first build
// starts from the file of the terms when it belongs to the index (snapshot.go), and reads
// only the segments written since.
func (m *inMemory) startBuild(db DB, covered []originSpan) {
	if m.building || m.closed {
		return
	}
	m.building = true
	gen, first := m.gen, !m.ready && m.terms == nil
	ctx := m.life
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		start := time.Now()
		var base *snapshot
		if first {
			// A file that cannot be read is as none: the index holds the terms.
			if base, _ = loadSnapshot(ctx, db); base != nil {
				gen, covered = base.gen, base.covered
			}
		}
		d, err := readNew(ctx, db, gen, covered, 1<<62)
		m.mu.Lock()
		defer m.mu.Unlock()
		m.building = false
		if err != nil {
			m.err, m.ready = err, false
			return
		}
		if base != nil && d.gen == base.gen {
			m.gen, m.terms, m.weight, m.added, m.covered = base.gen, base.terms, base.weight, nil, base.covered
			m.fromFile = len(base.terms)
		}
		m.install(d)
		if first {
			m.built, m.readPages = time.Since(start), d.pages
		}
		m.saveLater(db)
	}()
}

// saveLater writes the file of the terms when they changed since it was written: at once
// the first time, then at most once every snapshotEvery (m.mu held).
func (m *inMemory) saveLater(db DB) {
	if !m.dirty || m.saving || m.closed {
		return
	}
	m.saving = true
	wait := time.Duration(0)
	if !m.savedAt.IsZero() {
		wait = max(0, snapshotEvery-time.Since(m.savedAt))
	}
	m.wg.Add(1)
	m.timer = time.AfterFunc(wait, func() {
		defer m.wg.Done()
		m.mu.Lock()
		if len(m.added) > 0 {
			m.merge()
		}
		s := &snapshot{gen: m.gen, covered: slices.Clone(m.covered), terms: m.terms, weight: slices.Clone(m.weight)}
		m.dirty = false
		m.mu.Unlock()
		err := saveSnapshot(m.life, db, s)
		m.mu.Lock()
		m.saving, m.savedAt, m.saveErr = false, time.Now(), err
		m.mu.Unlock()
	})
}

// install takes in what readNew found (m.mu held).
func (m *inMemory) install(d *delta) {
	if d.gen != m.gen || d.covered == nil {
		m.gen, m.terms, m.weight, m.added = d.gen, nil, nil, nil
	}
	for t, w := range d.terms {
		if i, ok := slices.BinarySearch(m.terms, t); ok {
			m.weight[i] = satAdd(m.weight[i], int64(w))
			continue
		}
		if m.added == nil {
			m.added = map[string]uint32{}
		}
		m.added[t] = satAdd(m.added[t], int64(w))
	}
	if len(m.added) > vocabMergeAt || m.terms == nil {
		m.merge()
	}
	m.dirty = m.dirty || len(d.terms) > 0 || !slices.Equal(d.covered, m.covered)
	m.gen, m.record, m.covered, m.ready, m.err = d.gen, d.record, d.covered, true, nil
}

// merge moves the added terms into the sorted list.
func (m *inMemory) merge() {
	add := make([]string, 0, len(m.added))
	for t := range m.added {
		add = append(add, t)
	}
	slices.Sort(add)
	terms := make([]string, 0, len(m.terms)+len(add))
	weight := make([]uint32, 0, cap(terms))
	i, j := 0, 0
	for i < len(m.terms) || j < len(add) {
		if j == len(add) || i < len(m.terms) && m.terms[i] < add[j] {
			terms, weight = append(terms, m.terms[i]), append(weight, m.weight[i])
			i++
		} else {
			terms, weight = append(terms, add[j]), append(weight, m.added[add[j]])
			j++
		}
	}
	m.terms, m.weight, m.added = terms, weight, nil
}

// use calls f with the vocabulary, brought up to date with the index, under its lock, and
// reports whether it did. It does not when the b-tree must answer: the vocabulary was not
// asked for, is not built yet, or has more new pages to read than a query may.
func (m *inMemory) use(ctx context.Context, db DB, f func(*inMemory)) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ok, err := m.update(ctx, db)
	if ok {
		f(m)
	}
	return ok, err
}

// update brings the vocabulary up to date with the index (m.mu held), or reports that it
// cannot be used now (see use).
func (m *inMemory) update(ctx context.Context, db DB) (bool, error) {
	if !m.wanted || !m.ready || m.building {
		return false, nil
	}
	var gen sql.NullInt64
	var record []byte
	if err := db.QueryRowContext(ctx, vocabStateSQL).Scan(&gen, &record); err != nil {
		return false, fmt.Errorf("index structure: %w", err)
	}
	if gen.Int64 == m.gen && bytes.Equal(record, m.record) {
		return true, nil
	}
	d := &delta{tooBig: true}
	if gen.Int64 == m.gen {
		var err error
		if d, err = readNew(ctx, db, m.gen, m.covered, vocabInlinePages); errors.Is(err, errFTSFormat) {
			m.ready = false
		} else if err != nil {
			return false, err
		}
	}
	if !m.ready || d.tooBig {
		m.ready = false
		covered := m.covered
		if gen.Int64 != m.gen {
			covered = nil
		}
		m.startBuild(db, covered)
		return false, nil
	}
	m.install(d)
	m.saveLater(db)
	return true, nil
}

// lookup returns a term's weight and whether the vocabulary holds it.
func (m *inMemory) lookup(t string) (uint32, bool) {
	if i, ok := slices.BinarySearch(m.terms, t); ok {
		return m.weight[i], true
	}
	w, ok := m.added[t]
	return w, ok
}

// count returns how many terms of the sorted list start with p.
func (m *inMemory) count(p string) int {
	lo, _ := slices.BinarySearch(m.terms, p)
	n, _ := slices.BinarySearchFunc(m.terms[lo:], p, func(t, p string) int {
		if strings.HasPrefix(t, p) {
			return -1
		}
		return strings.Compare(t, p)
	})
	return n
}

// withPrefix calls f with every term that starts with p, and returns the longest prefix
// of w (that starts with p) that starts some term.
func (m *inMemory) withPrefix(w []rune, p string, f func(t string, weight uint32)) (known int) {
	i, _ := slices.BinarySearch(m.terms, p)
	// The terms just around where p would be share w's longest known prefix.
	for _, j := range []int{i - 1, i} {
		if j >= 0 && j < len(m.terms) {
			known = max(known, commonPrefix(w, m.terms[j]))
		}
	}
	for ; i < len(m.terms) && strings.HasPrefix(m.terms[i], p); i++ {
		f(m.terms[i], m.weight[i])
	}
	for t, wt := range m.added {
		known = max(known, commonPrefix(w, t))
		if strings.HasPrefix(t, p) {
			f(t, wt)
		}
	}
	return known
}
