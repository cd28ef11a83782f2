package fetch

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// maxLiars bounds the hosts remembered as answering HEAD wrongly.
const maxLiars = 10000

// Probe tests whether req.URL answers, without reading its body, as a link checker does:
// a HEAD request, and a GET whose body is dropped after the headers when the HEAD answer
// cannot be taken at its word. That is when HEAD is refused (405, 501) or fails in any
// other way but 429 (some servers answer HEAD with 403, 404 or 500 while GET works, and a
// false alarm costs the user more than one request), or when the connection is dropped. A
// host whose HEAD failed where GET worked is remembered, and probed with GET from then
// on. Redirects are not followed; Response.Method says which request answered.
func (c *Client) Probe(ctx context.Context, req Request) (*Response, error) {
	host := hostOf(req.URL)
	get := req
	get.Method = http.MethodGet
	if c.liars.has(host) {
		return c.do(ctx, get, &c.probe)
	}
	req.Method = http.MethodHead
	resp, err := c.do(ctx, req, &c.probe)
	if !headSuspect(resp, err) || ctx.Err() != nil {
		return resp, err
	}
	gresp, gerr := c.do(ctx, get, &c.probe)
	if gerr != nil {
		return resp, err // GET did no better: the HEAD answer stands
	}
	if gresp.Status < 400 && host != "" {
		c.liars.add(host)
	}
	return gresp, nil
}

// headSuspect reports whether a HEAD outcome must be checked with a GET.
func headSuspect(resp *Response, err error) bool {
	if err != nil {
		return Classify(err) == CodeReset
	}
	return resp.Status >= 400 && resp.Status != http.StatusTooManyRequests
}

// LiesAboutHEAD reports whether Probe has learnt that host (as in a URL: name[:port])
// answers HEAD wrongly.
func (c *Client) LiesAboutHEAD(host string) bool { return c.liars.has(strings.ToLower(host)) }

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Host)
}

// liars is a bounded set of hosts.
type liars struct {
	mu sync.Mutex
	m  map[string]struct{}
}

func (l *liars) has(host string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.m[host]
	return ok
}

func (l *liars) add(host string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = map[string]struct{}{}
	}
	if len(l.m) < maxLiars {
		l.m[host] = struct{}{}
	}
}
