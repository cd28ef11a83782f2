package app

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"strings"

	"mundaneum/backend/offline"
	"mundaneum/backend/render"
	"mundaneum/backend/sanitize"
	"mundaneum/backend/store"
	"mundaneum/backend/urlnorm"
)

// linksShown bounds the links listed on a page view.
const linksShown = 500

// Page returns everything known about a page, with its first links in and out.
func (a *App) Page(id int64) (result Page, _ error) {
	defer lists(&result)
	p, err := PageView(context.Background(), a.ws().st, id)
	return p, apiError(err)
}

// PageView is what the page view shows of page id: everything known about it, with its
// first links in and out. The CLI's `page` prints the same. A package function, not a
// method, so that it is not frontend API.
func PageView(ctx context.Context, st *store.Store, id int64) (Page, error) {
	p, err := st.Page(ctx, id)
	if err != nil {
		return Page{}, err
	}
	out, err := st.Outlinks(ctx, id, linksShown)
	if err != nil {
		return Page{}, err
	}
	in, err := st.Inlinks(ctx, id, linksShown)
	if err != nil {
		return Page{}, err
	}
	dto := pageDTO(p, out, in)
	if err := addRender(ctx, st, &dto); err != nil {
		return Page{}, err
	}
	return dto, nil
}

// PageIDOf finds the page a URL names as it is stored: in canonical form, and, for a URL
// typed without a scheme, under http or https.
func PageIDOf(ctx context.Context, st *store.Store, raw string) (int64, error) {
	cands := []string{raw}
	if !strings.Contains(raw, "://") {
		cands = []string{"http://" + raw, "https://" + raw}
	}
	var firstErr error
	for _, c := range cands {
		u, err := urlnorm.Normalize(c)
		if err != nil {
			firstErr = cmp.Or(firstErr, err)
			continue
		}
		if f := render.RouteFragment(c); f != "" {
			u += "#" + f // a route a page's scripts show is a page of its own
		}
		id, err := st.PageID(ctx, u)
		if err == nil {
			return id, nil
		}
		firstErr = cmp.Or(firstErr, err)
	}
	return 0, firstErr
}

// CrawlPages lists a crawl's pages (state: "", queued, fetched, failed, skipped, redirected).
func (a *App) CrawlPages(crawlID int64, state string, offset, limit int) (result CrawlPages, _ error) {
	defer lists(&result)
	return CrawlPagesOf(context.Background(), a.ws().st, crawlID, state, offset, limit)
}

// CrawlPagesOf is CrawlPages, for the command line.
func CrawlPagesOf(ctx context.Context, st *store.Store, crawlID int64, state string, offset, limit int) (CrawlPages, error) {
	ps, total, err := st.CrawlPages(ctx, crawlID, state, offset, limit)
	if err != nil {
		return CrawlPages{}, apiError(err)
	}
	out := CrawlPages{Total: total, Pages: make([]CrawlPage, 0, len(ps))}
	for _, p := range ps {
		out.Pages = append(out.Pages, CrawlPage{ID: p.ID, URL: p.URL, Title: p.Title, State: p.State,
			Reason: p.Reason, ReasonText: reasonText(p.Reason), Detail: p.Detail, Status: p.Status, Depth: p.Depth})
	}
	return out, nil
}

// OfflineCopy returns a page's cached copy as a sanitised document and as text.
func (a *App) OfflineCopy(id int64) (result OfflineCopy, _ error) {
	defer lists(&result)
	ctx := context.Background()
	p, err := a.ws().st.Page(ctx, id)
	if err != nil {
		return OfflineCopy{}, apiError(err)
	}
	c := OfflineCopy{PageID: id, URL: p.URL, Title: p.Title, ContentType: p.ContentType, FetchedAt: rfc3339(p.FetchedAt)}
	if text, err := a.ws().st.Text(ctx, id); err == nil {
		c.Text = text.Body
	} else if !errors.Is(err, store.ErrNotFound) {
		return OfflineCopy{}, apiError(err)
	}
	body, ct, _, err := a.ws().st.Body(ctx, id)
	if err != nil {
		return OfflineCopy{}, apiError(err)
	}
	name, attrs, err := a.ws().st.PageAttrs(ctx, id)
	if err != nil {
		return OfflineCopy{}, apiError(err)
	}
	c.Summariser, c.CanOpen = name, name == "pdf" && bytes.HasPrefix(body, []byte("%PDF-"))
	for _, at := range attrs {
		c.Attrs = append(c.Attrs, SummaryAttr{Name: at.Name, Value: at.Value})
	}
	if name != "" && name != "html" {
		// A PDF, a feed, an archive: what is shown is its summary's text, never its bytes.
		c.Document, c.Blocks = sanitize.Text(c.Text, p.Title), blocksDTO(offline.TextBlocks(c.Text))
		return c, nil
	}
	err = a.readable(ctx, &c, offline.Source{PageID: id, URL: p.URL, Title: p.Title, Body: body, ContentType: ct,
		Charset: p.Charset, At: p.FetchedAt})
	return c, err
}
