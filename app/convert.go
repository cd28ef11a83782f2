package app

import (
	"time"

	"mundaneum/backend/search"
	"mundaneum/backend/store"
)

func rfc3339(ms int64) string {
	if ms == 0 {
		return ""
	}
	return time.UnixMilli(ms).UTC().Format(time.RFC3339)
}

func crawlDTO(c store.Crawl) Crawl {
	dto := Crawl{ID: c.ID, Seeds: c.Seeds, Scope: c.Scope, State: c.State, Fetched: c.Fetched, Queued: c.Queued,
		Failed: c.Failed, Skipped: c.Skipped, Bytes: c.Bytes, StartedAt: rfc3339(c.StartedAt),
		FinishedAt: rfc3339(c.FinishedAt), Error: c.Error}
	if c.FinishedAt > c.StartedAt && c.StartedAt > 0 {
		// A finished run shows its average rate; a running one gets the live rate from progress.
		dto.PagesPerSec = float64(c.Fetched+c.Failed+c.Skipped) / (float64(c.FinishedAt-c.StartedAt) / 1000)
	}
	return dto
}

func searchDTO(r search.Results) SearchResults {
	out := SearchResults{Query: r.Query, Total: r.Total, TookMs: float64(r.Took.Microseconds()) / 1000,
		Results: make([]Result, 0, len(r.Results))}
	for _, h := range r.Results {
		out.Results = append(out.Results, Result{PageID: h.PageID, URL: h.URL, Title: h.Title, Score: h.Score, Snippet: h.Snippet})
	}
	return out
}
