package search

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strings"
	"time"
)

// Column weights for bm25 over page_fts(title, headings, body, anchors, url): title and the
// anchor text of links pointing at a page weigh most (WWWW's and WebCrawler's lesson).
const rankExpr = `bm25(page_fts, 10.0, 4.0, 1.0, 8.0, 3.0)`

// Snippet markers: private-use code points that the indexer strips from page text, so
// they can only come from FTS5's snippet().
const (
	markOpen  = "\uE000"
	markClose = "\uE001"
)

// Result is one hit.
type Result struct {
	PageID  int64
	URL     string
	Title   string
	Score   int      // 1000 for the best hit of the query
	Snippet []string // alternating plain text and matched text, plain first
}

// Results is one page of hits.
type Results struct {
	Query   string
	Total   int
	Took    time.Duration
	Results []Result
	Note    string // what the engine did with a query it could not take as written
}

// Searcher runs queries over a workspace's read pool.
type Searcher struct{ db *sql.DB }

// New returns a searcher over db (the store's read pool).
func New(db *sql.DB) *Searcher { return &Searcher{db: db} }

// Search runs q and returns results offset..offset+limit.
func (s *Searcher) Search(ctx context.Context, q string, limit, offset int) (Results, error) {
	start := time.Now()
	res := Results{Query: q}
	if limit <= 0 || limit > 1000 {
		limit = 20
	}
	if offset < 0 {
		offset = 0
	}
	expr, ok := matchExpr(parse(q))
	if !ok {
		if strings.TrimSpace(q) != "" {
			res.Note = "the query has no words to look for"
		}
		res.Took = time.Since(start)
		return res, nil
	}
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM page_fts WHERE page_fts MATCH ?`, expr).Scan(&res.Total); err != nil {
		return res, fmt.Errorf("search %q: %w", q, err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT p.id, p.url, coalesce(p.title, ''), `+rankExpr+` AS rank,
		snippet(page_fts, -1, ?, ?, '…', 24)
		FROM page_fts JOIN pages p ON p.id = page_fts.rowid
		WHERE page_fts MATCH ? ORDER BY rank LIMIT ? OFFSET ?`, markOpen, markClose, expr, limit, offset)
	if err != nil {
		return res, fmt.Errorf("search %q: %w", q, err)
	}
	defer rows.Close()
	best := 0.0
	if offset > 0 {
		// Scores are relative to the query's best hit, wherever the page starts.
		if err := s.db.QueryRowContext(ctx, `SELECT `+rankExpr+` AS rank FROM page_fts WHERE page_fts MATCH ? ORDER BY rank LIMIT 1`, expr).Scan(&best); err != nil {
			return res, fmt.Errorf("search %q: %w", q, err)
		}
	}
	for rows.Next() {
		var r Result
		var rank float64
		var snip string
		if err := rows.Scan(&r.PageID, &r.URL, &r.Title, &rank, &snip); err != nil {
			return res, err
		}
		if best == 0 {
			best = rank
		}
		r.Score = normalise(rank, best)
		r.Snippet = splitSnippet(snip)
		res.Results = append(res.Results, r)
	}
	res.Took = time.Since(start)
	return res, rows.Err()
}

// normalise maps a bm25 rank (negative, lower is better) to 0..1000 relative to the best.
func normalise(rank, best float64) int {
	if best >= 0 || rank >= 0 {
		return 1000
	}
	return int(math.Round(1000 * rank / best))
}

// splitSnippet turns FTS5's marked snippet into alternating plain and matched fragments.
func splitSnippet(s string) []string {
	var out []string
	for {
		i := strings.Index(s, markOpen)
		if i < 0 {
			return append(out, s)
		}
		j := strings.Index(s[i:], markClose)
		if j < 0 {
			return append(out, strings.ReplaceAll(s, markOpen, ""))
		}
		out = append(out, s[:i], s[i+len(markOpen):i+j])
		s = s[i+j+len(markClose):]
	}
}
