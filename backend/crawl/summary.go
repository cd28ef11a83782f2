package crawl

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"

	"mundaneum/backend/extract"
	"mundaneum/backend/store"
	"mundaneum/backend/summary"
	"mundaneum/backend/urlnorm"
)

// Found is a link of a summarised document, its URL in canonical form.
type Found struct {
	URL *url.URL
	extract.Link
}

// Summarize fills r with what a crawl keeps of a wanted 2xx response body (as fetched, after
// content decoding): its hash, size and compressed copy, charset, the summary its type's
// summariser makes (backend/summary, within budget b) with that type's attributes,
// validators and response header. It returns the document's links, once per URL and kind,
// with its canonical URL (from the HTML or a Link header) among them, for the caller to
// decide which to follow. Imports call it too, so that an archived response is stored and
// indexed as the crawl would have stored it. When types is not nil and the document's type
// (found by its content, media type or extension) is not in it, Summarize fills nothing
// and fails with summary.ErrNotWanted.
func Summarize(ctx context.Context, r *store.Result, u *url.URL, status int, header http.Header, mediaType string, body []byte,
	b summary.Budget, types summary.Types) (*extract.Summary, []Found, error) {
	ct := header.Get("Content-Type")
	if ct == "" {
		ct = mediaType
	}
	res, err := summary.Summarise(ctx, summary.Input{Body: body, ContentType: ct, URL: u}, b, types)
	if err != nil {
		return nil, nil, err
	}
	s := &res.Summary
	sum := sha256.Sum256(body)
	r.State = store.StateFetched
	r.Status = status
	r.Hash, r.Size = hex.EncodeToString(sum[:]), int64(len(body))
	r.ETag, r.LastModified = header.Get("ETag"), header.Get("Last-Modified")
	r.Blob, r.Codec = compress(body), codecZstd
	r.ContentType = mediaType
	r.Charset = res.Charset
	xNoIndex, xNoFollow := extract.XRobots(header.Values("X-Robots-Tag"), "mundaneum")
	doc := &store.Doc{Title: s.Title, Headings: s.Headings, Text: s.Text, Lang: s.Lang,
		Description: s.Description, Keywords: s.Keywords, Author: s.Author, Owner: s.Owner,
		Expires: s.Expires, Problems: s.Problems,
		NoIndex: s.NoIndex || xNoIndex, NoFollow: s.NoFollow || xNoFollow, Summariser: res.Summariser}
	for _, a := range res.Attrs {
		doc.Attrs = append(doc.Attrs, store.Attr{Name: a.Name, Value: a.Value})
	}
	if e := header.Get("Expires"); doc.Expires == "" {
		doc.Expires = e
	}
	r.Doc = doc
	// Packed here, on the agent's goroutine (or the import's reader): the writer only stores
	// the bytes.
	r.Text = store.PackText(store.PageText{Title: s.Title, Headings: s.Headings, Body: s.Text})
	r.Header = headerText(status, header)
	r.ReplaceLinks = true
	found := make([]Found, 0, len(s.Links)+1)
	seen := make(map[string]bool, len(s.Links))
	add := func(l extract.Link) *url.URL {
		lu, err := urlnorm.Parse(l.URL)
		if err != nil {
			return nil
		}
		if key := lu.String() + " " + l.Kind; !seen[key] {
			seen[key] = true
			found = append(found, Found{URL: lu, Link: l})
		}
		return lu
	}
	for _, l := range s.Links {
		add(l)
	}
	// rel=canonical, in the HTML or in a Link header (RFC 8288): the page's own URL is not
	// recorded, another one is followed, and search collapses this page onto it.
	canonical := s.Canonical
	if h := canonicalHeader(header.Values("Link"), u); h != "" {
		canonical = h
	}
	if canonical != "" {
		if cu := add(extract.Link{URL: canonical, Kind: extract.KindLink, Rel: "canonical"}); cu != nil {
			doc.Canonical = cu.String()
		}
	}
	return s, found, nil
}

// RefreshAt is when a page fetched at now, with response header h (nil: none known),
// becomes due for a refresh (see refreshAt).
var RefreshAt = refreshAt
