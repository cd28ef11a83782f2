package vocab

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
)

// The vocabulary around a word is read from the FTS5 index's own b-tree, not through
// fts5vocab: fts5vocab walks every doclist of the terms it returns (to count documents),
// so a range of terms with common words in it costs time in proportion to their millions
// of postings. Terms alone are cheap to list: each segment's %_idx table holds the first
// term of every leaf page that starts a term, and each leaf page ends with an index of
// the terms on it (fts5_index.c, "Segment leaf pages"). Reading the leaves that hold a
// prefix's terms costs one b-tree seek per segment plus those pages, whatever the
// doclists' length.
//
// The format read is FTS5's on-disk format version 4 (and 5, written with the
// secure-delete option, whose leaves have the same layout); any other version, or a page
// that does not parse, gives errFTSFormat, and the caller then probes the strings one edit
// away with MATCH instead.

// errFTSFormat means the index is not in an FTS5 format this file can read.
var errFTSFormat = errors.New("unsupported fts5 index format")

// segmentsCTE lists the index's segments by hopping along page_fts_idx's primary key,
// or only segment @seg when that is not 0 (segment ids start at 1).
const segmentsCTE = `WITH RECURSIVE all_seg(id) AS (
	SELECT min(segid) FROM page_fts_idx
	UNION ALL
	SELECT (SELECT min(segid) FROM page_fts_idx WHERE segid > all_seg.id) FROM all_seg WHERE all_seg.id IS NOT NULL
), seg(id) AS (
	SELECT id FROM all_seg WHERE @seg = 0 AND id IS NOT NULL UNION ALL SELECT @seg WHERE @seg <> 0
)`

// prefixPagesSQL counts (up to @max) the leaf pages whose first term lies in [@lo, @hi).
const prefixPagesSQL = segmentsCTE + `
SELECT count(*) FROM (SELECT 1 FROM seg CROSS JOIN page_fts_idx i ON i.segid = seg.id AND i.term >= @lo AND i.term < @hi LIMIT @max)`

// prefixLeavesSQL returns the leaf pages that hold the terms in [@lo, @hi) and those just
// before and after them: in each segment, the page whose first term precedes @lo (terms of
// the range may follow it), the pages whose first term is in the range, and the next page
// that starts a term. Leaf rowids are segid<<37 + page number; the pgno column of %_idx
// holds the page number shifted left by one.
const prefixLeavesSQL = segmentsCTE + `,
pg(seg, pgno) AS (
	SELECT seg.id, (SELECT pgno >> 1 FROM page_fts_idx WHERE segid = seg.id AND term < @lo ORDER BY term DESC LIMIT 1)
	FROM seg WHERE seg.id IS NOT NULL
	UNION
	SELECT i.segid, i.pgno >> 1 FROM seg CROSS JOIN page_fts_idx i ON i.segid = seg.id AND i.term >= @lo AND i.term < @hi
	UNION
	SELECT seg.id, (SELECT pgno >> 1 FROM page_fts_idx WHERE segid = seg.id AND term >= @hi ORDER BY term LIMIT 1)
	FROM seg WHERE seg.id IS NOT NULL
)
SELECT d.block FROM pg JOIN page_fts_data d ON d.id = (pg.seg << 37) + pg.pgno LIMIT @max`

// largestSegmentSQL returns the segment with the most leaf pages (as far as its last page
// that starts a term tells) and how many segments there are.
const largestSegmentSQL = segmentsCTE + `,
size(id, pages) AS (
	SELECT seg.id, (SELECT pgno >> 1 FROM page_fts_idx WHERE segid = seg.id ORDER BY term DESC LIMIT 1)
	FROM seg WHERE seg.id IS NOT NULL
)
SELECT id, (SELECT count(*) FROM size) FROM size ORDER BY pages DESC LIMIT 1`

// segmentLeavesSQL returns the leaf pages of segment @seg where the keys in the JSON array
// @keys would be.
const segmentLeavesSQL = `SELECT block FROM page_fts_data WHERE id IN (
	SELECT (@seg << 37) + (SELECT pgno >> 1 FROM page_fts_idx WHERE segid = @seg AND term <= CAST(value AS BLOB) ORDER BY term DESC LIMIT 1)
	FROM json_each(@keys))`

// ftsMainKey is the byte that starts every term of the main index in FTS5's b-tree keys
// (prefix indexes use '1', '2', ...).
const ftsMainKey = '0'

// termRange returns the bounds of the b-tree keys of the terms that start with prefix.
func termRange(prefix string) (lo, hi []byte) {
	lo = append([]byte{ftsMainKey}, prefix...)
	hi = append([]byte{}, lo...)
	for i := len(hi) - 1; i >= 0; i-- { // the next key after every string with prefix lo
		if hi[i] < 0xff {
			hi[i]++
			return lo, hi[:i+1]
		}
	}
	return lo, []byte{0xff, 0xff, 0xff, 0xff}
}

// checkFTSFormat returns errFTSFormat unless page_fts is in a format leafTerms reads.
func (v *Vocabulary) checkFTSFormat(ctx context.Context) error {
	var version int
	err := v.db.QueryRowContext(ctx, `SELECT v FROM page_fts_config WHERE k = 'version'`).Scan(&version)
	if errors.Is(err, sql.ErrNoRows) || err == nil && version != 4 && version != 5 {
		return fmt.Errorf("%w: version %d", errFTSFormat, version)
	}
	if err != nil {
		return fmt.Errorf("fts5 format: %w", err)
	}
	return nil
}

// largestSegment returns the id of the index's largest segment and the number of
// segments (0 and 0 for an empty index).
func (v *Vocabulary) largestSegment(ctx context.Context) (id int64, segments int, err error) {
	err = v.db.QueryRowContext(ctx, largestSegmentSQL, sql.Named("seg", 0)).Scan(&id, &segments)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("largest segment: %w", err)
	}
	return id, segments, nil
}

// prefixPages returns how many leaf pages of segment seg (of all segments if 0) start
// with a term having prefix, counting up to max+1.
func (v *Vocabulary) prefixPages(ctx context.Context, seg int64, prefix string, max int) (int, error) {
	lo, hi := termRange(prefix)
	var n int
	err := v.db.QueryRowContext(ctx, prefixPagesSQL, sql.Named("seg", seg), sql.Named("lo", lo), sql.Named("hi", hi),
		sql.Named("max", max+1)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count pages of %q: %w", prefix, err)
	}
	return n, nil
}

// prefixTerms calls f with the terms on the leaf pages of segment seg (of all segments if
// 0) that hold the terms starting with prefix and the terms just before and after them (so
// also the terms next to where prefix would be when none starts with it), reading at most
// maxPages pages. A term is passed once per segment that holds it (and may be one whose
// rows were all deleted since the segment was written).
func (v *Vocabulary) prefixTerms(ctx context.Context, seg int64, prefix string, maxPages int, f func(term string)) error {
	lo, hi := termRange(prefix)
	return v.leaves(ctx, prefixLeavesSQL, f, sql.Named("seg", seg), sql.Named("lo", lo), sql.Named("hi", hi),
		sql.Named("max", maxPages))
}

// inSegment returns which of words segment seg holds.
func (v *Vocabulary) inSegment(ctx context.Context, seg int64, words []string) (map[string]bool, error) {
	keys := make([]string, len(words))
	want := make(map[string]bool, len(words))
	for i, w := range words {
		keys[i] = string(ftsMainKey) + w
		want[w] = true
	}
	arg, err := json.Marshal(keys)
	if err != nil {
		return nil, fmt.Errorf("look up words: %w", err)
	}
	found := map[string]bool{}
	err = v.leaves(ctx, segmentLeavesSQL, func(t string) {
		if want[t] {
			found[t] = true
		}
	}, sql.Named("seg", seg), sql.Named("keys", string(arg)))
	return found, err
}

// leaves runs query, which returns leaf pages, and calls f with the main-index terms on
// them.
func (v *Vocabulary) leaves(ctx context.Context, query string, f func(term string), args ...any) error {
	rows, err := v.db.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("read index terms: %w", err)
	}
	defer rows.Close()
	var page []byte
	for rows.Next() {
		if err := rows.Scan(&page); err != nil {
			return fmt.Errorf("read index terms: %w", err)
		}
		ok := leafTerms(page, func(t []byte) {
			if len(t) > 0 && t[0] == ftsMainKey {
				f(string(t[1:]))
			}
		})
		if !ok {
			return fmt.Errorf("%w: a leaf page does not parse", errFTSFormat)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read index terms: %w", err)
	}
	return nil
}

// leafTerms calls f with each term key on an FTS5 leaf page, in order (f must not keep
// the slice). It reports whether the page parsed; no term is longer than the page.
func leafTerms(page []byte, f func(term []byte)) bool {
	return leafTermsSized(page, func(t []byte, _ int) { f(t) })
}

// leafTermsSized is leafTerms that also passes the bytes of each term's doclist on the
// page. A leaf page starts with two big-endian 16-bit offsets, of its first rowid and of
// its footer; the footer holds the offsets of its terms as varints, the first absolute and
// the others relative to the previous one. The first term is stored as length and bytes,
// each next one as the length of the prefix it shares with the previous term, the length
// of the rest, and the rest (each followed by its doclist, up to the next term or the
// footer).
func leafTermsSized(page []byte, f func(term []byte, size int)) bool {
	if len(page) < 4 {
		return false
	}
	foot := int(binary.BigEndian.Uint16(page[2:4]))
	if foot < 4 || foot > len(page) {
		return false
	}
	footer, body := page[foot:], page[:foot]
	var term, prev []byte
	off, next := 0, 4 // each term starts after the previous one's bytes
	pending := false
	// A page that stops parsing still gives the terms before the fault.
	fail := func() bool {
		if pending {
			f(prev, len(body)-next)
		}
		return false
	}
	for first := true; len(footer) > 0; first = false {
		d, n := ftsVarint(footer)
		if n == 0 || d >= uint64(len(body)) {
			return fail()
		}
		footer = footer[n:]
		if off += int(d); off < next || off >= len(body) {
			return fail()
		}
		if pending {
			f(prev, off-next)
			pending = false
		}
		p := body[off:]
		keep := uint64(0)
		if !first {
			if keep, n = ftsVarint(p); n == 0 || keep > uint64(len(term)) {
				return fail()
			}
			p = p[n:]
		}
		size, n := ftsVarint(p)
		if n == 0 || size > uint64(len(p)-n) {
			return fail()
		}
		term = append(term[:keep], p[n:n+int(size)]...)
		next = len(body) - len(p) + n + int(size)
		prev, pending = append(prev[:0], term...), true
	}
	if pending {
		f(prev, len(body)-next)
	}
	return true
}

// ftsVarint decodes SQLite's big-endian variable-length integer (1 to 9 bytes) at the start
// of b; n is 0 if b ends first.
func ftsVarint(b []byte) (v uint64, n int) {
	for i := 0; i < 8 && i < len(b); i++ {
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	if len(b) < 9 {
		return 0, 0
	}
	return v<<8 | uint64(b[8]), 9
}
