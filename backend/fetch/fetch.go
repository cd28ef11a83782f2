// Package fetch is Mundaneum's HTTP client for crawling and link checking.
//
// A Client performs one request at a time without following redirects (the crawler
// records each hop itself), identifies itself with a User-Agent and optional From
// header, sends conditional GETs, decodes gzip, deflate and brotli bodies itself,
// and bounds everything a hostile server could inflate: bytes on the wire
// (MaxBody), bytes after decompression (MaxDecoded), and the time of the whole
// exchange including the body (Timeout). DecodeText turns a body into UTF-8 and
// Classify maps a failure to a short code the crawler records.
package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
)

// Defaults applied by New to zero Config fields.
const (
	DefaultMaxBody         = 10 << 20
	DefaultTimeout         = 30 * time.Second
	DefaultMaxConnsPerHost = 8
	// DefaultAcceptHeader is the Accept header sent when Config.AcceptHeader is empty.
	DefaultAcceptHeader = "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1"
	// RobotsMaxBody caps a robots.txt body (RFC 9309 asks for at least 500 KiB).
	RobotsMaxBody = 512 << 10
	// RobotsMaxRedirects is how many redirect hops GetRobots follows.
	RobotsMaxRedirects = 5
	// SitemapMaxBody caps a sitemap's body, on the wire and decoded (the sitemap
	// protocol's 50 MB).
	SitemapMaxBody = 50 << 20
	// drainMax is the largest unwanted body drained (rather than dropped) so that
	// its keep-alive connection can be reused.
	drainMax = 16 << 10
)

// Config configures a Client. Zero values take the defaults above.
type Config struct {
	// UserAgent is the full User-Agent string; Do fails without one.
	UserAgent string
	// From is the optional From header: a contact address (RFC 9110 10.1.2).
	From string
	// MaxBody caps the bytes read from the wire (default 10 MiB).
	MaxBody int64
	// MaxDecoded caps the bytes after content decoding (default 4*MaxBody): the
	// guard against compression bombs.
	MaxDecoded int64
	// Timeout caps the whole request including the body (default 30s): the guard
	// against servers that drip a byte at a time.
	Timeout time.Duration
	// MaxConnsPerHost limits the transport's connections to one host (default 8).
	MaxConnsPerHost int
	// Accept decides from the media type (lower case, no parameters) whether a body
	// is wanted; nil accepts text/html, application/xhtml+xml and text/plain.
	Accept func(mediaType string) bool
	// AcceptHeader is the Accept request header (default DefaultAcceptHeader).
	AcceptHeader string
	// Document reports whether a media type is a document (a PDF, an archive) whose body
	// may be longer than a page's: up to MaxDocumentBody on the wire (and four times that
	// decoded). Nil: every body has MaxBody.
	Document        func(mediaType string) bool
	MaxDocumentBody int64
}

// Client is an HTTP client for crawling; it is safe for concurrent use.
type Client struct {
	cfg       Config
	transport *http.Transport
	page      limits // limits for Do
	robots    limits // limits for GetRobots
	probe     limits // limits for Probe's GET: no body is read
	liars     liars  // hosts whose HEAD answers cannot be trusted
	sitemap   limits // limits for GetSitemap
}

// limits are the caps and the body policy of one kind of request.
type limits struct {
	maxBody, maxDecoded int64
	accept              func(string) bool
	acceptHeader        string
	// truncateOK makes an over-long body a truncated success rather than an error.
	truncateOK bool
}

// New returns a Client for cfg, filling in defaults.
func New(cfg Config) *Client {
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.MaxDecoded <= 0 {
		cfg.MaxDecoded = 4 * cfg.MaxBody
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxConnsPerHost <= 0 {
		cfg.MaxConnsPerHost = DefaultMaxConnsPerHost
	}
	if cfg.Accept == nil {
		cfg.Accept = defaultAccept
	}
	if cfg.AcceptHeader == "" {
		cfg.AcceptHeader = DefaultAcceptHeader
	}
	dialTimeout := min(cfg.Timeout, 15*time.Second)
	dialer := &net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		Proxy:                  http.ProxyFromEnvironment,
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true,
		DisableCompression:     true,
		MaxIdleConns:           1024,
		MaxIdleConnsPerHost:    cfg.MaxConnsPerHost,
		MaxConnsPerHost:        cfg.MaxConnsPerHost,
		IdleConnTimeout:        60 * time.Second,
		TLSHandshakeTimeout:    dialTimeout,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: 256 << 10,
		ReadBufferSize:         16 << 10,
	}
	return &Client{
		cfg:       cfg,
		transport: tr,
		page: limits{
			maxBody: cfg.MaxBody, maxDecoded: cfg.MaxDecoded,
			accept: cfg.Accept, acceptHeader: cfg.AcceptHeader,
		},
		robots: limits{
			maxBody: RobotsMaxBody, maxDecoded: RobotsMaxBody,
			accept: acceptAll, acceptHeader: "text/plain,*/*;q=0.5", truncateOK: true,
		},
		probe: limits{accept: acceptNone, acceptHeader: "*/*"},
		sitemap: limits{
			maxBody: SitemapMaxBody, maxDecoded: SitemapMaxBody, accept: acceptAll,
			acceptHeader: "application/xml,text/xml;q=0.9,text/plain;q=0.8,*/*;q=0.1", truncateOK: true,
		},
	}
}

// CloseIdleConnections closes keep-alive connections that are not in use.
func (c *Client) CloseIdleConnections() { c.transport.CloseIdleConnections() }

func defaultAccept(mt string) bool {
	switch mt {
	case "text/html", "application/xhtml+xml", "text/plain":
		return true
	}
	return false
}

func acceptAll(string) bool { return true }

func acceptNone(string) bool { return false }

// Request is one HTTP request.
type Request struct {
	URL          string // absolute http(s) URL
	Method       string // "GET" (default) or "HEAD"
	ETag         string // sent as If-None-Match when set
	LastModified string // sent as If-Modified-Since when set
	// Referer names the document holding the link being followed (MOMspider sent it so
	// that a site's maintainers learn where a bad link comes from).
	Referer string
}

// Response is the outcome of one request.
type Response struct {
	URL       string // the requested URL
	Method    string // the method that gave this answer (Probe may fall back to GET)
	Status    int
	Header    http.Header
	MediaType string // lower-case, parameters stripped ("" if absent)
	// Location is, for a 3xx, the Location header resolved against URL (not
	// normalised); "" when absent or unparseable.
	Location string
	// Body is the content-decoded body; nil when not wanted, for HEAD, 304 and
	// non-2xx statuses.
	Body []byte
	// Wanted is true when the media type was accepted and the body was read.
	Wanted bool
	// Truncated is true when the body hit MaxBody or MaxDecoded; Body then holds the
	// prefix read so far (see Do for the error that accompanies it).
	Truncated     bool
	WireBytes     int64 // bytes of body read from the network
	ContentLength int64 // the Content-Length header, or -1
	Duration      time.Duration
}

// Do performs one request without following redirects.
//
// A body is read only for a GET with a 2xx status (other than 204) whose media type
// Config.Accept accepts; other bodies are dropped after the headers, except that a
// body declared at most 16 KiB long is drained so its connection can be reused.
//
// When the body exceeds MaxBody on the wire or MaxDecoded after decoding, Do
// returns both the Response (Truncated set, Body holding the prefix) and an error
// wrapping ErrTooLarge or ErrBomb, as net/http does for redirect errors: callers
// that treat any error as failure need no special case, and callers that want the
// prefix can take it. On every other error the Response is nil.
func (c *Client) Do(ctx context.Context, req Request) (*Response, error) {
	return c.do(ctx, req, &c.page)
}

// GetSitemap is Do for a sitemap: any media type is read (XML, gzip, plain text), up to
// SitemapMaxBody bytes; a longer body is cut (Truncated), not refused.
func (c *Client) GetSitemap(ctx context.Context, req Request) (*Response, error) {
	return c.do(ctx, req, &c.sitemap)
}

func (c *Client) do(ctx context.Context, req Request, lim *limits) (*Response, error) {
	start := time.Now()
	method := req.Method
	switch method {
	case "":
		method = http.MethodGet
	case http.MethodGet, http.MethodHead:
	default:
		return nil, fmt.Errorf("fetch %s: unsupported method %q", req.URL, method)
	}
	if c.cfg.UserAgent == "" {
		return nil, fmt.Errorf("fetch %s: %w", req.URL, errNoUserAgent)
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	hreq, err := http.NewRequestWithContext(ctx, method, req.URL, nil)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", req.URL, err)
	}
	if s := hreq.URL.Scheme; s != "http" && s != "https" {
		return nil, fmt.Errorf("fetch %s: %w", req.URL, ErrScheme)
	}
	if hreq.URL.Host == "" {
		return nil, fmt.Errorf("fetch %s: no host in URL", req.URL)
	}
	h := hreq.Header
	h["User-Agent"] = []string{c.cfg.UserAgent}
	if c.cfg.From != "" {
		h["From"] = []string{c.cfg.From}
	}
	h["Accept"] = []string{lim.acceptHeader}
	h["Accept-Encoding"] = acceptEncoding
	if req.ETag != "" {
		h["If-None-Match"] = []string{req.ETag}
	}
	if req.LastModified != "" {
		h["If-Modified-Since"] = []string{req.LastModified}
	}
	if req.Referer != "" {
		h["Referer"] = []string{req.Referer}
	}

	hresp, err := c.transport.RoundTrip(hreq)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", req.URL, err)
	}
	defer hresp.Body.Close()

	resp := &Response{
		URL:           req.URL,
		Method:        method,
		Status:        hresp.StatusCode,
		Header:        hresp.Header,
		MediaType:     mediaType(hresp.Header.Get("Content-Type")),
		ContentLength: hresp.ContentLength,
	}
	if resp.Status >= 300 && resp.Status < 400 {
		if loc := hresp.Header.Get("Location"); loc != "" {
			if lu, err := hreq.URL.Parse(strings.TrimSpace(loc)); err == nil {
				resp.Location = lu.String()
			}
		}
	}
	if lim == &c.page && c.cfg.Document != nil && c.cfg.MaxDocumentBody > lim.maxBody && c.cfg.Document(resp.MediaType) {
		doc := *lim
		doc.maxBody, doc.maxDecoded = c.cfg.MaxDocumentBody, max(4*c.cfg.MaxDocumentBody, lim.maxDecoded)
		lim = &doc
	}
	wire := &wireReader{r: hresp.Body, limit: lim.maxBody + 1}
	bodyAllowed := method == http.MethodGet && resp.Status >= 200 && resp.Status < 300 &&
		resp.Status != http.StatusNoContent
	if !bodyAllowed || !lim.accept(resp.MediaType) {
		if hresp.ContentLength > 0 && hresp.ContentLength <= drainMax {
			_, _ = wire.drain(drainMax) // best effort, for connection reuse only
		}
		resp.WireBytes = wire.n
		resp.Duration = time.Since(start)
		return resp, nil
	}

	body, err := readBody(wire, hresp, lim)
	resp.WireBytes = wire.n
	resp.Duration = time.Since(start)
	switch {
	case err == nil:
	case errors.Is(err, ErrTooLarge) || errors.Is(err, ErrBomb):
		resp.Body, resp.Wanted, resp.Truncated = body, true, true
		if lim.truncateOK {
			return resp, nil
		}
		return resp, fmt.Errorf("fetch %s: %w", req.URL, err)
	default:
		return nil, fmt.Errorf("fetch %s: %w", req.URL, err)
	}
	resp.Body, resp.Wanted = body, true
	return resp, nil
}

var acceptEncoding = []string{"gzip, deflate, br"}

// mediaType returns the lower-case media type of a Content-Type value without
// parameters; it avoids mime.ParseMediaType's allocations on the hot path.
func mediaType(ct string) string {
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.ToLower(strings.TrimSpace(ct))
}
