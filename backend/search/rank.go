package search

import (
	"context"
	"math"
	"mundaneum/backend/query"
	"mundaneum/backend/vocab"
	"slices"
)

// Ranking is in stages. The strategies find the first matches and score them with bm25
// over the weighted columns (find.go, score.go); then the best BoostDepth of them are
// boosted by citations and scored again by their titles and URLs (rerank.go), and the best
// ProxDepth of those by their text (proximity.go).

// boost multiplies the scores of the first BoostDepth hits by their citation boost and
// the second stage's factors (see rerank.go), sorts them again, and returns the best score
// of the query (the 1000 of normalised scores). root is nil when nothing ranks the hits.
func (s *Searcher) boost(ctx context.Context, root query.Node, expand vocab.Expansions, hits []hit) (best float64, texts pageTexts, err error) {
	n := min(len(hits), s.w.BoostDepth)
	if n == 0 {
		return 0, nil, nil
	}
	// The citations and the titles are read at once, on two connections: each is a read
	// of BoostDepth scattered rows, which a workspace just opened has to wait for the disk.
	var cites map[int64]int
	cited := make(chan error, 1)
	go func() {
		var err error
		if s.w.Links > 0 {
			cites, err = s.citesOf(ctx, hits[:n])
		}
		cited <- err
	}()
	var sig map[int64]factors
	if root != nil {
		sig, err = s.titleSignals(ctx, root, hits[:n])
	}
	if err := <-cited; err != nil {
		return 0, nil, err
	}
	if err != nil {
		return 0, nil, err
	}
	if s.w.Links > 0 {
		for i := range hits[:n] {
			hits[i].first = hits[i].score
			hits[i].cites = 1 + s.w.Links*math.Log1p(float64(cites[hits[i].id]))
			hits[i].score *= hits[i].cites
		}
	}
	byScore := func(a, b hit) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	}
	if root != nil {
		// The second stage, from the titles and URLs.
		for i := range hits[:n] {
			if f, ok := sig[hits[i].id]; ok {
				hits[i].sig, hits[i].second = f, s.w.factor(f)
				hits[i].score *= hits[i].second
			}
		}
		slices.SortStableFunc(hits[:n], byScore)
		if texts, err = s.proximity(ctx, root, expand, hits[:min(n, s.w.ProxDepth)]); err != nil {
			return 0, nil, err
		}
	}
	slices.SortStableFunc(hits[:n], byScore)
	return hits[0].score, texts, nil
}

// citesOf returns how many pages cite each hit (see citeCache.citing).
func (s *Searcher) citesOf(ctx context.Context, hits []hit) (map[int64]int, error) {
	maxPage, err := s.estimator().maxRowid(ctx)
	if err != nil {
		return nil, err
	}
	return s.cites.citing(ctx, s.db, maxPage, hits)
}
