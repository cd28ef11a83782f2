package check

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"mundaneum/backend/check/report"
	"mundaneum/backend/extract"
	"mundaneum/backend/fetch"
	"mundaneum/backend/politeness"
	"mundaneum/backend/robots"
)

// outcome is what a worker saw for a job.
type outcome struct {
	j          *job
	robots     string
	crawlDelay time.Duration
	err        error
	status     int
	header     http.Header
	location   string
	mediaType  string
	size       int64
	ms         int64
	method     string
	retryAfter time.Duration
	doc        *docInfo
}

// docInfo is what was read from an HTML document.
type docInfo struct {
	title, owner, expires string
	hash                  string
	links                 []docLink
	truncated             bool
	anchors               *anchorSet
	selfMissing           []string // the fragments of its "#x" links that it lacks
}

// docLink is one of a document's links in canonical form ("" with bad set when the link
// cannot be requested), with the fragments it is written with.
type docLink struct {
	url   string
	kind  uint8
	bad   error
	frags []string
}

// worker makes requests: robots.txt first, then HEAD/GET, reading documents' links.
type worker struct {
	fetch  *fetch.Client
	robots *robots.Cache
	rg     *robotsGetter
	canon  *sync.Map // absolute link URL -> canonical string, or error
}

// do makes one job's request. It never returns without an outcome.
func (w *worker) do(ctx context.Context, j *job) *outcome {
	o := &outcome{j: j}
	start := time.Now()
	defer func() { o.ms = time.Since(start).Milliseconds() }()
	dec, err := w.robots.Check(ctx, j.u)
	if err != nil {
		o.err = err
		return o
	}
	o.crawlDelay = dec.CrawlDelay
	switch {
	case dec.Allowed:
	case dec.Reason == robots.ReasonUnreachable:
		// The site did not answer for its robots.txt; the test says why (DNS, refused,
		// timeout, TLS) from that request rather than asking again.
		o.robots = robotsUnreachable
		if o.err = w.rg.lastErr(j.origin); o.err != nil {
			return o
		}
		o.robots = "" // a robots.txt failure remembered from an earlier process: ask the page
	case dec.Reason == robots.ReasonServerError:
		o.robots = robotsServerError
		return o
	default:
		o.robots = robotsDisallowed
		return o
	}
	req := fetch.Request{URL: j.url, Referer: j.referer}
	var resp *fetch.Response
	if j.mode.reads() {
		resp, err = w.fetch.Do(ctx, req)
		if err != nil && resp != nil && resp.Truncated {
			err = nil // a document over the size cap: read what came
		}
	} else {
		resp, err = w.fetch.Probe(ctx, req)
	}
	if err != nil {
		o.err = err
		return o
	}
	o.status, o.header, o.location, o.mediaType = resp.Status, resp.Header, resp.Location, resp.MediaType
	o.method, o.size = resp.Method, resp.ContentLength
	if d, ok := politeness.ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
		o.retryAfter = d
	}
	if resp.Wanted && resp.Body != nil {
		o.size = int64(len(resp.Body))
		o.doc = w.read(resp, j.u, j.mode == modeAnchors)
	}
	return o
}

// read summarises a fetched HTML document: title, owner, expiry, the ids its parts have
// and, unless anchorsOnly, its links (those to its own parts only when the part is
// missing: the others add nothing to a report).
func (w *worker) read(resp *fetch.Response, u *url.URL, anchorsOnly bool) *docInfo {
	sum := sha256.Sum256(resp.Body)
	text, _ := fetch.DecodeText(resp.Body, resp.Header.Get("Content-Type"))
	buf := idBufs.Get().(*[]uint64)
	ids := (*buf)[:0]
	s := extract.LinkOptions{Fragments: !anchorsOnly, Anchor: func(id []byte) { ids = append(ids, hashID(id)) }}.Links(text, u)
	forwards := slices.ContainsFunc(s.Links, func(l extract.Link) bool { return l.Kind == extract.KindRefresh })
	d := &docInfo{title: s.Title, owner: s.Owner, expires: s.Expires, hash: hex.EncodeToString(sum[:]),
		truncated: resp.Truncated, anchors: newAnchorSet(ids, forwards)}
	*buf = ids[:0]
	idBufs.Put(buf)
	if d.owner == "" {
		d.owner = strings.TrimSpace(resp.Header.Get("Owner"))
	}
	if anchorsOnly {
		return d
	}
	self, _ := w.canonical(u.String())
	host := strings.ToLower(u.Hostname())
	for _, f := range s.SelfFragments {
		if !d.anchors.has(f, host) {
			d.selfMissing = append(d.selfMissing, f)
		}
	}
	d.links = make([]docLink, 0, len(s.Links))
	type key struct {
		url  string
		kind uint8
	}
	seen := make(map[key]int, len(s.Links))
	for i := range s.Links {
		l := &s.Links[i]
		if !tested(l) {
			continue
		}
		dl := docLink{kind: report.KindCode(l.Kind), frags: l.Fragments}
		dl.url, dl.bad = w.canonical(l.URL)
		if dl.bad != nil {
			dl.url, dl.frags = l.URL, nil
		}
		if dl.url == self && dl.frags != nil {
			dl.frags = slices.DeleteFunc(slices.Clone(dl.frags), func(f string) bool { return d.anchors.has(f, host) })
		}
		if j, ok := seen[key{dl.url, dl.kind}]; ok {
			d.links[j].frags = append(d.links[j].frags, dl.frags...) // two spellings of one URL
			continue
		}
		seen[key{dl.url, dl.kind}] = len(d.links)
		d.links = append(d.links, dl)
	}
	return d
}

// idBufs hold the hashes of a page's ids while it is read.
var idBufs = sync.Pool{New: func() any { b := make([]uint64, 0, 256); return &b }}

// canonical is urlnorm.Parse(raw).String(), remembered across the run's documents: the
// same few thousand URLs recur on every page of a site.
func (w *worker) canonical(raw string) (string, error) {
	if v, ok := w.canon.Load(raw); ok {
		if err, bad := v.(error); bad {
			return "", err
		}
		return v.(string), nil
	}
	u, err := canonical(raw)
	if err != nil {
		w.canon.Store(raw, err)
		return "", err
	}
	s := u.String()
	w.canon.Store(raw, s)
	return s, nil
}

// robotsGetter fetches robots.txt files and remembers, per origin, the error of the last
// one that got no answer, so that a site that does not answer is reported as such.
type robotsGetter struct {
	c    *fetch.Client
	mu   sync.Mutex
	errs map[string]error
}

func (g *robotsGetter) GetRobots(ctx context.Context, robotsURL string) (int, []byte, error) {
	status, body, err := g.c.GetRobots(ctx, robotsURL)
	origin := strings.TrimSuffix(robotsURL, "/robots.txt")
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.errs == nil {
		g.errs = map[string]error{}
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		g.errs[origin] = err
	} else {
		delete(g.errs, origin)
	}
	return status, body, err
}

func (g *robotsGetter) lastErr(origin string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.errs[origin]
}
