package vocab

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mundaneum/backend/querysql"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// candidate is a term near the word being corrected.
type candidate struct {
	dist int // edit distance to the word
	// weight: how frequent it looks, the index segments holding it (0 when a probe found
	// it), or the bytes of its doclists (from the terms in memory, memory.go)
	weight int
}

// nearest returns the best correction of w from the index's vocabulary: the smallest
// edit distance, then the most documents; "" if none is close enough.
func (v *Vocabulary) nearest(ctx context.Context, w string) (string, error) {
	rw := []rune(w)
	limit := maxDistance
	if len(rw) <= 4 {
		limit = 1
	}
	fix, err := v.nearestInIndex(ctx, rw, limit)
	if errors.Is(err, errFTSFormat) {
		return v.nearestByMatch(ctx, rw)
	}
	return fix, err
}

// nearestByMatch is nearest for an index whose b-tree it cannot read: it probes the
// strings one edit away from w with MATCH, one position at a time from the last.
func (v *Vocabulary) nearestByMatch(ctx context.Context, w []rune) (string, error) {
	cands := map[string]candidate{}
	if _, err := v.probeEdits(ctx, w, len(w)+1, cands, v.matching, true); err != nil {
		return "", err
	}
	return v.pick(ctx, cands, 1)
}

// nearestInIndex is nearest reading the index's b-tree: in its largest segment, then if
// need be in every segment.
func (v *Vocabulary) nearestInIndex(ctx context.Context, w []rune, limit int) (string, error) {
	if err := v.checkFTSFormat(ctx); err != nil {
		return "", err
	}
	seg, segments, err := v.largestSegment(ctx)
	if err != nil {
		return "", err
	}
	cands := map[string]candidate{}
	if segments > 1 {
		reach, err := v.nearbyTerms(ctx, w, limit, seg, 1, cands)
		if err != nil {
			return "", err
		}
		// A short word is often one edit away from several: look for all of them.
		short := len(w) <= shortWord
		if !short {
			if fix, err := v.pick(ctx, cands, 1); fix != "" || err != nil {
				return fix, err
			}
		}
		inLargest := func(ctx context.Context, ws []string) (map[string]bool, error) { return v.inSegment(ctx, seg, ws) }
		if _, err := v.probeEdits(ctx, w, reach, cands, inLargest, !short); err != nil {
			return "", err
		}
		if fix, err := v.pick(ctx, cands, 1); fix != "" || err != nil {
			return fix, err
		}
	}
	// Every segment: the terms around the word's prefix, then, if none is close enough,
	// the strings one edit away with MATCH.
	reach, err := v.nearbyTerms(ctx, w, limit, 0, segments, cands)
	if err != nil {
		return "", err
	}
	for d := 1; d <= limit; d++ {
		if fix, err := v.pick(ctx, cands, d); fix != "" || err != nil {
			return fix, err
		}
	}
	if _, err := v.probeEdits(ctx, w, reach, cands, v.matching, true); err != nil {
		return "", err
	}
	return v.pick(ctx, cands, 1)
}

// nearbyTerms adds to cands the terms of segment seg (of all the index's segments if 0)
// within limit of w that share its first k letters, k being the shortest prefix (of two
// letters or more) whose terms fit in prefixPageBudget leaf pages, and the terms next to
// them. It returns reach: words one edit away whose edit is at a position before reach
// may be among the terms it did not read.
func (v *Vocabulary) nearbyTerms(ctx context.Context, w []rune, limit int, seg int64, segments int, cands map[string]candidate) (int, error) {
	k := min(2, len(w))
	for ; k < len(w); k++ {
		n, err := v.prefixPages(ctx, seg, string(w[:k]), prefixPageBudget)
		if err != nil {
			return 0, err
		}
		if n <= prefixPageBudget {
			break
		}
	}
	known := 0 // the longest prefix of w that starts some term
	// The pages of the prefix, and in each segment the one before and the one after.
	maxPages := prefixPageBudget + 2*segments
	err := v.prefixTerms(ctx, seg, string(w[:k]), maxPages, func(t string) {
		known = max(known, commonPrefix(w, t))
		c, ok := cands[t]
		if !ok {
			n := utf8.RuneCountInString(t)
			if n < minTermLen || abs(n-len(w)) > limit {
				return
			}
			if c.dist = Distance(w, []rune(t), limit); c.dist == 0 || c.dist > limit || !correctable(t) {
				return
			}
		}
		c.weight++
		cands[t] = c
	})
	// The terms read include those just before and after w[:k], so known is exact when
	// under k; a term one edit away from w keeps its letters before the edit, so the edit
	// is at most at position known.
	return min(k, known+1), err
}

// commonPrefix returns how many leading letters w and t share.
func commonPrefix(w []rune, t string) int {
	n := 0
	for _, r := range t {
		if n == len(w) || w[n] != r {
			break
		}
		n++
	}
	return n
}

// probeEdits adds to cands the strings one edit away from w, with the edit at a position
// before reach, that probe finds in the index. It tries one position at a time, from the
// last one, and with stop, stops at the first that yields some; it reports whether one
// did.
func (v *Vocabulary) probeEdits(ctx context.Context, w []rune, reach int, cands map[string]candidate,
	probe func(context.Context, []string) (map[string]bool, error), stop bool) (bool, error) {
	hit := false
	for j := reach - 1; j >= 0; j-- {
		var words []string
		for _, e := range editsAt(w, j) {
			if _, done := cands[e]; !done && correctable(e) {
				words = append(words, e)
			}
		}
		if len(words) == 0 {
			continue
		}
		found, err := probe(ctx, words)
		if err != nil {
			return false, fmt.Errorf("probe edits of %q: %w", string(w), err)
		}
		for t := range found {
			cands[t] = candidate{dist: 1}
		}
		if hit = hit || len(found) > 0; hit && stop {
			break
		}
	}
	return hit, nil
}

// matching returns which of words the index holds, with one MATCH each.
func (v *Vocabulary) matching(ctx context.Context, words []string) (map[string]bool, error) {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = querysql.Quote(w)
	}
	arg, err := json.Marshal(quoted)
	if err != nil {
		return nil, err
	}
	rows, err := v.db.QueryContext(ctx, `SELECT key FROM json_each(?) WHERE EXISTS (SELECT 1 FROM page_fts WHERE page_fts MATCH value)`, string(arg))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	found := map[string]bool{}
	for rows.Next() {
		var i int
		if err := rows.Scan(&i); err != nil {
			return nil, err
		}
		if i >= 0 && i < len(words) {
			found[words[i]] = true
		}
	}
	return found, rows.Err()
}

// pick returns the most frequent of the candidates at distance d that the index still
// has rows for, or "" if there is none.
func (v *Vocabulary) pick(ctx context.Context, cands map[string]candidate, d int) (string, error) {
	var ts []string
	for t, c := range cands {
		if c.dist == d {
			ts = append(ts, t)
		}
	}
	// The terms in most segments are likely the most frequent: estimate those.
	slices.SortFunc(ts, func(a, b string) int {
		return cmp.Or(cands[b].weight-cands[a].weight, strings.Compare(a, b))
	})
	best, bestF := "", frequency{}
	for _, t := range ts[:min(len(ts), maxRanked)] {
		f, err := v.frequency(ctx, t)
		if err != nil {
			return "", err
		}
		if f.n > 0 && f.more(bestF) {
			best, bestF = t, f
		}
	}
	return best, nil
}

// frequency estimates how many pages hold a term: the count when it is under freqSample,
// beyond that the rowid of its freqSample-th page (pages spread over the rowids, so the
// smaller that rowid, the more pages hold the term).
type frequency struct {
	n    int
	last int64
}

func (f frequency) more(g frequency) bool {
	if f.n != g.n {
		return f.n > g.n
	}
	return f.n == freqSample && f.last < g.last
}

func (v *Vocabulary) frequency(ctx context.Context, term string) (frequency, error) {
	var f frequency
	rows, err := v.db.QueryContext(ctx, `SELECT rowid FROM page_fts WHERE page_fts MATCH ? LIMIT `+strconv.Itoa(freqSample), querysql.Quote(term))
	if err != nil {
		return f, fmt.Errorf("frequency of %q: %w", term, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := rows.Scan(&f.last); err != nil {
			return f, fmt.Errorf("frequency of %q: %w", term, err)
		}
		f.n++
	}
	if err := rows.Err(); err != nil {
		return f, fmt.Errorf("frequency of %q: %w", term, err)
	}
	return f, nil
}

// editsAt returns the strings that one edit at position j makes of w: deleting its letter,
// swapping it with the next, replacing it or inserting before it a letter a-z or one of the
// word's own.
func editsAt(w []rune, j int) []string {
	if j < 0 || j > len(w) {
		return nil
	}
	letters := []rune("abcdefghijklmnopqrstuvwxyz")
	for _, r := range w {
		if !slices.Contains(letters, r) {
			letters = append(letters, r)
		}
	}
	seen := map[string]bool{string(w): true}
	var out []string
	add := func(rs []rune) {
		if s := string(rs); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	if j < len(w) {
		add(slices.Delete(slices.Clone(w), j, j+1))
	}
	if j+1 < len(w) {
		t := slices.Clone(w)
		t[j], t[j+1] = t[j+1], t[j]
		add(t)
	}
	for _, r := range letters {
		if j < len(w) {
			t := slices.Clone(w)
			t[j] = r
			add(t)
		}
		add(slices.Insert(slices.Clone(w), j, r))
	}
	return out
}
