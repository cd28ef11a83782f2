package search

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"slices"
	"sort"
	"strconv"

	"mundaneum/backend/query"
)

// maxFacetValues bounds the values listed per facet (the most frequent first).
const maxFacetValues = 20

// facetRow is what the facets read of one match.
type facetRow struct {
	hostID, crawlID int64
	status          int
	state, reason   string
	ct, url         string
}

// facets counts the matches by host, type, crawl and status. Up to FacetCap matches they
// are counted exactly. Beyond, the counts are estimated (approx): the index's rowid range is
// cut into facetWindows equal windows and the first FacetCap/facetWindows matches of each
// are read, a stratified sample across the whole crawl rather than its oldest pages; a
// window read to its end counts its matches exactly, a window cut short stands for its
// whole span in proportion to the share of it read. Reading is what costs (each match is
// joined to its page, ~2 us), so a query over a million pages reads at most FacetCap rows.
func (st *statement) facets(ctx context.Context, db *sql.DB) (map[string][]FacetCount, bool, error) {
	var maxRow int64
	if err := db.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM pages`).Scan(&maxRow); err != nil {
		return nil, false, fmt.Errorf("facets: %w", err)
	}
	hosts := map[int64]float64{}
	counts := map[string]map[string]float64{"type": {}, "crawl": {}, "status": {}}
	add := func(r facetRow, weight float64) {
		hosts[r.hostID] += weight
		if t := typeOf(r.ct, r.url); t != "" {
			counts["type"][t] += weight
		}
		if r.crawlID != 0 {
			counts["crawl"][strconv.FormatInt(r.crawlID, 10)] += weight
		}
		counts["status"][statusValue(r.status, r.state, r.reason)] += weight
	}
	rows, err := st.facetRows(ctx, db, 1, maxRow, FacetCap)
	if err != nil {
		return nil, false, err
	}
	approx := len(rows) > FacetCap
	if !approx {
		for _, r := range rows {
			add(r.facetRow, 1)
		}
	} else {
		quota := FacetCap / facetWindows
		span := max(maxRow/facetWindows, 1)
		for i := int64(0); i < facetWindows; i++ {
			lo, hi := 1+i*span, (i+1)*span
			if i == facetWindows-1 {
				hi = maxRow
			}
			rows, err := st.facetRows(ctx, db, lo, hi, quota)
			if err != nil {
				return nil, false, err
			}
			weight := 1.0
			if len(rows) > quota {
				// Cut short: the rows read stand for the window's whole span.
				rows = rows[:quota]
				weight = float64(hi-lo+1) / float64(rows[quota-1].id-lo+1)
			}
			for _, r := range rows {
				add(r.facetRow, weight)
			}
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
		return nil, false, err
	}
	counts2 := map[string]map[string]int{}
	for k, m := range counts {
		counts2[k] = round(m)
	}
	return st.facetLists(out, hostCounts, counts2), approx, nil
}

// facetWindows is how many windows of the index a large match set is sampled from.
const facetWindows = 8

type idRow struct {
	id int64
	facetRow
}

// facetRows reads up to limit+1 matches whose page ids are lo..hi, in id order.
func (st *statement) facetRows(ctx context.Context, db *sql.DB, lo, hi int64, limit int) ([]idRow, error) {
	idCol := "p.id"
	if st.table != "" {
		idCol = st.table + ".rowid" // the index drives: a rowid range is a seek
	}
	rows, err := db.QueryContext(ctx, `SELECT p.id, p.host_id, coalesce(p.crawl_id, 0), coalesce(p.status, 0), p.state,
		coalesce(p.reason, ''), coalesce(p.content_type, ''), p.url FROM `+st.countFrom+` WHERE `+st.where+`
		AND `+idCol+` BETWEEN ? AND ? LIMIT ?`,
		append(slices.Clone(st.countArgs), lo, hi, limit+1)...)
	if err != nil {
		return nil, fmt.Errorf("facets: %w", err)
	}
	defer rows.Close()
	var out []idRow
	for rows.Next() {
		var r idRow
		if err := rows.Scan(&r.id, &r.hostID, &r.crawlID, &r.status, &r.state, &r.reason, &r.ct, &r.url); err != nil {
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
func (st *statement) facetLists(out map[string][]FacetCount, hostCounts map[string]int, counts map[string]map[string]int) map[string][]FacetCount {
	out["host"] = ranked(hostCounts, func(v string) string { return "host:" + v })
	out["type"] = ranked(counts["type"], func(v string) string {
		if query.FamilyNamed(v) != nil || query.IsMediaType(v) {
			return "type:" + v
		}
		return "ext:" + v
	})
	out["crawl"] = ranked(counts["crawl"], func(v string) string { return "crawl:" + v })
	out["status"] = ranked(counts["status"], func(v string) string {
		if _, err := strconv.Atoi(v); err == nil {
			return "status:" + v
		}
		return "is:" + v
	})
	return out
}

// statusValue names a page's status for the status facet: its HTTP status, or what it is.
func statusValue(status int, state, reason string) string {
	switch {
	case status > 0:
		return strconv.Itoa(status)
	case state == "skipped" && reason == "type":
		return "resource"
	case state == "redirected":
		return "redirect"
	case state == "failed":
		return "failed"
	}
	return state
}

// hostNames turns host ids into host names (with the port when not the default).
func hostNames(ctx context.Context, db *sql.DB, counts map[int64]int) (map[string]int, error) {
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

func ranked(m map[string]int, refine func(string) string) []FacetCount {
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
