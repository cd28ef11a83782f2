package search

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"mundaneum/backend/store"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// FTS5's bm25() first counts, for every phrase of the MATCH expression, all the rows that
// contain it (its IDF), whatever the LIMIT: a word found in most of a million pages costs
// ~100 ms before the first row comes back, and bm25 gives such a word almost no weight
// anyway (FTS5 clamps the IDF of a word in more than half of the rows to ~0). So a query is
// ranked the way Elasticsearch's common-terms query ranks: its conjuncts are taken from the
// rarest up while the rows bm25 would count stay within Weights.RankBudget (50,000 rows,
// about 5 ms of CPU); those are scored with bm25, and the commoner ones only filter.
// When even the rarest is over budget, hits are scored by the query words in their title
// and URL, and by citations. Within the budget (any query over an index of up to ~20,000
// pages, or of rarer words) ranking is plain bm25.

// dfSample is how many matches a document-frequency probe reads: rarer terms are counted,
// commoner ones estimated from where their dfSample-th match falls in the rowid space.
const dfSample = 256

// conjunct is one top-level text part of a query: its FTS5 expression and the atoms (one
// quoted word, or a prefix) whose doclists bm25 would read to rank it.
type conjunct struct {
	expr  string
	atoms []string
}

// dfCache remembers document-frequency estimates of atoms for a minute: they only choose
// how to rank, so a slightly stale figure does no harm.
type dfCache struct {
	mu      sync.Mutex
	at      time.Time
	maxRow  int64
	entries map[string]int
}

const (
	dfCacheTTL = time.Minute
	dfCacheMax = 20_000
)

// reset forgets every estimate.
func (c *dfCache) reset() {
	c.mu.Lock()
	c.entries, c.at, c.maxRow = nil, time.Time{}, 0
	c.mu.Unlock()
}

// estimator estimates the document frequencies of atoms in an index (page_fts unless
// table says otherwise), with the cache of a Searcher.
type estimator struct {
	db    store.Querier
	cache *dfCache
	table string
}

// maxRowid returns the largest rowid of the index (cached with the estimates).
func (e estimator) maxRowid(ctx context.Context) (int64, error) {
	c := e.cache
	c.mu.Lock()
	if time.Since(c.at) < dfCacheTTL && c.maxRow > 0 {
		m := c.maxRow
		c.mu.Unlock()
		return m, nil
	}
	c.mu.Unlock()
	var m sql.NullInt64
	if err := e.db.QueryRowContext(ctx, `SELECT max(id) FROM page_fts_docsize`).Scan(&m); err != nil {
		return 0, fmt.Errorf("index size: %w", err)
	}
	c.mu.Lock()
	if c.maxRow != m.Int64 || time.Since(c.at) >= dfCacheTTL {
		c.entries, c.at = map[string]int{}, time.Now()
	}
	c.maxRow = m.Int64
	c.mu.Unlock()
	return m.Int64, nil
}

// dfs estimates how many rows of the index contain each atom: exactly below dfSample,
// else from the rowid of its dfSample-th match (rows are assumed spread evenly over
// rowids). The atoms not in the cache are probed in one statement.
func (e estimator) dfs(ctx context.Context, atoms []string) (map[string]int, error) {
	maxRow, err := e.maxRowid(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(atoms))
	var probe []string
	c := e.cache
	c.mu.Lock()
	for _, a := range atoms {
		if n, ok := c.entries[a]; ok {
			out[a] = n
		} else if !slices.Contains(probe, a) {
			probe = append(probe, a)
		}
	}
	c.mu.Unlock()
	if len(probe) == 0 {
		return out, nil
	}
	for from := 0; from < len(probe); from += probeBatch {
		if err := e.probe(ctx, probe[from:min(from+probeBatch, len(probe))], maxRow, out); err != nil {
			return nil, err
		}
	}
	c.mu.Lock()
	if len(c.entries)+len(probe) > dfCacheMax {
		c.entries = map[string]int{}
	}
	for _, a := range probe {
		c.entries[a] = out[a]
	}
	c.mu.Unlock()
	return out, nil
}

// probeBatch is how many atoms one probe statement counts (SQLite allows 500 terms in a
// compound SELECT).
const probeBatch = 200

// probe counts the first dfSample matches of each atom in one statement, into out.
func (e estimator) probe(ctx context.Context, atoms []string, maxRow int64, out map[string]int) error {
	t := e.table
	if t == "" {
		t = "page_fts"
	}
	parts := make([]string, len(atoms))
	args := make([]any, 0, len(atoms))
	for i, a := range atoms {
		parts[i] = `SELECT ` + strconv.Itoa(i) + `, count(*), max(rowid) FROM (SELECT rowid FROM ` + t + ` WHERE ` + t + ` MATCH ? LIMIT ` + strconv.Itoa(dfSample) + `)`
		args = append(args, a)
	}
	rows, err := e.db.QueryContext(ctx, strings.Join(parts, " UNION ALL "), args...)
	if err != nil {
		return fmt.Errorf("term frequency: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var i, cnt int
		var kth sql.NullInt64
		if err := rows.Scan(&i, &cnt, &kth); err != nil {
			return fmt.Errorf("term frequency: %w", err)
		}
		n := cnt
		if cnt >= dfSample && kth.Int64 > 0 {
			n = max(cnt, int(float64(dfSample)*float64(maxRow)/float64(kth.Int64)))
		}
		out[atoms[i]] = n
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("term frequency: %w", err)
	}
	return nil
}

// costs is what rankable learns of a query's positive conjuncts, in index rows.
type costs struct {
	ranked     []conjunct // the rarest conjuncts, while their rows stay within the budget
	rankedRows int        // the rows bm25 counts to score the ranked conjuncts
	allRows    int        // the rows bm25 counts to score every conjunct
	least      int        // the rows of the rarest conjunct: a bound on the query's matches
}

// all reports whether bm25 can afford every conjunct.
func (c costs) all(conj []conjunct) bool { return len(c.ranked) == len(conj) }

// rankable estimates what it costs bm25 to score conjuncts, and picks the ones it scores:
// rarest first, while they cost at most budget rows.
func (e estimator) rankable(ctx context.Context, conj []conjunct, budget int) (costs, error) {
	type costed struct {
		c    conjunct
		cost int
	}
	var atoms []string
	for _, c := range conj {
		atoms = append(atoms, c.atoms...)
	}
	df, err := e.dfs(ctx, atoms)
	if err != nil {
		return costs{}, err
	}
	cs := make([]costed, len(conj))
	var out costs
	for i, c := range conj {
		cs[i].c = c
		for _, a := range c.atoms {
			cs[i].cost += df[a]
		}
		out.allRows += cs[i].cost
	}
	slices.SortStableFunc(cs, func(a, b costed) int { return a.cost - b.cost })
	for _, c := range cs {
		if out.rankedRows+c.cost > budget {
			break
		}
		out.rankedRows += c.cost
		out.ranked = append(out.ranked, c.c)
	}
	if len(cs) > 0 {
		out.least = cs[0].cost
	}
	return out, nil
}

// The costs of scoring found matches, in counted rows (bm25 counts a row in ~0.1 us): a
// statement walks a row of its MATCH and checks it against the matches in ~0.2 us, and
// bm25 scores one in ~4 us (it looks up the row's column sizes), measured at 1M pages.
const (
	walkRowCost  = 2
	scoreRowCost = 40
)

// scoreCost estimates what scoring n matches spread over a share of the rowids costs with
// an expression that bm25 counts rows rows of, and that matches walked rows in the index.
func scoreCost(rows, walked, n int, share float64) int {
	return rows + int(walkRowCost*float64(walked)*share) + scoreRowCost*n
}

// indexRows returns how many rows the full-text index holds: the first varint of FTS5's
// averages record (rowid 1 of page_fts_data), which FTS5 keeps up to date; no count.
func (e estimator) indexRows(ctx context.Context) (int64, error) {
	var block []byte
	err := e.db.QueryRowContext(ctx, `SELECT block FROM page_fts_data WHERE id = 1`).Scan(&block)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("index rows: %w", err)
	}
	n, _ := sqliteVarint(block)
	return int64(n), nil
}

// sqliteVarint decodes SQLite's varint (as FTS5 writes it): big-endian groups of 7 bits with
// the high bit set on all but the last, the ninth byte whole. It returns the value and its
// length (0 when b is too short).
func sqliteVarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < len(b) && i < 9; i++ {
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	return v, 0
}

// estimateTotal estimates the matches of a query from its first n matches in rowid order,
// the last of which is last.
func estimateTotal(n int, last, maxRow int64) int {
	if last <= 0 || maxRow <= last {
		return n
	}
	return max(n, int(float64(n)*float64(maxRow)/float64(last)))
}
