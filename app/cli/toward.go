package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"mundaneum/backend/search"
)

// towardResults is what a query-directed crawl (crawl --toward) has found so far: its pages
// that match the query, ranked by the index's own ranking. It asks the index every few
// seconds while the crawl runs, so pages appear as the index stage takes them in.
type towardResults struct {
	s     *search.Searcher
	query string // crawl:ID (QUERY)
	out   io.Writer

	mu    sync.Mutex
	shown map[string]bool
	last  search.Results
}

// towardQuery limits a query to one crawl's pages.
func towardQuery(crawlID int64, q string) string {
	return "crawl:" + strconv.FormatInt(crawlID, 10) + " (" + q + ")"
}

// watch prints, every interval until ctx ends, the matching pages not printed before.
func (t *towardResults) watch(ctx context.Context, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			t.poll(ctx)
		}
	}
}

// poll asks the index for the best matches and prints the new ones (out may be nil).
func (t *towardResults) poll(ctx context.Context) {
	res, err := t.s.Search(ctx, search.Request{Query: t.query, Limit: towardLimit})
	if err != nil {
		return // the next poll tries again; the crawl goes on
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.last = res
	if t.out == nil {
		return
	}
	for _, r := range res.Results {
		if !t.shown[r.URL] {
			t.shown[r.URL] = true
			fmt.Fprintf(t.out, "match %4d  %s  %s\n", r.Score, r.URL, clean(r.Title))
		}
	}
}

// towardLimit is how many matching pages a query-directed crawl reports.
const towardLimit = 20
