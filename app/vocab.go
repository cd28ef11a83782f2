package app

import (
	"context"
	"time"

	"mundaneum/backend/check"
	"mundaneum/backend/check/record"
	"mundaneum/backend/check/report"
	"mundaneum/backend/index"
	"mundaneum/backend/library"
	"mundaneum/backend/libsearch"
	"mundaneum/backend/search"
	"mundaneum/backend/store"
)

// The command line's --json prints the types the window gets (one vocabulary: the same
// field names, times as RFC 3339). These convert what the CLI reads from the backend
// itself (it opens a workspace read-only beside a running crawl, where an App would take
// the workspace over; see docs/architecture.md) into those types.

// SearchResultsOf is a search's results as the window gets them, without the library's
// hits (LibSearchResultsOf adds them).
func SearchResultsOf(r search.Results) SearchResults { return searchDTO(r) }

// LibSearchResultsOf is a library search's hits as the window gets them.
func LibSearchResultsOf(r libsearch.Results) LibSearchResults { return libHitsDTO(r) }

// ViewOf is a saved view as the window gets it.
func ViewOf(v search.View) View { return viewDTO(v) }

// CrawlOf is a crawl as the window lists it.
func CrawlOf(c store.Crawl) Crawl { return crawlDTO(c) }

// IndexStatusOf is the index's progress p as the window shows it, its rows split into
// pages and files by st's counts.
func IndexStatusOf(ctx context.Context, st *store.Store, p index.Progress) IndexStatus {
	dto := indexDTO(p)
	if c, err := st.Counts(ctx); err == nil {
		dto.SearchablePages, dto.SearchableFiles = c.Searchable(p.Indexed)
	} else {
		dto.SearchablePages = p.Indexed
	}
	return dto
}

// PostingOf is a library posting at path as the window gets it.
func PostingOf(p library.Posting, path string) LibPosting { return libPostingDTO(p, path) }

// RemovalOf is what a library delete removed (or would) as the window gets it.
func RemovalOf(r library.Removal) LibRemoval { return removalDTO(r) }

// TaskOf is a maintenance task as the window gets it.
func TaskOf(t check.Task) CheckTask { return taskDTO(t) }

// AvoidRuleOf is an avoid or leaf rule as the window gets it.
func AvoidRuleOf(r check.Rule) AvoidRule { return ruleDTO(r) }

// ReportInfoOf is a stored report as the window lists it.
func ReportInfoOf(r record.Report) CheckReportInfo { return reportInfoDTO(r) }

// LinkCheckOf is one link a check run tested, as the window lists a run's links, with the
// link's health after the test.
func LinkCheckOf(l check.LinkResult) LinkCheck {
	v := l.Verdict
	out := LinkCheck{URL: l.URL, Verdict: string(v.Kind), Code: v.Code, Status: v.Status, FinalURL: v.FinalURL,
		Permanent: v.Permanent, Chain: make([]CheckHop, 0, len(v.Chain)), Reason: v.Reason, Method: l.Method, Ms: l.Ms,
		Dead: l.Dead, Failures: l.Failures}
	for _, h := range v.Chain {
		out.Chain = append(out.Chain, CheckHop{Status: h.Status, URL: h.URL})
	}
	if !l.FailingSince.IsZero() {
		out.FailingSince = l.FailingSince.UTC().Format(time.RFC3339)
	}
	return out
}

// ReportLinkOf is one tested link of a report, as LinkCheckOf says it.
func ReportLinkOf(l report.Link) LinkCheck {
	return LinkCheck{URL: l.URL, Verdict: l.Verdict, Status: l.Status, FinalURL: l.FinalURL, Permanent: l.Permanent,
		Reason: l.Reason, Title: l.Title, Dead: l.Dead, Failures: l.Failures}
}

// CaptureClientOf is a paired browser as the window's Settings lists it.
func CaptureClientOf(c store.CaptureClient) CaptureClient { return captureClientDTO(c) }
