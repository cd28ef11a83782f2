package crawl

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"mundaneum/backend/extract"
	"mundaneum/backend/fetch"
	"mundaneum/backend/frontier"
	"mundaneum/backend/history"
	"mundaneum/backend/politeness"
	"mundaneum/backend/robots"
	"mundaneum/backend/rules"
	"mundaneum/backend/store"
	"mundaneum/backend/summary"
	"mundaneum/backend/urlnorm"
)

// Reasons recorded on pages that were skipped, failed or redirected (a closed set; HTTP
// failures carry the status code too; a page that could not be fetched at all, or whose
// host's robots.txt could not be, has the fetch package's code: refused, dns, timeout, tls...).
const (
	ReasonRobots      = "robots"         // disallowed by robots.txt
	ReasonScope       = "scope"          // outside the crawl's scope: recorded, not followed
	ReasonDepth       = "depth"          // beyond the depth limit
	ReasonType        = store.ReasonType // not HTML or text: recorded from links, not downloaded
	ReasonNoFollow    = "nofollow"       // the citing page or link says nofollow
	ReasonTrap        = "trap"           // looks like a spider trap
	ReasonHostLimit   = "host-limit"     // the per-host page cap was reached
	ReasonVariants    = "query-variants" // the path's budget of query variants was used up
	ReasonRedirect    = "redirect"       // answered with a redirect
	ReasonRedirects   = "too-many-redirects"
	ReasonNotFound    = "not-found"    // 404, 410
	ReasonForbidden   = "forbidden"    // 401, 403
	ReasonServerError = "server-error" // 5xx
	ReasonRateLimited = "rate-limited" // 429/503 after retries: blocked, not dead
	ReasonHTTP        = "http"         // any other unusable status
	ReasonNotSitemap  = "not-sitemap"  // queued as a sitemap, but it is none
)

const (
	maxTries     = 4 // 1 s, 2 s and 4 s of backoff: a server still starting up gets 7 s
	maxRedirects = 10
)

// citedKinds are the link kinds by which a page cites a resource to its reader: a non-HTML
// target of one of these is indexed by what cites it. Style sheets, scripts and form
// targets are plumbing, not citations.
var citedKinds = map[string]bool{extract.KindA: true, extract.KindArea: true, extract.KindImg: true,
	extract.KindEmbed: true, extract.KindObject: true, extract.KindMedia: true, extract.KindText: true}

// followKinds are the link kinds a crawl follows; the others are recorded only.
var followKinds = map[string]bool{"seed": true, "a": true, "area": true, "frame": true,
	"iframe": true, "refresh": true, "redirect": true, "text": true, kindSitemap: true}

// visit handles one page: from the store when it is fresh, else robots, fetch, extract.
// fctx bounds the network work (cancelled on pause); sctx bounds the store write.
func (c *Crawler) visit(sctx, fctx context.Context, it frontier.Item) visitOutcome {
	out := visitOutcome{item: it}
	if c.fromStore(it.Lease) {
		return c.save(sctx, out, c.storedResult(sctx, it, false))
	}
	var r *store.Result
	var fb politeness.Feedback
	retry, deferred := false, false
	// The host's politeness slot is given back as soon as the response is read: what
	// follows (extracting, compressing, storing) does not load the server.
	released := false
	release := func(fb politeness.Feedback) {
		if it.Gated && !released {
			released = true
			c.limiter.Release(it.Origin, time.Now(), fb)
			c.freed.add(it.Origin)
		}
	}
	switch down := c.hosts.downHost(it.Origin); {
	case down != nil:
		r = down.result()
	case !c.holdHostCap(it.Origin):
		r = &store.Result{State: store.StateSkipped, Reason: ReasonHostLimit,
			Detail: fmt.Sprintf("%d pages fetched from this host (--max-per-host)", c.cfg.MaxPerHost)}
	default:
		defer c.releaseHostCap(it.Origin)
		c.current.Store(&it.URL)
		r, fb, retry, deferred = c.fetchPage(fctx, it, release)
		out.answered = fb.Status > 0
		if fb.Err && r != nil && silent(r.Reason) {
			out.silent, out.silentDetail = r.Reason, r.Detail
		}
	}
	release(fb)
	if fctx.Err() != nil {
		return out // paused or cancelled mid-visit: the lease goes back to the queue
	}
	if deferred {
		out.deferred = true
		return out
	}
	if retry && it.Tries+1 < maxTries {
		out.item.Tries++
		out.retry = true
		return out // after the host's backoff (1 s, 2 s, then 4 s)
	}
	if r == nil {
		r = &store.Result{State: store.StateFailed, Reason: ReasonRateLimited, Status: fb.Status}
	}
	if it.Depth == 0 && it.Hops == 0 && !it.Sitemap {
		c.seedsTried.Add(1)
		if r.State == store.StateFailed {
			c.seedsFailed.Add(1)
			c.noteSeedFailure(it.URL, r)
		}
	}
	return c.save(sctx, out, r)
}

// holdHostCap takes a place under the per-host cap for a visit, false when the pages
// fetched and the visits in flight fill it. The place is given back by releaseHostCap once
// the visit is saved (counted as a page fetched, or not).
func (c *Crawler) holdHostCap(origin string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.hostFetched[origin]+c.hostPending[origin] >= c.cfg.MaxPerHost {
		return false
	}
	c.hostPending[origin]++
	return true
}

func (c *Crawler) releaseHostCap(origin string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.hostPending[origin]--; c.hostPending[origin] <= 0 {
		delete(c.hostPending, origin)
	}
}

func (c *Crawler) save(ctx context.Context, out visitOutcome, r *store.Result) visitOutcome {
	r.CrawlID, r.PageID, r.URL = c.rec.ID, out.item.PageID, out.item.URL
	c.element(ctx, out.item, r)
	out.top = topPriority(r)
	so, err := c.st.SaveResult(ctx, r)
	if err != nil {
		out.err = err
		return out
	}
	out.state, out.queued, out.bytes = r.State, so.Queued, r.WireBytes
	switch {
	case r.Stored:
		c.counts[cNotDue].Add(1)
	case r.State == store.StateFetched:
		c.counts[cFetched].Add(1)
	case r.State == store.StateFailed:
		c.counts[cFailed].Add(1)
	case r.State == store.StateSkipped:
		c.counts[cSkipped].Add(1)
	}
	if r.State == store.StateFetched && !out.item.Sitemap {
		c.mu.Lock()
		c.hostFetched[out.item.Origin]++ // the per-host cap counts pages, not 404s or redirects
		c.mu.Unlock()
	}
	c.counts[cBytes].Add(r.WireBytes)
	return out
}

// storedResult visits a page whose content has not changed: its stored links are followed
// again (a refresh run walks the same graph), nothing is re-indexed.
func (c *Crawler) storedResult(ctx context.Context, it frontier.Item, checked bool) *store.Result {
	r := &store.Result{State: store.StateFetched, Unchanged: true, Stored: !checked}
	links, err := c.st.Links(ctx, it.PageID)
	if err != nil {
		return &store.Result{State: store.StateFailed, Reason: ReasonHTTP, Detail: err.Error()}
	}
	base, _ := url.Parse(it.URL)
	near := c.storedNear(ctx, it)
	for _, l := range links {
		u, err := url.Parse(l.URL)
		if err != nil {
			continue
		}
		r.Links = append(r.Links, c.target(it, base, u, l.Kind, l.Anchor, l.Rel, relNoFollow(l.Rel), it.NoFollow, near))
	}
	return r
}

// fetchPage fetches and summarises one page, calling release once the response is read
// (not for a deferred page: its slot is given back by the caller). retry reports a 429/503
// worth retrying;
// deferred, that the host's robots.txt was just fetched and the page must keep its
// distance from it (the slot is given back and taken again when the gap allows).
func (c *Crawler) fetchPage(ctx context.Context, it frontier.Item, release func(politeness.Feedback)) (r *store.Result, fb politeness.Feedback, retry, deferred bool) {
	u, err := urlnorm.Parse(it.URL)
	if err != nil {
		return &store.Result{State: store.StateFailed, Reason: fetch.Classify(err), Detail: err.Error()}, fb, false, false
	}
	dec, err := c.robots.Check(ctx, u)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fb, false, false
		}
		return &store.Result{State: store.StateFailed, Reason: fetch.CodeOther, Detail: "robots.txt: " + err.Error(),
			RefreshAt: time.Now().Add(minFresh).UnixMilli()}, fb, false, false
	}
	c.limiter.SetCrawlDelay(it.Origin, dec.CrawlDelay)
	if !dec.FetchedAt.IsZero() && it.Gated && !c.limiter.Requested(it.Origin, dec.FetchedAt, time.Now()) {
		return nil, fb, false, true
	}
	switch {
	case !dec.Allowed && dec.Reason == robots.ReasonUnreachable:
		// The host did not answer for its robots.txt: a failure to reach it, with the cause
		// (connection refused, DNS, timeout, TLS), retried after a backoff (robots.txt
		// too) and on the next run.
		fb.Err = true
		code := fetch.Classify(dec.Err)
		if code == "" {
			code = fetch.CodeNetwork
		}
		retry := transient(code)
		if retry {
			c.robots.Forget(it.Origin)
		}
		return &store.Result{State: store.StateFailed, Reason: code, Detail: "robots.txt: " + errText(dec.Err),
			RefreshAt: time.Now().Add(minFresh).UnixMilli()}, fb, retry, false
	case !dec.Allowed:
		return &store.Result{State: store.StateSkipped, Reason: ReasonRobots, Detail: "robots.txt: " + dec.Reason}, fb, false, false
	}
	if it.Sitemap {
		r, fb := c.sitemap(ctx, it, u)
		return r, fb, false, false
	}
	req := fetch.Request{URL: it.URL}
	if it.State == store.StateFetched {
		req.ETag, req.LastModified = it.ETag, it.LastModified
	}
	resp, err := c.fetcher.Do(ctx, req)
	cut := errors.Is(err, fetch.ErrTooLarge) || errors.Is(err, fetch.ErrBomb)
	if err != nil && !(cut && resp != nil) {
		if ctx.Err() != nil {
			return nil, fb, false, false
		}
		fb.Err = true
		code := fetch.Classify(err)
		return &store.Result{State: store.StateFailed, Reason: code, Detail: err.Error(),
			RefreshAt: refreshAt(nil, time.Now())}, fb, transient(code), false
	}
	fb.Status = resp.Status
	if d, ok := politeness.ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
		fb.RetryAfter = d
	}
	release(fb)
	now := time.Now()
	r = &store.Result{Status: resp.Status, WireBytes: resp.WireBytes, ContentType: resp.MediaType,
		RefreshAt: refreshAt(resp.Header, now)}
	switch s := resp.Status; {
	case s == http.StatusTooManyRequests || s == http.StatusServiceUnavailable:
		return nil, fb, true, false
	case s == http.StatusNotModified:
		// A 304 confirms the stored response: its status stays (Status 0), and the store
		// records when it was confirmed.
		sr := c.storedResult(ctx, it, true)
		sr.Status, sr.WireBytes, sr.RefreshAt = 0, resp.WireBytes, r.RefreshAt
		return sr, fb, false, false
	case s >= 300 && s < 400 && resp.Location != "":
		return c.redirect(it, u, resp, r), fb, false, false
	case s >= 200 && s < 300:
		return c.content(ctx, it, u, resp, r), fb, false, false
	default:
		r.State, r.Reason = store.StateFailed, StatusReason(s)
		return r, fb, false, false
	}
}

// transient reports whether a fetch failure may go away by itself, so that the page is
// tried again after the host's backoff (as a 429 or 503 is): a refused, reset or timed-out
// connection, or another network error. A name that does not resolve, a TLS failure or an
// unreadable body stay as they are.
func transient(code string) bool {
	switch code {
	case fetch.CodeRefused, fetch.CodeReset, fetch.CodeTimeout, fetch.CodeNetwork:
		return true
	}
	return false
}

// StatusReason is the reason recorded on a page that answered with status s (4xx or 5xx).
func StatusReason(s int) string {
	switch {
	case s == 404 || s == 410:
		return ReasonNotFound
	case s == 401 || s == 403:
		return ReasonForbidden
	case s >= 500:
		return ReasonServerError
	}
	return ReasonHTTP
}

func (c *Crawler) redirect(it frontier.Item, u *url.URL, resp *fetch.Response, r *store.Result) *store.Result {
	r.State, r.Reason = store.StateRedirected, ReasonRedirect
	to, err := urlnorm.Resolve(u, resp.Location)
	if err != nil {
		r.State, r.Reason, r.Detail = store.StateFailed, ReasonHTTP, fmt.Sprintf("bad redirect target %q: %v", resp.Location, err)
		return r
	}
	r.FinalURL = to.String()
	t := c.target(it, u, to, "redirect", "", "", false, false, nil)
	t.Depth, t.Hops, t.Sitemap = it.Depth, it.Hops+1, it.Sitemap && t.Follow
	if t.Follow && t.Hops > maxRedirects {
		t.Follow, t.Skip, t.Sitemap = false, ReasonRedirects, false
		r.State, r.Reason = store.StateFailed, ReasonRedirects
	}
	r.Links, r.ReplaceLinks = []store.Target{t}, true
	return r
}

func (c *Crawler) content(ctx context.Context, it frontier.Item, u *url.URL, resp *fetch.Response, r *store.Result) *store.Result {
	if !resp.Wanted {
		r.State, r.Reason = store.StateSkipped, ReasonType
		return r
	}
	if sum := sha256.Sum256(resp.Body); it.State == store.StateFetched && hex.EncodeToString(sum[:]) == it.Hash && !c.wantsRender(it, resp.Body) {
		sr := c.storedResult(ctx, it, true)
		sr.Status, sr.WireBytes, sr.RefreshAt = resp.Status, resp.WireBytes, r.RefreshAt
		sr.ETag, sr.LastModified = resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
		return sr
	}
	s, found, err := Summarize(ctx, r, u, resp.Status, resp.Header, resp.MediaType, resp.Body,
		summary.Budget{MaxText: int(c.cfg.MaxBody)}, c.types)
	if err != nil { // a type this crawl does not download, found by its content
		r.State, r.Reason, r.Detail = store.StateSkipped, ReasonType, err.Error()
		return r
	}
	s, found, same := c.renderPage(ctx, it, u, resp, r, s, found)
	if same != nil {
		return same
	}
	if resp.Truncated && !slices.Contains(r.Doc.Problems, extract.ProblemTruncated) {
		// The body was longer than --max-body: its beginning is kept, and indexed.
		r.Doc.Problems = append(r.Doc.Problems, extract.ProblemTruncated)
	}
	if it.State == store.StateFetched && it.Hash != "" {
		r.Flag = c.judgeChange(ctx, it.Lease, u, resp.MediaType, history.Text{Title: s.Title, Body: s.Text})
	}
	r.Links = make([]store.Target, 0, len(found))
	near := c.nearLinks(s.Title, s.Text)
	for _, l := range found {
		r.Links = append(r.Links, c.target(it, u, l.URL, l.Kind, l.Anchor, l.Rel, l.NoFollow, r.Doc.NoFollow, near))
	}
	return r
}

// canonicalHeader returns the target of a Link header's rel=canonical, if any.
func canonicalHeader(values []string, page *url.URL) string {
	for _, l := range extract.HeaderLinks(values, page) {
		if hasToken(l.Rel, "canonical") {
			return l.URL
		}
	}
	return ""
}

// target decides whether a link found on it's page is followed, and with what priority:
// kind, nofollow, depth and trap guards first, then the rules (an imperative rule takes a
// page outside the scope), then the scope, the per-host cap and the query-variant budget.
func (c *Crawler) target(it frontier.Item, from, u *url.URL, kind, anchor, rel string, linkNoFollow, pageNoFollow bool, near *nearLinks) store.Target {
	origin := urlnorm.Origin(u)
	t := store.Target{URL: u.String(), Origin: origin, Kind: kind, Anchor: anchor, Rel: rel, Depth: it.Depth + 1,
		Category: uint8(rules.Next)}
	follows := followKinds[kind] || kind == extract.KindLink && hasToken(rel, "canonical")
	switch {
	case !follows || !c.downloads(u):
		t.Skip = ReasonType
	case pageNoFollow || linkNoFollow:
		t.Skip = ReasonNoFollow
	case c.cfg.MaxDepth > 0 && t.Depth > c.cfg.MaxDepth && kind != "redirect":
		t.Skip = ReasonDepth
	}
	if t.Skip == "" {
		if reason, trapped := urlnorm.Trap(u); trapped {
			t.Skip = ReasonTrap + ":" + reason
		}
	}
	d, below := c.linkDecision(it, u, anchor, t.Depth)
	t.Category, t.Local = uint8(d.Value), below
	switch {
	case t.Skip != "":
	case d.Value == rules.Rejected:
		t.Skip = ReasonRule
	case d.Value != rules.First && !c.scope.contains(u):
		t.Skip = ReasonScope
		if c.rules.Empty() {
			t.Category = uint8(rules.Rejected) // the scope is the only rule
		}
	}
	if t.Skip != "" {
		t.Resource = t.Skip == ReasonType && citedKinds[kind]
		return t
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.hostFetched[origin] >= c.cfg.MaxPerHost:
		t.Skip = ReasonHostLimit
		return t
	case u.RawQuery != "" && !c.variant(u):
		t.Skip = ReasonVariants
		return t
	}
	t.Follow = true
	newHost := !c.hostSeen[origin]
	c.hostSeen[origin] = true
	l := frontier.Link{URL: t.URL, Anchor: anchor, Depth: t.Depth, NewHost: newHost, Value: d.Potential}
	if near != nil {
		l.Context, l.Page = near.around(anchor), near.page
	}
	t.Priority = c.strategy.Priority(l)
	if _, toward := c.strategy.(frontier.Toward); toward && kind == "redirect" {
		t.Priority = max(t.Priority, it.Priority) // a redirect is worth what its source was
	}
	return t
}

// LooksLikePage is false for URLs whose extension says they are not HTML or text.
func LooksLikePage(u *url.URL) bool {
	p := strings.ToLower(u.Path)
	i := strings.LastIndexByte(p, '.')
	if i < 0 || strings.LastIndexByte(p, '/') > i {
		return true
	}
	return !nonPageExt[p[i+1:]]
}

var nonPageExt = map[string]bool{}

func init() {
	for _, e := range strings.Fields(`jpg jpeg png gif webp svg ico bmp tif tiff avif heic
		mp3 ogg oga wav flac m4a aac mid midi mp4 m4v mpg mpeg mov avi wmv webm mkv flv ogv
		zip gz tgz bz2 xz 7z rar tar iso dmg exe msi deb rpm apk bin jar
		pdf ps eps doc docx xls xlsx ppt pptx odt ods odp epub
		css js mjs json woff woff2 ttf otf eot wasm`) {
		nonPageExt[e] = true
	}
}

// relNoFollow reports whether a rel attribute asks crawlers not to follow the link.
func relNoFollow(rel string) bool {
	return hasToken(rel, "nofollow") || hasToken(rel, "ugc") || hasToken(rel, "sponsored")
}

// hasToken reports whether a space-separated rel value holds tok (case-insensitively).
func hasToken(rel, tok string) bool {
	for _, r := range strings.Fields(rel) {
		if strings.EqualFold(r, tok) {
			return true
		}
	}
	return false
}
