package crawl

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"mundaneum/backend/fetch"
	"mundaneum/backend/history"
	"mundaneum/backend/store"
	"mundaneum/backend/urlnorm"
)

// probes are the sites' answers for URLs that cannot exist, asked once per directory and
// run, only when a page's new content looks like it might be an error page.
type probes struct {
	mu  sync.Mutex
	got map[string]*probe // by the directory's URL
}

type probe struct {
	once   sync.Once
	status int
	text   history.Text
}

// judgeChange decides whether a page's changed content is a dead page (a soft 404 or a
// parked domain): it compares the new text with the stored one and, when they differ a
// lot, with the site's answer for a URL beside the page that cannot exist.
func (c *Crawler) judgeChange(ctx context.Context, it store.Lease, u *url.URL, mediaType string, now history.Text) string {
	body, ct, cs, err := c.st.Body(ctx, it.PageID)
	if err != nil {
		return ""
	}
	prev := history.TextOf(body, ct, cs, it.URL)
	e := history.Evidence{Prev: prev, New: now}
	if flag := history.Judge(e); flag != "" || !history.Suspect(prev, now) {
		return flag
	}
	p := c.probe(ctx, u, mediaType)
	if p == nil {
		return ""
	}
	e.Probe, e.ProbeStatus = p.text, p.status
	return history.Judge(e)
}

// probe asks for a URL that cannot exist in u's directory, with u's extension; nil when
// robots.txt forbids it or the request fails.
func (c *Crawler) probe(ctx context.Context, u *url.URL, mediaType string) *probe {
	dir := *u
	dir.RawQuery, dir.Fragment = "", ""
	ext := path.Ext(u.Path)
	dir.Path = path.Dir(u.Path)
	if !strings.HasSuffix(dir.Path, "/") {
		dir.Path += "/"
	}
	key := dir.String()
	c.probes.mu.Lock()
	if c.probes.got == nil {
		c.probes.got = map[string]*probe{}
	}
	p, ok := c.probes.got[key]
	if !ok {
		p = &probe{}
		c.probes.got[key] = p
	}
	c.probes.mu.Unlock()
	p.once.Do(func() {
		var b [12]byte
		_, _ = rand.Read(b[:])
		target := dir
		target.Path += "mundaneum-no-such-page-" + hex.EncodeToString(b[:]) + ext
		tu, err := urlnorm.Parse(target.String())
		if err != nil {
			return
		}
		if dec, err := c.robots.Check(ctx, tu); err != nil || !dec.Allowed {
			return
		}
		resp, err := c.fetcher.Do(ctx, fetch.Request{URL: tu.String()})
		if err != nil {
			return
		}
		p.status = resp.Status
		if resp.Body != nil {
			p.text = history.TextOf(resp.Body, resp.Header.Get("Content-Type"), "", tu.String())
		}
	})
	if p.status == 0 {
		return nil
	}
	return p
}

// maxHeader bounds the response header kept with a version.
const maxHeader = 32 << 10

// headerText is a response's status line and header lines, names in order (Go's client
// does not keep the order they came in).
func headerText(status int, h http.Header) string {
	var b strings.Builder
	b.WriteString("HTTP/1.1 " + strconv.Itoa(status))
	if t := http.StatusText(status); t != "" {
		b.WriteString(" " + t)
	}
	b.WriteString("\r\n")
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range h[k] {
			line := k + ": " + strings.NewReplacer("\r", " ", "\n", " ").Replace(v) + "\r\n"
			if b.Len()+len(line) > maxHeader {
				return b.String()
			}
			b.WriteString(line)
		}
	}
	return b.String()
}
