package search

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strconv"

	"mundaneum/backend/query"
)

// maxFacetValues bounds the values listed per facet (the most frequent first).
const maxFacetValues = 20

// facets counts the first FacetCap matches by host, type, crawl and status.
func (st *statement) facets(ctx context.Context, db *sql.DB) (map[string][]FacetCount, bool, error) {
	rows, err := db.QueryContext(ctx, `SELECT p.host_id, coalesce(p.crawl_id, 0), coalesce(p.status, 0), p.state,
		coalesce(p.reason, ''), coalesce(p.content_type, ''), p.url FROM `+st.countFrom+` WHERE `+st.where+` LIMIT ?`,
		append(st.countArgs, FacetCap+1)...)
	if err != nil {
		return nil, false, fmt.Errorf("facets: %w", err)
	}
	defer rows.Close()
	hosts := map[int64]int{}
	counts := map[string]map[string]int{"type": {}, "crawl": {}, "status": {}}
	n := 0
	for rows.Next() {
		n++
		if n > FacetCap {
			break
		}
		var hostID, crawlID int64
		var status int
		var state, reason, ct, u string
		if err := rows.Scan(&hostID, &crawlID, &status, &state, &reason, &ct, &u); err != nil {
			return nil, false, err
		}
		hosts[hostID]++
		if t := typeOf(ct, u); t != "" {
			counts["type"][t]++
		}
		if crawlID != 0 {
			counts["crawl"][strconv.FormatInt(crawlID, 10)]++
		}
		counts["status"][statusValue(status, state, reason)]++
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("facets: %w", err)
	}
	out := map[string][]FacetCount{}
	hostCounts, err := hostNames(ctx, db, hosts)
	if err != nil {
		return nil, false, err
	}
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
	return out, n > FacetCap, nil
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
