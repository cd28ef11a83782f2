package app

import (
	"encoding/json"
	"time"

	"mundaneum/backend/crawl"
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
	dto := Crawl{ID: c.ID, Seeds: c.Seeds, Scope: c.Scope, State: c.State, ToVisit: c.Queued,
		Visited: c.Fetched + c.Failed + c.Skipped, Bytes: c.Bytes, Done: -1, StartedAt: rfc3339(c.StartedAt),
		FinishedAt: rfc3339(c.FinishedAt), Note: c.Note, Error: c.Error}
	setPages(&dto, c.Pages)
	var cfg crawl.Config
	if json.Unmarshal(c.Config, &cfg) == nil {
		dto.MaxPages, dto.MaxSeconds = cfg.MaxPages, int(cfg.MaxTime/time.Second)
		dto.Rules, dto.Toward = cfg.Rules, cfg.Toward
	}
	// No rate for a run that is not running: a failed seed's 4 ms are not "250 pages/s".
	return dto
}

func setPages(dto *Crawl, pages map[string]int64) {
	dto.Fetched, dto.Failed, dto.Skipped = pages[store.StateFetched], pages[store.StateFailed], pages[store.StateSkipped]
	dto.Redirected, dto.Queued, dto.Recorded = pages[store.StateRedirected], pages[store.StateQueued], pages[store.Recorded]
}

func searchDTO(r search.Results) SearchResults {
	out := SearchResults{Query: r.Query, Total: r.Total, TotalApprox: r.TotalApprox, TotalAtLeast: r.TotalAtLeast, Window: r.Window,
		TookMs: float64(r.Took.Microseconds()) / 1000, Results: make([]Result, 0, len(r.Results)),
		Facets: map[string][]FacetCount{}, FacetsApprox: r.FacetsApprox, Note: r.Note,
		DidYouMean: r.DidYouMean, Corrected: r.Corrected}
	for _, h := range r.Results {
		out.Results = append(out.Results, Result{PageID: h.PageID, URL: h.URL, Title: h.Title, Host: h.Host,
			Type: h.Type, State: h.State, Status: h.Status, Score: h.Score, Snippet: h.Snippet,
			Copies: h.Copies, Alternates: h.Alternates, Reason: h.Reason, FetchedAt: rfc3339(h.FetchedAt), New: h.New,
			ChangedAt: rfc3339(h.ChangedAt), Versions: h.Versions, Flag: h.Flag, Author: h.Author, Pages: h.Pages, Summariser: h.Summariser,
			Source: h.Source, Explain: h.Explain})
	}
	out.Facets = facetsDTO(r.Facets)
	return out
}

func facetsDTO(in map[string][]search.FacetCount) map[string][]FacetCount {
	out := map[string][]FacetCount{}
	for name, fs := range in {
		for _, f := range fs {
			out[name] = append(out[name], FacetCount{Value: f.Value, Count: f.Count, Refine: f.Refine})
		}
	}
	return out
}

func facetResultsDTO(r search.FacetResults) FacetResults {
	return FacetResults{Query: r.Query, Facets: facetsDTO(r.Facets), Approx: r.Approx, DidYouMean: r.DidYouMean,
		Corrected: r.Corrected, TookMs: float64(r.Took.Microseconds()) / 1000}
}

func pageDTO(p store.Page, out, in []store.LinkRef) Page {
	canonical := p.Canonical
	if canonical == p.URL {
		canonical = ""
	}
	return Page{ID: p.ID, URL: p.URL, Host: p.Host, State: p.State, Reason: p.Reason, Detail: p.Detail,
		ReasonText: reasonText(p.Reason), Alternates: p.Alternates, ConfirmedAt: rfc3339(p.ConfirmedAt),
		Status: p.Status, FinalURL: p.FinalURL, ContentType: p.ContentType, Charset: p.Charset, Lang: p.Lang,
		Title: p.Title, Description: p.Description, Keywords: p.Keywords, Author: p.Author, Owner: p.Owner,
		Canonical: canonical, Size: p.Size, DuplicateOf: p.DuplicateOf, DuplicateURL: p.DuplicateURL,
		ETag: p.ETag, LastModified: p.LastModified, Expires: p.Expires, Depth: p.Depth, ParentURL: p.ParentURL,
		CrawlID: p.CrawlID, Problems: p.Problems, NoIndex: p.NoIndex, NoFollow: p.NoFollow, Cached: p.Cached,
		DiscoveredAt: rfc3339(p.DiscoveredAt), FetchedAt: rfc3339(p.FetchedAt), ChangedAt: rfc3339(p.ChangedAt),
		RefreshAt: rfc3339(p.RefreshAt), Inlinks: p.Inlinks, Outlinks: p.Outlinks,
		LinksOut: linkDTOs(out), LinksIn: linkDTOs(in)}
}

func reasonText(reason string) string {
	if reason == "" {
		return ""
	}
	return crawl.ReasonText(reason)
}

func linkDTOs(ls []store.LinkRef) []LinkRef {
	out := make([]LinkRef, 0, len(ls))
	for _, l := range ls {
		out = append(out, LinkRef{PageID: l.PageID, URL: l.URL, Title: l.Title, State: l.State, Status: l.Status,
			Kind: l.Kind, Anchor: l.Anchor, Rel: l.Rel})
	}
	return out
}

func viewDTO(v search.View) View {
	return View{ID: v.ID, Name: v.Name, Query: v.Query, CreatedAt: rfc3339(v.CreatedAt), OpenedAt: rfc3339(v.OpenedAt), LastTotal: v.LastTotal}
}
