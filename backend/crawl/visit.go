package crawl

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"mundaneum/backend/extract"
	"mundaneum/backend/fetch"
	"mundaneum/backend/frontier"
	"mundaneum/backend/politeness"
	"mundaneum/backend/robots"
	"mundaneum/backend/rules"
	"mundaneum/backend/store"
	"mundaneum/backend/urlnorm"
)

// Reasons recorded on pages that were skipped, failed or redirected (a closed set; HTTP
// failures carry the status code too).
const (
	ReasonRobots      = "robots"         // disallowed by robots.txt
	ReasonUnreachable = "unreachable"    // the host did not answer, not even for robots.txt
	ReasonScope       = "scope"          // outside the crawl's scope: recorded, not followed
	ReasonDepth       = "depth"          // beyond the depth limit
	ReasonType        = store.ReasonType // not HTML or text: recorded from links, not downloaded
	ReasonNoFollow    = "nofollow"       // the citing page or link says nofollow
	ReasonTrap        = "trap"           // looks like a spider trap
	ReasonHostLimit   = "host-limit"     // the per-host page cap was reached
	ReasonTooLarge    = "too-large"      // body over the size cap
	ReasonRedirect    = "redirect"       // answered with a redirect
	ReasonRedirects   = "too-many-redirects"
	ReasonNotFound    = "not-found"    // 404, 410
	ReasonForbidden   = "forbidden"    // 401, 403
	ReasonServerError = "server-error" // 5xx
	ReasonRateLimited = "rate-limited" // 429/503 after retries: blocked, not dead
	ReasonHTTP        = "http"         // any other unusable status
)

const (
	maxTries     = 3
	maxRedirects = 10
)

// citedKinds are the link kinds by which a page cites a resource to its reader: a non-HTML
// target of one of these is indexed by what cites it. Style sheets, scripts and form
// targets are plumbing, not citations.
var citedKinds = map[string]bool{extract.KindA: true, extract.KindArea: true, extract.KindImg: true,
	extract.KindEmbed: true, extract.KindObject: true, extract.KindMedia: true, extract.KindText: true}

// followKinds are the link kinds a crawl follows; the others are recorded only.
var followKinds = map[string]bool{"seed": true, "a": true, "area": true, "frame": true,
	"iframe": true, "refresh": true, "redirect": true, "text": true}

// visit handles one page: from the store when it is fresh, else robots, fetch, extract.
// fctx bounds the network work (cancelled on pause); sctx bounds the store write.
func (c *Crawler) visit(sctx, fctx context.Context, it frontier.Item) visitOutcome {
	out := visitOutcome{item: it}
	if c.fromStore(it.Lease) {
		return c.save(sctx, out, c.storedResult(sctx, it, false))
	}
	// The host's politeness slot is given back as soon as the response is read: what
	// follows (extracting, compressing, storing) does not load the server.
	released := false
	release := func(fb politeness.Feedback) {
		if it.Gated && !released {
			released = true
			c.limiter.Release(it.Origin, time.Now(), fb)
			select {
			case c.freed <- struct{}{}:
			default:
			}
		}
	}
	r, fb, retry := c.fetchPage(fctx, it, release)
	release(fb)
	if fctx.Err() != nil {
		return out // paused or cancelled mid-visit: the lease goes back to the queue
	}
	if retry && it.Tries+1 < maxTries {
		out.item.Tries++
		out.retry = true
		return out
	}
	if r == nil {
		r = &store.Result{State: store.StateFailed, Reason: ReasonRateLimited, Status: fb.Status}
	}
	if it.Depth == 0 && it.Hops == 0 {
		c.seedsTried.Add(1)
		if r.State == store.StateFailed {
			c.seedsFailed.Add(1)
		}
	}
	return c.save(sctx, out, r)
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
	if len(so.QueuedHosts) > 0 {
		c.mu.Lock()
		for origin, n := range so.QueuedHosts {
			c.hostPages[origin] += n // distinct pages, counted as the store queues them
		}
		c.mu.Unlock()
	}
	switch r.State {
	case store.StateFetched:
		c.fetched.Add(1)
	case store.StateFailed:
		c.failed.Add(1)
	case store.StateSkipped:
		c.skipped.Add(1)
	}
	c.bytes.Add(r.WireBytes)
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
	for _, l := range links {
		u, err := url.Parse(l.URL)
		if err != nil {
			continue
		}
		r.Links = append(r.Links, c.target(it, base, u, l.Kind, l.Anchor, l.Rel, relNoFollow(l.Rel), it.NoFollow))
	}
	return r
}

// fetchPage fetches and summarises one page, calling release once the response is read.
// retry reports a 429/503 worth retrying.
func (c *Crawler) fetchPage(ctx context.Context, it frontier.Item, release func(politeness.Feedback)) (r *store.Result, fb politeness.Feedback, retry bool) {
	u, err := urlnorm.Parse(it.URL)
	if err != nil {
		return &store.Result{State: store.StateFailed, Reason: fetch.Classify(err), Detail: err.Error()}, fb, false
	}
	dec, err := c.robots.Check(ctx, u)
	if err != nil && ctx.Err() != nil {
		return nil, fb, false
	}
	if dec.CrawlDelay > 0 {
		c.limiter.SetCrawlDelay(it.Origin, dec.CrawlDelay)
	}
	switch {
	case !dec.Allowed && dec.Reason == robots.ReasonUnreachable:
		// The host did not answer for its robots.txt: a failure to reach it, retried later.
		fb.Err = true
		return &store.Result{State: store.StateFailed, Reason: ReasonUnreachable, Detail: errText(err),
			RefreshAt: time.Now().Add(minFresh).UnixMilli()}, fb, false
	case !dec.Allowed:
		return &store.Result{State: store.StateSkipped, Reason: ReasonRobots, Detail: "robots.txt: " + dec.Reason}, fb, false
	}
	req := fetch.Request{URL: it.URL}
	if it.State == store.StateFetched {
		req.ETag, req.LastModified = it.ETag, it.LastModified
	}
	resp, err := c.fetcher.Do(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fb, false
		}
		code := fetch.Classify(err)
		fb.Err = code != fetch.CodeTooLarge && code != fetch.CodeBomb
		reason := code
		if !fb.Err {
			reason = ReasonTooLarge
		}
		return &store.Result{State: store.StateFailed, Reason: reason, Detail: err.Error(),
			RefreshAt: refreshAt(nil, time.Now())}, fb, false
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
		return nil, fb, true
	case s == http.StatusNotModified:
		sr := c.storedResult(ctx, it, true)
		sr.Status, sr.WireBytes, sr.RefreshAt = s, resp.WireBytes, r.RefreshAt
		return sr, fb, false
	case s >= 300 && s < 400 && resp.Location != "":
		return c.redirect(it, u, resp, r), fb, false
	case s >= 200 && s < 300:
		return c.content(ctx, it, u, resp, r), fb, false
	default:
		r.State, r.Reason = store.StateFailed, statusReason(s)
		return r, fb, false
	}
}

func statusReason(s int) string {
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
	t := c.target(it, u, to, "redirect", "", "", false, false)
	t.Depth, t.Hops = it.Depth, it.Hops+1
	if t.Follow && t.Hops > maxRedirects {
		t.Follow, t.Skip = false, ReasonRedirects
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
	if resp.Truncated {
		r.State, r.Reason = store.StateFailed, ReasonTooLarge
		return r
	}
	sum := sha256.Sum256(resp.Body)
	hash := hex.EncodeToString(sum[:])
	if it.State == store.StateFetched && hash == it.Hash {
		sr := c.storedResult(ctx, it, true)
		sr.Status, sr.WireBytes, sr.RefreshAt = resp.Status, resp.WireBytes, r.RefreshAt
		sr.ETag, sr.LastModified = resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
		return sr
	}
	r.State = store.StateFetched
	r.Hash, r.Size = hash, int64(len(resp.Body))
	r.ETag, r.LastModified = resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	r.Blob, r.Codec = compress(resp.Body), codecZstd
	text, enc := fetch.DecodeText(resp.Body, resp.Header.Get("Content-Type"))
	r.Charset = enc
	var s *extract.Summary
	if resp.MediaType == "text/plain" {
		s = extract.Text(text, u)
	} else {
		s = extract.HTML(text, u)
	}
	xNoIndex, xNoFollow := extract.XRobots(resp.Header.Values("X-Robots-Tag"), "mundaneum")
	doc := &store.Doc{Title: s.Title, Headings: s.Headings, Text: s.Text, Lang: s.Lang,
		Description: s.Description, Keywords: s.Keywords, Author: s.Author, Owner: s.Owner,
		Canonical: s.Canonical, Expires: s.Expires, Problems: s.Problems,
		NoIndex: s.NoIndex || xNoIndex, NoFollow: s.NoFollow || xNoFollow}
	if e := resp.Header.Get("Expires"); doc.Expires == "" {
		doc.Expires = e
	}
	r.Doc = doc
	// Packed here, on the agent's goroutine: the writer only stores the bytes.
	r.Text = store.PackText(store.PageText{Title: s.Title, Headings: s.Headings, Body: s.Text})
	r.ReplaceLinks = true
	r.Links = make([]store.Target, 0, len(s.Links))
	seen := make(map[string]bool, len(s.Links))
	for _, l := range s.Links {
		lu, err := urlnorm.Parse(l.URL)
		if err != nil {
			continue
		}
		key := lu.String() + " " + l.Kind
		if seen[key] {
			continue
		}
		seen[key] = true
		r.Links = append(r.Links, c.target(it, u, lu, l.Kind, l.Anchor, l.Rel, l.NoFollow, doc.NoFollow))
	}
	return r
}

// target decides whether a link found on it's page is followed, and with what priority:
// kind, nofollow, depth and trap guards first, then the rules (an imperative rule takes a
// page outside the scope), then the scope and the per-host cap.
func (c *Crawler) target(it frontier.Item, from, u *url.URL, kind, anchor, rel string, linkNoFollow, pageNoFollow bool) store.Target {
	origin := urlnorm.Origin(u)
	t := store.Target{URL: u.String(), Origin: origin, Kind: kind, Anchor: anchor, Rel: rel, Depth: it.Depth + 1,
		Category: uint8(rules.Next)}
	switch {
	case !followKinds[kind] || !looksLikePage(u):
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
	if c.hostPages[origin] >= c.cfg.MaxPerHost {
		t.Skip = ReasonHostLimit
		return t
	}
	t.Follow = true
	newHost := !c.hostSeen[origin]
	c.hostSeen[origin] = true
	t.Priority = c.strategy.Priority(frontier.Link{URL: t.URL, Anchor: anchor, Depth: t.Depth, NewHost: newHost,
		Value: d.Potential})
	return t
}

// looksLikePage is false for URLs whose extension says they are not HTML or text.
func looksLikePage(u *url.URL) bool {
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
	for _, r := range strings.Fields(rel) {
		if r == "nofollow" || r == "ugc" || r == "sponsored" {
			return true
		}
	}
	return false
}
