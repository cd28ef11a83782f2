package exchange

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"mundaneum/backend/crawl"
	"mundaneum/backend/store"
)

// ErrPeer means the other instance answered a pull with an error (the message says which).
var ErrPeer = errors.New("the source refused the pull")

// Client is the HTTP client of pulls: it follows at most 3 redirects, to http(s) only, and
// waits at most a minute for an answer to begin (a stream itself may take long).
var Client = &http.Client{
	Transport: &http.Transport{Proxy: nil, ResponseHeaderTimeout: time.Minute, DisableCompression: true,
		MaxIdleConnsPerHost: 2, IdleConnTimeout: 30 * time.Second},
	CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 3 {
			return errors.New("more than 3 redirects")
		}
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return fmt.Errorf("a redirect to %s: only http(s) is fetched", req.URL.Scheme)
		}
		return nil
	},
}

// countingReader counts the bytes read through it (what travelled on the wire).
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// Pull asks the source for what changed since its cursor, checks the whole stream, applies
// it, and moves the cursor: a pull that fails or is cancelled applies nothing it has not
// checked, and leaves the cursor where it was, so the next pull asks again from there
// (what was applied comes again, and is recognised by its content hash).
func Pull(ctx context.Context, st ImportStore, idx crawl.Index, id int64, progress func(Progress)) (ImportReport, error) {
	src, err := Get(ctx, st, id)
	if err != nil {
		return ImportReport{SourceID: id}, err
	}
	if src.Kind != KindPeer {
		return ImportReport{SourceID: id}, fmt.Errorf("%w: source %d is a file: import it again to update it", ErrInvalid, id)
	}
	rep, err := pull(ctx, st, idx, src, progress)
	if ferr := finishPull(ctx, st, src, rep, err); ferr != nil && err == nil {
		err = ferr
	}
	return rep, err
}

func pull(ctx context.Context, st ImportStore, idx crawl.Index, src Source, progress func(Progress)) (ImportReport, error) {
	base, err := PeerURL(src.URL)
	if err != nil {
		return ImportReport{SourceID: src.ID}, err
	}
	u, _ := url.Parse(strings.TrimSuffix(base, "/") + Path)
	u.RawQuery = url.Values{"since": {strconv.FormatInt(src.Cursor.Seq, 10)}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return ImportReport{SourceID: src.ID}, err
	}
	req.Header.Set("Authorization", "Bearer "+src.token)
	req.Header.Set("Accept", MediaType)
	req.Header.Set("Accept-Encoding", "gzip")
	req.Header.Set("User-Agent", crawl.UserAgent(""))
	start := time.Now()
	resp, err := Client.Do(req)
	if err != nil {
		return ImportReport{SourceID: src.ID}, fmt.Errorf("pull %s: %w", base, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return ImportReport{SourceID: src.ID}, fmt.Errorf("%w: %s answered %s: %s", ErrPeer, base, resp.Status,
			strings.TrimSpace(store.Clean(string(msg))))
	}
	body := &countingReader{r: resp.Body}
	opt := ImportOptions{Index: idx, Whole: true, Progress: func(p Progress) {
		if progress != nil {
			if p.Phase == "check" {
				p.Phase = "download"
			}
			progress(p)
		}
	}}
	rep, err := run(ctx, st, src, body, opt)
	rep.Wire = body.n.Load()
	if progress != nil {
		progress(Progress{Templates: int64(rep.Templates), Total: int64(rep.Templates), Bytes: rep.Bytes,
			Applied: int64(rep.Applied), Elapsed: time.Since(start), Phase: "done"})
	}
	return rep, err
}
