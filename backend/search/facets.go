package search

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"mundaneum/backend/store"
	"net/url"
	"slices"
	"sort"
	"strconv"

	"mundaneum/backend/query"
)

// FacetCap is how many matches the facets count exactly; beyond, they are estimated from a
// sample of as many (see facets).
const FacetCap = 2_000

// maxFacetValues bounds the values listed per facet (the most frequent first).
const maxFacetValues = 20

// facetRow is what the facets read of one match.
type facetRow struct {
	hostID, crawlID int64
	status          string // as statusSQL names it
	ct, url         string
	render          string // as renderSQL names it ("" for pages not read as HTML)
}

// facets counts the matches by host, type, crawl, status and render. Reading is what costs (each
// match is joined to its page: 2-4 us at 100,000 pages, more at a million), so a large
// match set is sampled, and its facets cost what those of a small one do.
//
// The index's rowid range is cut into facetWindows equal windows, read in rounds, each
// window in id order from where it stopped. The first round reads a sample of about
// facetSample matches, shared among the windows. When the sample shows more than about
// FacetCap matches (1.5 times, for the sample's error), it stands, and the counts are
// estimated (approx) from it: stratified across the whole crawl, not its oldest pages; a
// window read to its end counts its matches exactly, a window cut short stands for its
// whole span in proportion to the share of it read. Otherwise the rounds go on, sharing
// what is left of a budget of FacetCap rows among the windows not read to their end, so up
// to FacetCap matches are counted exactly however they are spread over the index.
func (pl *plan) facets(ctx context.Context, db *sql.DB) (facetSet, error) {
	conn, err := db.Conn(ctx) // one connection, one parse of the statement for every window
	if err != nil {
		return facetSet{}, fmt.Errorf("facets: %w", err)
	}
	defer conn.Close()
	query, args, none, err := pl.facetQuery(ctx, conn)
	if err != nil || none {
		return facetSet{}, err
	}
	stmt, err := conn.PrepareContext(ctx, query)
	if err != nil {
		return facetSet{}, fmt.Errorf("facets: %w", err)
	}
	defer stmt.Close()
	var maxRow int64
	if err := conn.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM pages`).Scan(&maxRow); err != nil {
		return facetSet{}, fmt.Errorf("facets: %w", err)
	}
	hosts := map[int64]float64{}
	counts := map[string]map[string]float64{"type": {}, "crawl": {}, "status": {}, "render": {}}
	add := func(r facetRow, weight float64) {
		hosts[r.hostID] += weight
		if t := typeOf(r.ct, r.url); t != "" {
			counts["type"][t] += weight
		}
		if r.crawlID != 0 {
			counts["crawl"][strconv.FormatInt(r.crawlID, 10)] += weight
		}
		counts["status"][r.status] += weight
		if r.render != "" {
			counts["render"][r.render] += weight
		}
	}
	n := int64(facetWindows)
	if maxRow < n*int64(facetWindows) {
		n = 1 // a small index is one window
	}
	span := max(maxRow/n, 1)
	ws := make([]*window, n)
	for i := range ws {
		lo, hi := 1+int64(i)*span, int64(i+1)*span
		if i == len(ws)-1 {
			hi = maxRow
		}
		ws[i] = &window{lo: lo, hi: hi, next: lo}
	}
	// A first read over the whole index finds the first matches in id order: it is all
	// there is to read when they are few (one query, not one a window). Each window it
	// passed is read to its end; the one it stopped in resumes where it stopped.
	first := facetSample / facetWindows
	rows, err := facetRows(ctx, stmt, args, 1, maxRow, first)
	if err != nil {
		return facetSet{}, err
	}
	next := maxRow + 1
	if len(rows) > first {
		next = rows[first].id
		rows = rows[:first]
	}
	for _, w := range ws {
		for len(rows) > 0 && rows[0].id <= w.hi {
			w.rows = append(w.rows, rows[0])
			rows = rows[1:]
		}
		switch {
		case next > w.hi:
			w.done = true
		case next >= w.lo:
			w.next = next
		}
	}
	// Then a round reads a sample of facetSample matches; when they show that the
	// matches are not many more than FacetCap, the rounds go on to count them all.
	read := 0
	for _, w := range ws {
		read += len(w.rows)
	}
	budget := facetSample - read
	for round := 0; round < facetRounds; round++ {
		var open []*window
		for _, w := range ws {
			if !w.done {
				open = append(open, w)
			}
		}
		if round == 1 && len(open) > 0 {
			est := 0.0
			for _, w := range ws {
				est += float64(len(w.rows)) * w.weight()
			}
			if est > FacetCap*3/2 {
				break // many: the sample stands (the margin allows for its error)
			}
			budget = FacetCap - read
		}
		if len(open) == 0 || budget < len(open) {
			break
		}
		quota := budget / len(open)
		for _, w := range open {
			rows, err := facetRows(ctx, stmt, args, w.next, w.hi, quota)
			if err != nil {
				return facetSet{}, err
			}
			if len(rows) > quota {
				// More to read: resume at the first row not kept.
				w.next = rows[quota].id
				rows = rows[:quota]
			} else {
				w.done = true
			}
			w.rows = append(w.rows, rows...)
			budget -= len(rows)
			read += len(rows)
		}
	}
	matched, approx := false, false
	for _, w := range ws {
		matched = matched || len(w.rows) > 0
		approx = approx || !w.done
		weight := w.weight()
		for _, r := range w.rows {
			add(r.facetRow, weight)
		}
	}
	round := func(m map[string]float64) map[string]int {
		out := make(map[string]int, len(m))
		for k, v := range m {
			out[k] = max(1, int(math.Round(v)))
		}
		return out
	}
	hostInts := make(map[int64]int, len(hosts))
	for k, v := range hosts {
		hostInts[k] = max(1, int(math.Round(v)))
	}
	out := map[string][]FacetCount{}
	hostCounts, err := hostNames(ctx, db, hostInts)
	if err != nil {
		return facetSet{}, err
	}
	counts2 := map[string]map[string]int{}
	for k, m := range counts {
		counts2[k] = round(m)
	}
	return facetSet{lists: facetLists(out, hostCounts, counts2), approx: approx, matched: matched}, nil
}

// facetSet is what counting a statement's facets found.
type facetSet struct {
	lists   map[string][]FacetCount
	approx  bool // estimated from a sample (more than FacetCap matches)
	matched bool // the statement matched at least one page
}

// window is one stratum of the facets' sample: a span of page ids.
type window struct {
	lo, hi, next int64 // its span, and the id reading resumes at
	rows         []idRow
	done         bool // read to its end
}

// weight is how many matches each row read stands for: 1 in a window read to its end; in
// a window cut short, its span over the share of it read.
func (w *window) weight() float64 {
	if w.done {
		return 1
	}
	return float64(w.hi-w.lo+1) / float64(w.next-w.lo)
}

// facetWindows is how many windows of the index a large match set is sampled from, and
// facetRounds how many times the budget left is shared among those not read to their end.
// facetSample is how many matches a large match set's counts are estimated from (the
// relative error of a value with share p of the matches is about sqrt((1-p)/(p*facetSample)):
// 10% at p = 0.1).
const (
	facetWindows = 8
	facetRounds  = 4
	facetSample  = 800
)

type idRow struct {
	id int64
	facetRow
}

// facetQuery returns the SQL the facets read the plan's matches with, and its arguments;
// none when the plan cannot match (its filters pick no page).
//
// A text query whose filters pick few pages (up to filterSetCap: `site:` of one site,
// `ext:pdf`) has its text matches checked against those pages, as filtersFirst does for the
// results: joining every match of a common word (or of its stems) to its page to test the
// filter costs a lookup a match, hundreds of thousands of them when the filter keeps none.
// The facets read every match up to FacetCap, not the first RankCap, so a plan that joins
// for its results (textJoin: filters of more pages than a quarter of the text's rows) may
// still read its facets filters first: its filters' pages are counted on to filterSetCap.
func (pl *plan) facetQuery(ctx context.Context, conn *sql.Conn) (q string, args []any, none bool, err error) {
	st, span := pl.st, pl.filtered
	switch pl.kind {
	case textJoin:
		if span.limit <= filterSetCap {
			if span, err = st.filterPages(ctx, conn, filterSetCap+1); err != nil {
				return "", nil, false, fmt.Errorf("facets: %w", err)
			}
		}
	case filtersFirst:
	default:
		return st.facetSQL(st.where), st.args, false, nil
	}
	switch {
	case span.n == 0:
		return "", nil, true, nil
	case span.n > filterSetCap:
		return st.facetSQL(st.where), st.args, false, nil
	}
	return st.facetSQL(st.table + ` MATCH ? AND ` + st.inFilter()), append([]any{st.match}, st.filterArgs...), false, nil
}

// facetSQL reads the matches of where whose page ids are ?..?, in id order, at most ?,
// with what the facets count of each.
func (st *statement) facetSQL(where string) string {
	// The full-text index drives in id order, and a rowid range is a seek in it. Pages
	// found by filters may come in another order (an index on hosts gives one host's pages
	// after another's), which would make the first matches of a window those of its first
	// hosts: they are sorted (by the matches of the window alone, or by the order of a scan).
	idCol, order := "p.id", " ORDER BY p.id"
	if st.table != "" {
		idCol, order = st.table+".rowid", ""
	}
	// The URL is read only when there is no content type to tell the type by.
	return `SELECT p.id, p.host_id, coalesce(p.crawl_id, 0), ` + statusSQL + `, coalesce(p.content_type, ''),
		iif(coalesce(p.content_type, '') = '', p.url, ''), ` + renderSQL + ` FROM ` + st.from + ` WHERE ` + where + `
		AND ` + idCol + ` BETWEEN ? AND ?` + order + ` LIMIT ?`
}

// statusSQL names a page's status for the status facet: its HTTP status, or what it is.
const statusSQL = `CASE WHEN coalesce(p.status, 0) > 0 THEN CAST(p.status AS TEXT)
	WHEN p.state = 'skipped' AND p.reason = 'type' THEN 'resource'
	WHEN p.state = 'redirected' THEN 'redirect' ELSE p.state END`

// renderSQL names how a page's HTML was read for the render facet: rendered, static, or
// shell-WHY for a shell that was not rendered (the render: filter takes the same words).
const renderSQL = `CASE WHEN p.render = 'shell' THEN 'shell-' || coalesce(p.render_why, '') ELSE coalesce(p.render, '') END`

// facetRows reads up to limit+1 matches whose page ids are lo..hi, in id order, with stmt
// (facetSQL).
func facetRows(ctx context.Context, stmt *sql.Stmt, args []any, lo, hi int64, limit int) ([]idRow, error) {
	rows, err := stmt.QueryContext(ctx, append(slices.Clone(args), lo, hi, limit+1)...)
	if err != nil {
		return nil, fmt.Errorf("facets: %w", err)
	}
	defer rows.Close()
	out := make([]idRow, 0, min(limit+1, 256))
	for rows.Next() {
		var r idRow
		if err := rows.Scan(&r.id, &r.hostID, &r.crawlID, &r.status, &r.ct, &r.url, &r.render); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("facets: %w", err)
	}
	return out, nil
}

// facetLists orders each facet's counts and names the term that narrows to each value.
func facetLists(out map[string][]FacetCount, hostCounts map[string]int, counts map[string]map[string]int) map[string][]FacetCount {
	out["host"] = facetList(hostCounts, func(v string) string { return "host:" + v })
	out["type"] = facetList(counts["type"], func(v string) string {
		if query.FamilyNamed(v) != nil || query.IsMediaType(v) {
			return "type:" + v
		}
		return "ext:" + v
	})
	out["crawl"] = facetList(counts["crawl"], func(v string) string { return "crawl:" + v })
	if len(counts["render"]) > 0 {
		out["render"] = facetList(counts["render"], func(v string) string { return "render:" + v })
	}
	out["status"] = facetList(counts["status"], func(v string) string {
		if _, err := strconv.Atoi(v); err == nil {
			return "status:" + v
		}
		return "is:" + v
	})
	return out
}

// hostNames turns host ids into host names (with the port when not the default).
func hostNames(ctx context.Context, db store.Querier, counts map[int64]int) (map[string]int, error) {
	ids := make([]int64, 0, len(counts))
	for id := range counts {
		ids = append(ids, id)
	}
	b, _ := json.Marshal(ids)
	rows, err := db.QueryContext(ctx, `SELECT id, origin FROM hosts WHERE id IN (SELECT value FROM json_each(?))`, string(b))
	if err != nil {
		return nil, fmt.Errorf("facets: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var id int64
		var origin string
		if err := rows.Scan(&id, &origin); err != nil {
			return nil, err
		}
		h := origin
		if u, err := url.Parse(origin); err == nil && u.Host != "" {
			h = u.Host
		}
		out[h] += counts[id]
	}
	return out, rows.Err()
}

// facetList orders one facet's counts, most first, at most maxFacetValues of them.
func facetList(m map[string]int, refine func(string) string) []FacetCount {
	out := make([]FacetCount, 0, len(m))
	for v, c := range m {
		out = append(out, FacetCount{Value: v, Count: c, Refine: refine(v)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Value < out[j].Value
	})
	if len(out) > maxFacetValues {
		out = out[:maxFacetValues]
	}
	return out
}

// FacetCount is one value of a facet, with the query term that narrows to it.
type FacetCount struct {
	Value  string
	Count  int
	Refine string // e.g. site:example.com, to add to the query
}
