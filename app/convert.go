package app

import (
	"encoding/json"
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
	var cfg struct {
		Rules string `json:"rules"`
	}
	if json.Unmarshal(c.Config, &cfg) == nil {
		dto.Rules = cfg.Rules
	}
	if c.FinishedAt > c.StartedAt && c.StartedAt > 0 {
		// A finished run shows its average rate; a running one gets the live rate from progress.
		dto.PagesPerSec = float64(c.Fetched+c.Failed+c.Skipped) / (float64(c.FinishedAt-c.StartedAt) / 1000)
	}
	return dto
}

func searchDTO(r search.Results) SearchResults {
	out := SearchResults{Query: r.Query, Total: r.Total, TotalApprox: r.TotalApprox,
		TookMs: float64(r.Took.Microseconds()) / 1000, Results: make([]Result, 0, len(r.Results)),
		Facets: map[string][]FacetCount{}, FacetsApprox: r.FacetsApprox, Note: r.Note,
		DidYouMean: r.DidYouMean, Corrected: r.Corrected}
	for _, h := range r.Results {
		out.Results = append(out.Results, Result{PageID: h.PageID, URL: h.URL, Title: h.Title, Host: h.Host,
			Type: h.Type, State: h.State, Status: h.Status, Score: h.Score, Snippet: nonNil(h.Snippet),
			Copies: h.Copies, FetchedAt: rfc3339(h.FetchedAt)})
	}
	for name, fs := range r.Facets {
		for _, f := range fs {
			out.Facets[name] = append(out.Facets[name], FacetCount{Value: f.Value, Count: f.Count, Refine: f.Refine})
		}
	}
	return out
}

func pageDTO(p store.Page, out, in []store.LinkRef) Page {
	return Page{ID: p.ID, URL: p.URL, Host: p.Host, State: p.State, Reason: p.Reason, Detail: p.Detail,
		Status: p.Status, FinalURL: p.FinalURL, ContentType: p.ContentType, Charset: p.Charset, Lang: p.Lang,
		Title: p.Title, Description: p.Description, Keywords: p.Keywords, Author: p.Author, Owner: p.Owner,
		Canonical: p.Canonical, Size: p.Size, DuplicateOf: p.DuplicateOf, DuplicateURL: p.DuplicateURL,
		ETag: p.ETag, LastModified: p.LastModified, Expires: p.Expires, Depth: p.Depth, ParentURL: p.ParentURL,
		CrawlID: p.CrawlID, Problems: nonNil(p.Problems), NoIndex: p.NoIndex, NoFollow: p.NoFollow, Cached: p.Cached,
		DiscoveredAt: rfc3339(p.DiscoveredAt), FetchedAt: rfc3339(p.FetchedAt), ChangedAt: rfc3339(p.ChangedAt),
		RefreshAt: rfc3339(p.RefreshAt), Inlinks: p.Inlinks, Outlinks: p.Outlinks,
		LinksOut: linkDTOs(out), LinksIn: linkDTOs(in)}
}

func linkDTOs(ls []store.LinkRef) []LinkRef {
	out := make([]LinkRef, 0, len(ls))
	for _, l := range ls {
		out = append(out, LinkRef{PageID: l.PageID, URL: l.URL, Title: l.Title, State: l.State, Status: l.Status,
			Kind: l.Kind, Anchor: l.Anchor, Rel: l.Rel})
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func viewDTO(v search.View) View {
	return View{ID: v.ID, Name: v.Name, Query: v.Query, CreatedAt: rfc3339(v.CreatedAt), OpenedAt: rfc3339(v.OpenedAt), LastTotal: v.LastTotal}
}
