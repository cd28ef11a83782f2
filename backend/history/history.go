// Package history is what Mundaneum knows of a page over time: its versions (every content
// it had, kept as content-addressed bodies by the store), word-level diffs of their
// extracted text, the version in force at a given time, and the judgement that a page's new
// content is in fact a dead page (a soft 404 or a parked domain) rather than a change.
//
// Diffs are of extracted text, computed with diff-match-patch (github.com/sergi/go-diff), and
// leave this package as pieces of plain text: whoever shows them renders text, never HTML.
package history

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"strconv"
	"strings"
	"time"

	"mundaneum/backend/store"
	"mundaneum/backend/summary"
)

// ErrNoVersion means the page has no version to compare (never fetched, or none kept).
var ErrNoVersion = errors.New("no such version")

// Store is what history reads of the workspace; *store.Store satisfies it.
type Store interface {
	Page(ctx context.Context, id int64) (store.Page, error)
	Versions(ctx context.Context, pageID int64) ([]store.Version, error)
	BlobBody(ctx context.Context, hash string) ([]byte, error)
}

// Text is a document's extracted text.
type Text struct {
	Title, Body string
}

// TextOf extracts the text of a body as a crawl would: summarised by its type (sniffed,
// declared, or from the URL's extension), text decoded to UTF-8 from its charset.
func TextOf(body []byte, contentType, charset string, pageURL string) Text {
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt == "" {
		mt = strings.ToLower(strings.TrimSpace(strings.Split(contentType, ";")[0]))
	}
	ct := contentType
	if charset != "" {
		ct = mt + "; charset=" + charset
	}
	u, _ := url.Parse(pageURL)
	s, _ := summary.Summarise(context.Background(), summary.Input{Body: body, ContentType: ct, URL: u}, summary.Budget{}, nil)
	return Text{Title: s.Title, Body: s.Text}
}

// String is the text a diff compares: the title, a blank line, the body.
func (t Text) String() string {
	if t.Title == "" {
		return t.Body
	}
	return t.Title + "\n\n" + t.Body
}

// VersionText extracts the text of one version, or fails with store.ErrNotFound when its
// body is no longer kept.
func VersionText(ctx context.Context, st Store, pageURL string, v store.Version) (Text, error) {
	body, err := st.BlobBody(ctx, v.Hash)
	if err != nil {
		return Text{}, err
	}
	return TextOf(body, v.ContentType, v.Charset, pageURL), nil
}

// Comparison is the diff between two versions of a page.
type Comparison struct {
	Page     store.Page
	From, To store.Version
	Ops      []Op
	Added    int // words
	Removed  int
}

// Compare diffs two versions of a page (ids of its versions). from 0 means the version
// before to; to 0 means the newest.
func Compare(ctx context.Context, st Store, pageID, fromID, toID int64) (Comparison, error) {
	p, err := st.Page(ctx, pageID)
	if err != nil {
		return Comparison{}, err
	}
	vs, err := st.Versions(ctx, pageID)
	if err != nil {
		return Comparison{}, err
	}
	ti, fi := len(vs)-1, -1
	if toID != 0 {
		ti = indexOf(vs, toID)
	}
	if ti < 0 {
		return Comparison{}, fmt.Errorf("version %d of page %d: %w", toID, pageID, ErrNoVersion)
	}
	if fromID != 0 {
		if fi = indexOf(vs, fromID); fi < 0 {
			return Comparison{}, fmt.Errorf("version %d of page %d: %w", fromID, pageID, ErrNoVersion)
		}
	} else {
		fi = ti - 1
	}
	c := Comparison{Page: p, To: vs[ti]}
	to, err := VersionText(ctx, st, p.URL, vs[ti])
	if err != nil {
		return c, fmt.Errorf("version of %s: %w", time.UnixMilli(vs[ti].FetchedAt).UTC().Format(time.RFC3339), err)
	}
	var from Text
	if fi >= 0 {
		c.From = vs[fi]
		if from, err = VersionText(ctx, st, p.URL, vs[fi]); err != nil {
			return c, fmt.Errorf("version of %s: %w", time.UnixMilli(vs[fi].FetchedAt).UTC().Format(time.RFC3339), err)
		}
	}
	c.Ops = Diff(from.String(), to.String())
	c.Added, c.Removed = Counts(c.Ops)
	return c, nil
}

func indexOf(vs []store.Version, id int64) int {
	for i, v := range vs {
		if v.ID == id {
			return i
		}
	}
	return -1
}

// Pick finds the version a user names: "" for none, a number N for the N-th version (1 the
// oldest, as History lists them; negative counts from the newest: -1 the newest), or a time
// (RFC 3339, or a date YYYY-MM-DD[ HH:MM[:SS]] in UTC) for the version in force then.
func Pick(vs []store.Version, spec string) (store.Version, error) {
	spec = strings.TrimSpace(spec)
	if len(vs) == 0 {
		return store.Version{}, ErrNoVersion
	}
	if n, err := strconv.Atoi(spec); err == nil {
		switch {
		case n >= 1 && n <= len(vs):
			return vs[n-1], nil
		case n < 0 && -n <= len(vs):
			return vs[len(vs)+n], nil
		}
		return store.Version{}, fmt.Errorf("version %d: the page has %d: %w", n, len(vs), ErrNoVersion)
	}
	t, err := ParseTime(spec)
	if err != nil {
		return store.Version{}, err
	}
	ms := t.UnixMilli()
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].FetchedAt <= ms {
			return vs[i], nil
		}
	}
	return store.Version{}, fmt.Errorf("nothing was fetched of the page by %s: %w", spec, ErrNoVersion)
}

// ParseTime reads a time as users type it: RFC 3339, or a date with an optional time of day
// (UTC). A date alone means the end of that day, so that "--to 2026-03-01" includes what
// was fetched on it.
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02T15:04"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t.Add(24*time.Hour - time.Millisecond), nil
	}
	return time.Time{}, fmt.Errorf("%q is neither a version number nor a time (2026-03-01, 2026-03-01 14:30 or RFC 3339)", s)
}
