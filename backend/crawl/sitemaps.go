package crawl

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"mundaneum/backend/extract"
	"mundaneum/backend/fetch"
	"mundaneum/backend/frontier"
	"mundaneum/backend/politeness"
	"mundaneum/backend/rules"
	"mundaneum/backend/sitemap"
	"mundaneum/backend/store"
	"mundaneum/backend/urlnorm"
)

// kindSitemap is the link kind from a sitemap to what it lists (pages, or other sitemaps).
const kindSitemap = "sitemap"

// maxSitemapFiles bounds the sitemap files one run reads (a sitemap index may name 50,000).
const maxSitemapFiles = 1000

// sitemapSeeds are the sitemaps of a seed's origin to queue with --sitemaps: those its
// robots.txt names, else /sitemap.xml. Sitemap files are queued like pages (so they are
// polite, resumable and retried) and read for the URLs they list.
func (c *Crawler) sitemapSeeds(ctx context.Context, origin string) []store.Target {
	urls, err := c.robots.Sitemaps(ctx, origin)
	if err != nil || len(urls) == 0 {
		urls = []string{origin + "/sitemap.xml"}
	}
	var ts []store.Target
	for _, raw := range urls {
		u, err := urlnorm.Parse(raw)
		if err != nil || !c.takeSitemap() {
			continue
		}
		// A sitemap stands for its seed: followed first. It is not a document, so it makes no
		// element of the rules' families (nor do the pages it lists).
		ts = append(ts, store.Target{URL: u.String(), Origin: urlnorm.Origin(u), Kind: kindSitemap,
			Follow: true, Sitemap: true, Category: uint8(rules.First),
			Priority: c.strategy.Priority(frontier.Link{URL: u.String(), Seed: true, Value: rules.First})})
	}
	return ts
}

// takeSitemap counts one more sitemap file for this run, false past maxSitemapFiles.
func (c *Crawler) takeSitemap() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sitemaps >= maxSitemapFiles {
		return false
	}
	c.sitemaps++
	return true
}

// sitemap fetches and reads a queued sitemap: the pages it lists are followed like links
// (scope, depth and budgets apply; depth counts from the sitemap), the sitemaps a sitemap
// index lists are queued as sitemaps. The sitemap itself is recorded, not indexed.
func (c *Crawler) sitemap(ctx context.Context, it frontier.Item, u *url.URL) (*store.Result, politeness.Feedback) {
	var fb politeness.Feedback
	resp, err := c.fetcher.GetSitemap(ctx, fetch.Request{URL: it.URL})
	if err != nil {
		fb.Err = ctx.Err() == nil
		return &store.Result{State: store.StateFailed, Reason: fetch.Classify(err), Detail: err.Error(),
			RefreshAt: refreshAt(nil, time.Now())}, fb
	}
	fb.Status = resp.Status
	r := &store.Result{Status: resp.Status, WireBytes: resp.WireBytes, ContentType: resp.MediaType,
		RefreshAt: refreshAt(resp.Header, time.Now())}
	switch s := resp.Status; {
	case s >= 300 && s < 400 && resp.Location != "":
		return c.redirect(it, u, resp, r), fb
	case s < 200 || s >= 300:
		r.State, r.Reason = store.StateFailed, StatusReason(s)
		return r, fb
	}
	sm, err := sitemap.Parse(resp.Body)
	if err != nil {
		r.State, r.Reason, r.Detail = store.StateFailed, ReasonNotSitemap, err.Error()
		return r, fb
	}
	r.State, r.ReplaceLinks = store.StateFetched, true
	r.Doc = &store.Doc{NoIndex: true}
	if sm.Truncated || resp.Truncated {
		r.Doc.Problems = []string{extract.ProblemTruncated}
	}
	if sm.Invalid > 0 {
		r.Detail = fmt.Sprintf("%d locations are not http(s) URLs", sm.Invalid)
	}
	for _, raw := range sm.URLs {
		lu, err := url.Parse(raw)
		if err != nil {
			continue
		}
		if sm.Index {
			if !c.takeSitemap() {
				continue
			}
			r.Links = append(r.Links, store.Target{URL: raw, Origin: urlnorm.Origin(lu), Kind: kindSitemap,
				Follow: true, Sitemap: true, Depth: it.Depth, Category: it.Category,
				Priority: c.strategy.Priority(frontier.Link{URL: raw, Seed: true, Value: rules.First})})
			continue
		}
		r.Links = append(r.Links, c.target(it, u, lu, kindSitemap, "", "", false, false, nil))
	}
	return r, fb
}
