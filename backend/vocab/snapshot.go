package vocab

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"time"
)

// The terms in memory are kept in a file of their own beside the index (the index file's
// name and "-vocab"), so that a workspace opened again has them in a fraction of a second:
// reading them from the index means reading every leaf page of it that starts a term, 23.9 s
// at a million pages from a cold disk, when the file is a few megabytes. The file is
// derived: it names the index it was read from (the workspace it indexes, its generation)
// and the origins of the segments it holds, so opening reads from the index only the
// segments written since. A file of another index, one whose origins the index does not
// reach (an index made anew), or one that does not parse is ignored, and written again once
// the terms are read.
//
// The format: a magic line, then varints: the workspace id's length and bytes, the
// generation, the number of origin spans and each span's ends, the number of terms and,
// for each term in order, the length of the prefix it shares with the previous one, the
// length and bytes of the rest, and its weight; then the CRC-32 of all that, 4 bytes.

const (
	snapshotMagic = "mundaneum vocabulary 1\n"
	// snapshotEvery is how often at most the file is written again while the terms in
	// memory grow with a crawl (each write is a few megabytes at a million pages).
	snapshotEvery = time.Minute
	// maxTermBytes bounds a term in the file (FTS5 keys are shorter than a page).
	maxTermBytes = 1 << 16
)

// snapshot is the terms in memory as the file holds them.
type snapshot struct {
	workspace string
	gen       int64
	covered   []originSpan
	terms     []string // sorted
	weight    []uint32
}

var errSnapshot = errors.New("vocabulary file does not parse")

// encode writes the snapshot in the file's format.
func (s *snapshot) encode() []byte {
	b := []byte(snapshotMagic)
	b = binary.AppendUvarint(b, uint64(len(s.workspace)))
	b = append(b, s.workspace...)
	b = binary.AppendVarint(b, s.gen)
	b = binary.AppendUvarint(b, uint64(len(s.covered)))
	for _, sp := range s.covered {
		b = binary.AppendUvarint(b, sp.lo)
		b = binary.AppendUvarint(b, sp.hi)
	}
	b = binary.AppendUvarint(b, uint64(len(s.terms)))
	prev := ""
	for i, t := range s.terms {
		n := 0
		for n < len(prev) && n < len(t) && prev[n] == t[n] {
			n++
		}
		b = binary.AppendUvarint(b, uint64(n))
		b = binary.AppendUvarint(b, uint64(len(t)-n))
		b = append(b, t[n:]...)
		b = binary.AppendUvarint(b, uint64(s.weight[i]))
		prev = t
	}
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// decodeSnapshot reads a file in the snapshot format; any fault (a bad checksum, a count
// past the end, terms out of order) is errSnapshot.
func decodeSnapshot(b []byte) (*snapshot, error) {
	if len(b) < len(snapshotMagic)+4 || !bytes.HasPrefix(b, []byte(snapshotMagic)) {
		return nil, errSnapshot
	}
	body, sum := b[:len(b)-4], binary.BigEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, errSnapshot
	}
	r := body[len(snapshotMagic):]
	bad := false
	uv := func() uint64 {
		v, n := binary.Uvarint(r)
		if n <= 0 {
			bad = true
			return 0
		}
		r = r[n:]
		return v
	}
	take := func(n uint64) []byte {
		if bad || n > uint64(len(r)) {
			bad = true
			return nil
		}
		out := r[:n]
		r = r[n:]
		return out
	}
	s := &snapshot{}
	s.workspace = string(take(uv()))
	gen, n := binary.Varint(r)
	if n <= 0 || bad {
		return nil, errSnapshot
	}
	r = r[n:]
	s.gen = gen
	spans := uv()
	if bad || spans > uint64(len(r))/2 {
		return nil, errSnapshot
	}
	for range spans {
		sp := originSpan{lo: uv(), hi: uv()}
		if bad || sp.hi < sp.lo || len(s.covered) > 0 && sp.lo <= s.covered[len(s.covered)-1].hi {
			return nil, errSnapshot
		}
		s.covered = append(s.covered, sp)
	}
	count := uv()
	if bad || count > uint64(len(r))/3 || count > maxVocabTerms {
		return nil, errSnapshot
	}
	// The terms are spelled one after the other in one buffer, made one string at the end
	// and cut into the terms: one allocation instead of one per term (a few million at a
	// million pages).
	ends := make([]int, 0, count)
	s.weight = make([]uint32, 0, count)
	spelled := make([]byte, 0, 2*len(r))
	prev := 0 // where the previous term starts in spelled
	for range count {
		shared, rest := uv(), uv()
		if shared > uint64(len(spelled)-prev) || rest > maxTermBytes {
			return nil, errSnapshot
		}
		start := len(spelled)
		spelled = append(spelled, spelled[prev:prev+int(shared)]...)
		spelled = append(spelled, take(rest)...)
		w := uv()
		if bad || w > 1<<32-1 || len(ends) > 0 && bytes.Compare(spelled[start:], spelled[prev:start]) <= 0 {
			return nil, errSnapshot
		}
		ends, s.weight = append(ends, len(spelled)), append(s.weight, uint32(w))
		prev = start
	}
	if len(r) != 0 {
		return nil, errSnapshot
	}
	all := string(spelled)
	s.terms = make([]string, len(ends))
	start := 0
	for i, end := range ends {
		s.terms[i], start = all[start:end], end
	}
	return s, nil
}

// snapshotPath returns the file of the vocabulary of the index db reads ("" when the pool
// has no index attached, or it is in memory).
func snapshotPath(ctx context.Context, db DB) (string, error) {
	rows, err := db.QueryContext(ctx, `SELECT name, file FROM pragma_database_list`)
	if err != nil {
		return "", fmt.Errorf("vocabulary file: %w", err)
	}
	defer rows.Close()
	var main, idx string
	for rows.Next() {
		var name, file string
		if err := rows.Scan(&name, &file); err != nil {
			return "", fmt.Errorf("vocabulary file: %w", err)
		}
		switch name {
		case "main":
			main = file
		case "idx":
			idx = file
		}
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("vocabulary file: %w", err)
	}
	if idx == "" {
		// A pool over the index file alone (tests, tools) has it as main.
		idx = main
	}
	if idx == "" {
		return "", nil
	}
	return idx + "-vocab", nil
}

// indexIdentity is what a snapshot must agree with: the workspace the index indexes and its
// generation, and the highest origin of its segments.
func indexIdentity(ctx context.Context, db DB) (workspace string, gen int64, maxOrigin uint64, err error) {
	var g sql.NullInt64
	var ws sql.NullString
	var record []byte
	err = db.QueryRowContext(ctx, `SELECT (SELECT workspace FROM index_state), (SELECT generation FROM index_state),
		(SELECT block FROM page_fts_data WHERE id = 10)`).Scan(&ws, &g, &record)
	if err != nil {
		return "", 0, 0, fmt.Errorf("index structure: %w", err)
	}
	segs, ok := parseStructure(record)
	if !ok {
		return "", 0, 0, fmt.Errorf("%w: structure record", errFTSFormat)
	}
	for _, s := range segs {
		maxOrigin = max(maxOrigin, s.origin2)
	}
	return ws.String, g.Int64, maxOrigin, nil
}

// loadSnapshot reads the snapshot of the index db reads, nil when there is none that
// belongs to it.
func loadSnapshot(ctx context.Context, db DB) (*snapshot, error) {
	path, err := snapshotPath(ctx, db)
	if err != nil || path == "" {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("vocabulary file: %w", err)
	}
	s, err := decodeSnapshot(b)
	if err != nil {
		return nil, nil // written again once the terms are read
	}
	ws, gen, maxOrigin, err := indexIdentity(ctx, db)
	if err != nil {
		return nil, err
	}
	if s.workspace != ws || s.gen != gen || len(s.covered) > 0 && s.covered[len(s.covered)-1].hi > maxOrigin {
		return nil, nil
	}
	return s, nil
}

// saveSnapshot writes s as the vocabulary file of the index db reads: to a temporary file
// renamed over the old one, so that a reader sees the old file or the new one whole.
func saveSnapshot(ctx context.Context, db DB, s *snapshot) error {
	path, err := snapshotPath(ctx, db)
	if err != nil || path == "" {
		return err
	}
	if s.workspace, _, _, err = indexIdentity(ctx, db); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("vocabulary file: %w", err)
	}
	defer os.Remove(tmp.Name())
	// Written whole before it is renamed over the old one: after a crash the name holds the
	// old file or the new one, not a torn one (which the checksum would refuse anyway).
	if _, err := tmp.Write(s.encode()); err != nil {
		tmp.Close()
		return fmt.Errorf("vocabulary file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("vocabulary file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("vocabulary file: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("vocabulary file: %w", err)
	}
	return nil
}

// WriteFile brings the file of the terms of the index db reads up to date, as a vocabulary
// kept in memory would write it: from the file when it belongs to the index, reading from
// the index only the segments written since (all of them when there is no such file). The
// index's own stage calls it when idle (backend/index), so that the first search of a
// workspace just crawled or rebuilt finds the file instead of reading every leaf of the
// index. It writes nothing when the file is current.
func WriteFile(ctx context.Context, db *sql.DB) error {
	m := newInMemory()
	defer m.end()
	base, err := loadSnapshot(ctx, db)
	if err != nil {
		return err
	}
	var covered []originSpan
	if base != nil {
		m.gen, m.terms, m.weight, m.covered = base.gen, base.terms, base.weight, base.covered
		covered = base.covered
	}
	d, err := readNew(ctx, db, m.gen, covered, 1<<62)
	if err != nil {
		return fmt.Errorf("vocabulary file: %w", err)
	}
	m.install(d)
	if base != nil && !m.dirty {
		return nil
	}
	if len(m.added) > 0 {
		m.merge()
	}
	return saveSnapshot(ctx, db, &snapshot{gen: m.gen, covered: m.covered, terms: m.terms, weight: m.weight})
}
