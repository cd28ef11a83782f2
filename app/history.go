package app

import (
	"context"
	"errors"

	"mundaneum/backend/history"
	"mundaneum/backend/offline"
	"mundaneum/backend/store"
)

// PageVersion is one content a page had.
type PageVersion struct {
	ID              int64  `json:"id"`
	N               int    `json:"n"` // 1 for the oldest
	FetchedAt       string `json:"fetchedAt"`
	ConfirmedAt     string `json:"confirmedAt"` // "" when never answered again with it
	ConfirmedStatus int    `json:"confirmedStatus"`
	Status          int    `json:"status"`
	Size            int64  `json:"size"`
	ContentType     string `json:"contentType"`
	Title           string `json:"title"`
	Flag            string `json:"flag"` // "soft-404", "parked" or ""
	Current         bool   `json:"current"`
	Cached          bool   `json:"cached"` // its body is kept: it can be compared and opened
	CrawlID         int64  `json:"crawlId"`
	Hash            string `json:"hash"` // of its content: two versions with one hash have the same body
	// Header is the response's header, only where it is asked for (the command line's
	// history --headers): the window's list does not show it.
	Header string `json:"header,omitempty"`
}

// DiffOp is a piece of a diff: "=" text both versions have, "+" added, "-" removed.
type DiffOp struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// PageDiff is what changed in a page's extracted text between two versions.
type PageDiff struct {
	PageID  int64        `json:"pageId"`
	URL     string       `json:"url"`
	From    *PageVersion `json:"from"` // nil: To is the first version
	To      PageVersion  `json:"to"`
	Added   int          `json:"added"` // words
	Removed int          `json:"removed"`
	Same    bool         `json:"same"` // the two versions have the same content
	Ops     []DiffOp     `json:"ops"`
}

func versionDTO(n int, v store.Version) PageVersion {
	out := PageVersion{ID: v.ID, N: n, FetchedAt: rfc3339(v.FetchedAt), ConfirmedStatus: v.ConfirmedStatus, Status: v.Status,
		Size: v.Size, ContentType: v.ContentType, Title: v.Title, Flag: v.Flag, Current: v.Current, Cached: v.Cached,
		CrawlID: v.CrawlID, Hash: v.Hash}
	if v.ConfirmedAt > 0 {
		out.ConfirmedAt = rfc3339(v.ConfirmedAt)
	}
	return out
}

// PageVersions lists the versions of a page, oldest first.
func (a *App) PageVersions(pageID int64) (result []PageVersion, _ error) {
	defer lists(&result)
	return PageHistory(context.Background(), a.ws().st, pageID, false)
}

// PageHistory is PageVersions, for the command line: with headers, each version's
// response header too.
func PageHistory(ctx context.Context, st *store.Store, pageID int64, headers bool) ([]PageVersion, error) {
	vs, err := st.Versions(ctx, pageID)
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]PageVersion, 0, len(vs))
	for i, v := range vs {
		pv := versionDTO(i+1, v)
		if headers {
			pv.Header = v.Header
		}
		out = append(out, pv)
	}
	return out, nil
}

// diffContext is the unchanged words shown around each change unless the whole text is asked.
const diffContext = 12

// ComparePageVersions diffs two versions of a page word by word (fromID 0: the version
// before toID; toID 0: the newest). Without full, unchanged text far from any change is cut
// to "…".
func (a *App) ComparePageVersions(pageID, fromID, toID int64, full bool) (result PageDiff, _ error) {
	defer lists(&result)
	around := diffContext
	if full {
		around = -1
	}
	return ComparePage(context.Background(), a.ws().st, pageID, fromID, toID, around)
}

// ComparePage is ComparePageVersions, for the command line: around is the unchanged words
// kept around each change, or -1 for the whole text.
func ComparePage(ctx context.Context, st *store.Store, pageID, fromID, toID int64, around int) (PageDiff, error) {
	vs, err := st.Versions(ctx, pageID)
	if err != nil {
		return PageDiff{}, apiError(err)
	}
	c, err := history.Compare(ctx, st, pageID, fromID, toID)
	if errors.Is(err, history.ErrNoVersion) {
		return PageDiff{}, &Error{Code: CodeNotFound, Message: err.Error()}
	}
	if err != nil {
		return PageDiff{}, apiError(err)
	}
	n := map[int64]int{}
	for i, v := range vs {
		n[v.ID] = i + 1
	}
	out := PageDiff{PageID: pageID, URL: c.Page.URL, To: versionDTO(n[c.To.ID], c.To), Added: c.Added, Removed: c.Removed}
	if c.From.ID != 0 {
		f := versionDTO(n[c.From.ID], c.From)
		out.From = &f
		out.Same = c.From.Hash == c.To.Hash
	}
	ops := c.Ops
	if around >= 0 {
		ops = history.Hunks(ops, around)
	}
	for _, o := range ops {
		out.Ops = append(out.Ops, DiffOp{Kind: string(o.Kind), Text: o.Text})
	}
	return out, nil
}

// VersionCopy returns one version's offline copy, sanitised as OfflineCopy's.
func (a *App) VersionCopy(versionID int64) (result OfflineCopy, _ error) {
	defer lists(&result)
	ctx := context.Background()
	st := a.ws().st
	v, err := st.Version(ctx, versionID)
	if err != nil {
		return OfflineCopy{}, apiError(err)
	}
	p, err := st.Page(ctx, v.PageID)
	if err != nil {
		return OfflineCopy{}, apiError(err)
	}
	body, err := st.BlobBody(ctx, v.Hash)
	if err != nil {
		return OfflineCopy{}, apiError(err)
	}
	c := OfflineCopy{PageID: v.PageID, URL: p.URL, Title: v.Title, ContentType: v.ContentType, FetchedAt: rfc3339(v.FetchedAt),
		VersionID: v.ID}
	c.Text = history.TextOf(body, v.ContentType, v.Charset, p.URL).String()
	// An old version is replayed: its links open the versions of their targets nearest in
	// time to it, and its requisites are those stored nearest to it.
	err = a.readable(ctx, &c, offline.Source{PageID: v.PageID, URL: p.URL, Title: v.Title, Body: body,
		ContentType: v.ContentType, Charset: v.Charset, At: v.FetchedAt, Replay: true})
	return c, err
}
