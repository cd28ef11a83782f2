package search

import (
	"context"
	"encoding/json"
	"fmt"
	"mundaneum/backend/query"
	"regexp"
	"strconv"
	"time"
)

// WWWW let users search URLs and titles with egrep. Here url:/re/ and title:/re/ are RE2
// expressions (linear time, no backtracking), case-insensitive, compiled with a length cap
// and evaluated in Go over a bounded candidate set: the matches of the rest of the query
// when the regexp is one of its conjuncts, else every page.
const (
	regexScanCap   = 200_000                // candidate rows tested
	regexMatchCap  = 100_000                // matching ids kept
	regexBudget    = 300 * time.Millisecond // time spent testing
	regexCheckStep = 1024                   // rows between clock checks
)

// evalRegexps computes the page ids of the plan's regexps and binds them.
func (s *Searcher) evalRegexps(ctx context.Context, pl *plan, n *query.Notes) error {
	for _, leaf := range pl.regexps {
		ids, err := s.scanRegexps(ctx, &statement{from: `pages p`, where: universeStatusSQL}, []topRegex{{re: leaf.node}}, n)
		if err != nil {
			return err
		}
		leaf.ids = ids
	}
	if len(pl.top) == 0 {
		return nil
	}
	// The candidates: the matches of the rest of the query.
	ids, err := s.scanRegexps(ctx, pl.statement(s.w), pl.top, n)
	if err != nil {
		return err
	}
	pl.topIDs = ids
	return nil
}

// scanRegexps tests the candidates of st against all of res and returns the passing page
// ids as a JSON array.
func (s *Searcher) scanRegexps(ctx context.Context, st *statement, res []topRegex, n *query.Notes) (string, error) {
	type compiled struct {
		re     *regexp.Regexp
		title  bool
		negate bool
	}
	var cs []compiled
	for _, r := range res {
		re, err := regexp.Compile("(?i)" + r.re.Pattern)
		if err != nil { // the parser checked it; be safe anyway
			return "[]", nil
		}
		cs = append(cs, compiled{re, r.re.Field == query.FieldTitle, r.negate})
	}
	rows, err := s.db.QueryContext(ctx, `SELECT p.id, p.url, coalesce(p.title, '') FROM `+st.from+` WHERE `+st.where+` LIMIT `+strconv.Itoa(regexScanCap+1),
		st.args...)
	if err != nil {
		return "", fmt.Errorf("regexp candidates: %w", err)
	}
	defer rows.Close()
	start := time.Now()
	var ids []int64
	scanned := 0
	capped := ""
	for rows.Next() {
		scanned++
		if scanned > regexScanCap {
			capped = "the first " + strconv.Itoa(regexScanCap) + " candidate pages"
			break
		}
		if scanned%regexCheckStep == 0 && time.Since(start) > regexBudget {
			capped = "the pages it had time for (" + strconv.Itoa(scanned) + ")"
			break
		}
		var id int64
		var u, title string
		if err := rows.Scan(&id, &u, &title); err != nil {
			return "", err
		}
		ok := true
		for _, c := range cs {
			text := u
			if c.title {
				text = title
			}
			if c.re.MatchString(text) == c.negate {
				ok = false
				break
			}
		}
		if ok {
			ids = append(ids, id)
			if len(ids) >= regexMatchCap {
				capped = "its first " + strconv.Itoa(regexMatchCap) + " matches"
				break
			}
		}
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("regexp candidates: %w", err)
	}
	if capped != "" {
		n.Add("a regular expression was tested on " + capped + " only")
	}
	if ids == nil {
		ids = []int64{}
	}
	b, _ := json.Marshal(ids)
	return string(b), nil
}
