// Links behind the crawl: a page's outgoing links committed as one packed row, expanded
// into rows sorted by target when the writer has time (queued_expand.go).

package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Links behind the crawl (migration 0045). The crawl's transaction stores a page's links as
// one packed row (link_packs); the expander turns the packs of many pages into link rows in
// one transaction of the writer, sorted by target, and counts them and their citations
// once per target instead of once per row. Readers see both through the view "links".
//
// What the index reads of links (the anchor text pointing at a page, the titles citing a
// resource) comes from the expanded rows: the expander notes the targets whose anchor text
// or citations changed in the index log, as the crawl's transaction did before.

// linkPack builds one page's pack: its links in document order, one per (target, kind).
type linkPack struct {
	buf  []byte
	seen map[packKey]bool
	n    int
}

type packKey struct {
	to   int64
	kind string
}

// add appends a link unless the page already has one to the same target of the same kind
// (the first one stays, as a link row's primary key would have it).
func (p *linkPack) add(to int64, t *Target) {
	k := packKey{to, t.Kind}
	if p.seen[k] {
		return
	}
	if p.seen == nil {
		p.seen = map[packKey]bool{}
		p.buf = append(p.buf[:0], '[')
	} else {
		p.buf = append(p.buf, ',')
	}
	p.seen[k] = true
	p.n++
	p.buf = append(p.buf, '[')
	p.buf = strconv.AppendInt(p.buf, to, 10)
	for _, s := range []string{t.Kind, t.Anchor, t.Rel} {
		p.buf = append(p.buf, ',')
		p.buf = appendJSONString(p.buf, s)
	}
	p.buf = append(p.buf, ',')
	p.buf = strconv.AppendInt(p.buf, int64(t.Pos), 10)
	p.buf = append(p.buf, ']')
}

// json returns the pack as JSON, or "" when it holds no link.
func (p *linkPack) json() string {
	if p.seen == nil {
		return ""
	}
	return string(append(p.buf, ']'))
}

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes U+FFFD (a run of
// invalid bytes one, as Clean has it).
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		b = append(b, s[i:i+n]...)
		i += n
	}
	return append(b, '"')
}

// savePack stores a page's pack (its links were deleted before: see deleteLinks).
func (o *opState) savePack(ctx context.Context, from int64, p *linkPack) error {
	js := p.json()
	if js == "" {
		return nil
	}
	st, err := o.tx.Stmt(ctx, `INSERT INTO link_packs(page_id, n, data) VALUES (?, ?, ?)
		ON CONFLICT(page_id) DO UPDATE SET n = excluded.n, data = excluded.data`)
	if err != nil {
		return err
	}
	if _, err := st.ExecContext(ctx, from, p.n, js); err != nil {
		return fmt.Errorf("links of page %d: %w", from, err)
	}
	o.packs++
	return nil
}

// How the expander paces itself.
const (
	// expandBatch is the most pages whose packs one expansion writes: enough links
	// (about 20 a page) for sorting by target to pay, few enough that the crawl's writes
	// wait for it only a moment.
	expandBatch = 1024
	// expandQuiet is how long no pack must have been written before the packs left are
	// expanded whatever their number.
	expandQuiet = 500 * time.Millisecond
)

// expander runs the expansion behind the crawl: when the writer is idle, when expandCap
// packs wait, and once packs stop coming (queued_expand.go).
type expander struct {
	kick    chan struct{}
	stop    chan struct{}
	stopped chan struct{}

	mu      sync.Mutex
	pending int64     // packs not expanded (committed)
	last    time.Time // when the last pack was committed
	err     error     // of the last expansion
}

func newExpander() *expander {
	return &expander{kick: make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{})}
}

// packed counts packs a commit stored (on the writer's goroutine: it must not block).
func (e *expander) packed(n int) {
	e.mu.Lock()
	e.pending += int64(n)
	e.last = time.Now()
	e.mu.Unlock()
	e.wake() // to expand now, or to time the quiet that expands the rest
}

func (e *expander) wake() {
	select {
	case e.kick <- struct{}{}:
	default:
	}
}

func (e *expander) expanded(n int) {
	e.mu.Lock()
	e.pending = max(e.pending-int64(n), 0)
	e.mu.Unlock()
}

// due reports what the expander should do now, and how long to wait otherwise (see
// queued_expand.go).
func (e *expander) due() (expandMode, time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.pending >= expandCap:
		return expandFull, 0
	case e.pending == 0:
		return expandWait, time.Hour
	}
	if quiet := time.Since(e.last); quiet < expandQuiet {
		return expandIdle, expandQuiet - quiet
	}
	return expandFull, 0
}

// runExpander is the expander's goroutine: it starts with the packs a killed process left.
func (s *Store) runExpander() {
	e := s.expand
	defer close(e.stopped)
	var left int64
	if err := s.read.QueryRowContext(context.Background(), `SELECT count(*) FROM link_packs`).Scan(&left); err == nil && left > 0 {
		e.mu.Lock()
		e.pending += left
		e.mu.Unlock()
	}
	for {
		mode, wait := e.due()
		if mode != expandWait {
			var n int
			var busy bool
			var err error
			if mode == expandFull {
				n, err = s.expandOnce(context.Background())
			} else {
				n, busy, err = s.expandIfIdle(context.Background(), expandIdleBatch)
			}
			e.mu.Lock()
			e.err = err
			e.mu.Unlock()
			if err == nil && n > 0 {
				continue
			}
			switch {
			case err == nil && !busy:
				e.mu.Lock()
				e.pending = 0 // none left: the count had drifted
				e.mu.Unlock()
				wait = time.Second
			case err != nil:
				wait = time.Second
			} // busy: look again at the next commit, or once packs stop coming
		}
		t := time.NewTimer(wait)
		select {
		case <-e.stop:
			t.Stop()
			return
		case <-e.kick:
		case <-t.C:
		}
		t.Stop()
	}
}

// expandOnce expands the packs of up to expandBatch pages in one writer operation and
// returns how many it expanded.
func (s *Store) expandOnce(ctx context.Context) (int, error) {
	n, err := Get(ctx, s.writer, func(tx *Tx) (int, error) { return s.expandLinks(ctx, tx, expandBatch) })
	if err != nil {
		return 0, fmt.Errorf("expand links: %w", err)
	}
	return n, nil
}

// ExpandLinks expands every pack stored so far and returns once the link rows are
// committed: the end of a crawl run waits for it before it waits for the index.
func (s *Store) ExpandLinks(ctx context.Context) error {
	if s.writer == nil {
		return nil
	}
	if err := s.writer.Flush(ctx); err != nil {
		return err
	}
	for {
		n, err := s.expandOnce(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return s.writer.Flush(ctx)
		}
	}
}

// PendingLinks counts the pages whose links are stored packed, not yet expanded.
func (s *Store) PendingLinks(ctx context.Context) (int64, error) {
	var n int64
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM link_packs`).Scan(&n); err != nil {
		return 0, fmt.Errorf("pending links: %w", err)
	}
	return n, nil
}

// packedLink is one link of a pack, read back.
type packedLink struct {
	from, to          int64
	kind, anchor, rel string
	pos               int64
}

// expandInsert is how many rows one statement of the expansion inserts.
const expandInsert = 64

// expandLinks writes the link rows of the packs of up to limit pages, in page order, and
// deletes the packs: all in the writer's current transaction. The packs are read and
// sorted here, off SQLite's JSON functions (which cost as much as the inserts).
func (s *Store) expandLinks(ctx context.Context, tx *Tx, limit int) (int, error) {
	rd, err := tx.Stmt(ctx, `SELECT page_id, data FROM link_packs ORDER BY page_id LIMIT ?`)
	if err != nil {
		return 0, err
	}
	rows, err := rd.QueryContext(ctx, limit)
	if err != nil {
		return 0, err
	}
	var ls []packedLink
	var lo, hi int64
	n := 0
	for rows.Next() {
		var from int64
		var data string
		if err := rows.Scan(&from, &data); err != nil {
			rows.Close()
			return 0, err
		}
		if ls, err = parsePack(data, from, ls); err != nil {
			rows.Close()
			return 0, fmt.Errorf("links of page %d: %w", from, err)
		}
		if n == 0 {
			lo = from
		}
		hi = from
		n++
	}
	rows.Close()
	if err := rows.Err(); err != nil || n == 0 {
		return 0, err
	}
	if ls, err = s.checkTargets(ctx, tx, ls); err != nil {
		return 0, err
	}
	// Sorted by target, each row goes next to the one before in links_to (to_id, anchor).
	slices.SortFunc(ls, func(a, b packedLink) int {
		if c := cmp.Compare(a.to, b.to); c != 0 {
			return c
		}
		if c := strings.Compare(a.anchor, b.anchor); c != 0 {
			return c
		}
		if c := cmp.Compare(a.from, b.from); c != 0 {
			return c
		}
		return strings.Compare(a.kind, b.kind)
	})
	if err := addCitations(ctx, tx, ls); err != nil {
		return 0, err
	}
	// The rows' trigger stands aside: the counts are added once below.
	if _, err := tx.ExecContext(ctx, `INSERT INTO link_expanding(id) VALUES (1) ON CONFLICT DO NOTHING`); err != nil {
		return 0, err
	}
	added, err := insertLinkRows(ctx, tx, ls)
	if err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM link_expanding`); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE counts SET n = n + ? WHERE name = 'links'`, added); err != nil {
		return 0, err
	}
	del, err := tx.Stmt(ctx, `DELETE FROM link_packs WHERE page_id BETWEEN ? AND ?`)
	if err != nil {
		return 0, err
	}
	if _, err := del.ExecContext(ctx, lo, hi); err != nil {
		return 0, err
	}
	tx.OnCommit(func() { s.expand.expanded(n) })
	return n, nil
}

// checkTargets drops the links to pages deleted since they were packed, and notes in the
// index log the targets whose index rows change: fetched pages given anchor text (and
// failed ones, which keep their last copy), and resources, whose rows hold the titles of
// the pages citing them.
func (s *Store) checkTargets(ctx context.Context, tx *Tx, ls []packedLink) ([]packedLink, error) {
	const (
		exists = 1 << iota
		resource
		anchored // fetched or failed: a row with anchor text
	)
	seen := make(map[int64]uint8, len(ls)/2)
	var b []byte
	b = append(b, '[')
	for _, l := range ls {
		if _, ok := seen[l.to]; !ok {
			if len(seen) > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, l.to, 10)
			seen[l.to] = 0
		}
	}
	b = append(b, ']')
	st, err := tx.Stmt(ctx, `SELECT id, state = 'skipped' AND reason = 'type', state IN ('fetched', 'failed')
		FROM pages WHERE id IN (SELECT value FROM json_each(?))`)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, string(b))
	if err != nil {
		return nil, fmt.Errorf("link targets: %w", err)
	}
	for rows.Next() {
		var id int64
		var res, anch bool
		if err := rows.Scan(&id, &res, &anch); err != nil {
			rows.Close()
			return nil, err
		}
		f := uint8(exists)
		if res {
			f |= resource
		} else if anch {
			f |= anchored
		}
		seen[id] = f
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("link targets: %w", err)
	}
	kept := ls[:0]
	for _, l := range ls {
		f := seen[l.to]
		if f&exists == 0 {
			continue
		}
		switch {
		case f&resource != 0:
			s.logPage(l.to)
		case f&anchored != 0 && l.anchor != "":
			s.logAnchors(l.to)
		}
		kept = append(kept, l)
	}
	return kept, nil
}

// addCitations counts, for each target of ls (sorted by target), the other pages that
// cite it: a page with several links to the target counts once. The pages of a pack have
// no link rows (the crawl deletes them when it stores the pack), so every pair is new.
func addCitations(ctx context.Context, tx *Tx, ls []packedLink) error {
	st, err := tx.Stmt(ctx, `INSERT INTO citations(page_id, n) VALUES (?, ?) ON CONFLICT(page_id) DO UPDATE SET n = n + excluded.n`)
	if err != nil {
		return err
	}
	var froms []int64
	for i := 0; i < len(ls); {
		j := i
		froms = froms[:0]
		for ; j < len(ls) && ls[j].to == ls[i].to; j++ {
			if ls[j].from != ls[j].to {
				froms = append(froms, ls[j].from)
			}
		}
		slices.Sort(froms)
		if k := len(slices.Compact(froms)); k > 0 {
			if _, err := st.ExecContext(ctx, ls[i].to, k); err != nil {
				return fmt.Errorf("citations: %w", err)
			}
		}
		i = j
	}
	return nil
}

// insertLinkRows inserts ls, expandInsert rows a statement, and returns how many were new.
func insertLinkRows(ctx context.Context, tx *Tx, ls []packedLink) (int64, error) {
	one := `(?, ?, ?, ?, ?, ?)`
	many, err := tx.Stmt(ctx, `INSERT OR IGNORE INTO link_rows(from_id, to_id, kind, anchor, rel, pos) VALUES `+
		strings.TrimSuffix(strings.Repeat(one+", ", expandInsert), ", "))
	if err != nil {
		return 0, err
	}
	single, err := tx.Stmt(ctx, `INSERT OR IGNORE INTO link_rows(from_id, to_id, kind, anchor, rel, pos) VALUES `+one)
	if err != nil {
		return 0, err
	}
	var added int64
	args := make([]any, 0, 6*expandInsert)
	for i := 0; i < len(ls); {
		st, k := many, expandInsert
		if len(ls)-i < expandInsert {
			st, k = single, 1
		}
		args = args[:0]
		for _, l := range ls[i : i+k] {
			args = append(args, l.from, l.to, l.kind, l.anchor, l.rel, l.pos)
		}
		res, err := st.ExecContext(ctx, args...)
		if err != nil {
			return 0, fmt.Errorf("link rows: %w", err)
		}
		n, _ := res.RowsAffected()
		added += n
		i += k
	}
	return added, nil
}

// RepackLinks turns every link row back into packs, as if no pack had been expanded yet:
// tests of what readers see while the expansion lags (with Options.HoldLinks) call it on a
// crawled workspace, then compare the readers' answers with those after ExpandLinks.
func (s *Store) RepackLinks(ctx context.Context) error {
	err := s.writer.Do(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO link_packs(page_id, n, data)
			SELECT from_id, count(*), json_group_array(json_array(to_id, kind, anchor, rel, pos))
			FROM (SELECT * FROM link_rows ORDER BY from_id, pos, to_id, kind) GROUP BY from_id`); err != nil {
			return fmt.Errorf("repack links: %w", err)
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM link_rows`)
		return err
	})
	if err != nil {
		return err
	}
	return s.writer.Flush(ctx)
}
