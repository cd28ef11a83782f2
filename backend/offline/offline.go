// Package offline makes the stored web readable like the web: a page's copy (or an old
// version's) as a document whose links open what the workspace holds, that looks like the
// page with the style sheets and images the crawl stored for it (its requisites), and its
// text as blocks for a reader; and a crawl written out as a folder of such pages that a
// browser opens from the disk (the html-site export).
//
// The documents come from the sanitiser (backend/sanitize's Page): this package only
// answers its questions from the workspace. A link's target is the page stored under the
// link's canonical URL, through the redirects the crawl recorded; a copy of an old version
// sends its links to the versions of their targets nearest in time to it, as a web
// archive's replay does, and takes of each requisite the fetch nearest in time too.
package offline

import (
	"bytes"
	"context"
	"errors"
	"mime"
	"net/url"
	"strings"

	"mundaneum/backend/extract"
	"mundaneum/backend/fetch"
	"mundaneum/backend/sanitize"
	"mundaneum/backend/store"
	"mundaneum/backend/urlnorm"
)

// Store is what a copy reads of the workspace (store.Store satisfies it).
type Store interface {
	LinkTarget(ctx context.Context, url string) (store.LinkTarget, error)
	NearestVersion(ctx context.Context, page, at int64) (store.Version, error)
	Requisite(ctx context.Context, url string, at int64) (store.Requisite, error)
}

// Source is a stored content to read: a page's current content or one of its versions.
type Source struct {
	PageID      int64
	URL         string // the page's (canonical)
	Title       string
	Body        []byte // as stored
	ContentType string
	Charset     string
	// At is when the content was fetched (unix ms): the requisites shown are the fetches
	// nearest to it, and in a replay the link targets' versions too.
	At int64
	// Replay sends links to the versions of their targets nearest in time to At (an old
	// version's copy), rather than to their current content.
	Replay bool
}

// Copy is a content made readable.
type Copy struct {
	Document string          // for a sandboxed frame (sanitize.FrameCSP)
	Blocks   []extract.Block // the text as a reader sees it
	Assets   Assets
}

// Assets counts what a copy shows of its page's requisites.
type Assets struct {
	Shown   int   `json:"shown"`   // style sheets, images and fonts put in
	Missing int   `json:"missing"` // asked for and not stored (or over the budget)
	Bytes   int64 `json:"bytes"`   // what they add to the document
}

// Budgets of a copy: what its images and fonts may add to the document (they travel in
// it, as data: URLs), and how deep style sheets import one another.
const (
	maxAssetBytes    = 4 << 20
	maxDocAssetBytes = 16 << 20
	maxCSSBytes      = 4 << 20
	maxImportDepth   = 4
)

// IsHTML reports whether a media type is one a copy is made of as a page (the others are
// shown as text).
func IsHTML(contentType string) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	return mt == "text/html" || mt == "application/xhtml+xml" || mt == ""
}

// Make makes a copy of src. A store failure (other than something not being stored) is an
// error; what is not stored is left out.
func Make(ctx context.Context, st Store, src Source) (Copy, error) {
	utf8, _ := fetch.DecodeText(src.Body, withCharset(src.ContentType, src.Charset))
	base, _ := url.Parse(src.URL)
	if !IsHTML(src.ContentType) {
		text := string(utf8)
		return Copy{Document: sanitize.Text(text, src.Title), Blocks: TextBlocks(text)}, nil
	}
	f := newFrame(ctx, st, src)
	doc := sanitize.Page(utf8, base, sanitize.PageOptions{Title: src.Title, Resolver: f})
	if f.err != nil {
		return Copy{}, f.err
	}
	return Copy{Document: doc, Blocks: extract.Blocks(utf8, base, 0), Assets: f.stats}, nil
}

func withCharset(ct, charset string) string {
	if charset == "" {
		return ct
	}
	mt, _, _ := mime.ParseMediaType(ct)
	if mt == "" {
		mt = "text/html"
	}
	return mt + "; charset=" + charset
}

// TextBlocks splits plain text into paragraphs at blank lines (their lines kept).
func TextBlocks(text string) []extract.Block {
	var out []extract.Block
	for _, para := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if strings.TrimSpace(para) == "" || len(out) >= extract.MaxBlocks {
			continue
		}
		out = append(out, extract.Block{Kind: extract.BlockPara, Text: strings.Trim(para, "\n")})
	}
	return out
}

// frame is the sanitiser's Resolver for a copy shown in the app's frame: links marked with
// the pages they open, requisites put in as data: URLs and inline style sheets.
type frame struct {
	ctx    context.Context
	st     Store
	src    Source
	self   string
	links  map[string]sanitize.LinkMark
	assets map[string]string
	css    int // bytes of style sheets put in
	depth  int // @import nesting
	stats  Assets
	err    error // the first store failure
}

func newFrame(ctx context.Context, st Store, src Source) *frame {
	self, err := urlnorm.Normalize(src.URL)
	if err != nil {
		self = src.URL
	}
	return &frame{ctx: ctx, st: st, src: src, self: self, links: map[string]sanitize.LinkMark{}, assets: map[string]string{}}
}

// fail keeps the first store failure; what is not stored is no failure.
func (f *frame) fail(err error) bool {
	if err == nil {
		return false
	}
	if !errors.Is(err, store.ErrNotFound) && f.err == nil {
		f.err = err
	}
	return true
}

// canonical returns u's canonical form without its fragment ("" when it has none).
func canonical(u *url.URL) string {
	v := *u
	v.Fragment, v.RawFragment = "", ""
	c, err := urlnorm.Normalize(v.String())
	if err != nil {
		return ""
	}
	return c
}

func (f *frame) Link(u *url.URL) sanitize.LinkMark {
	c := canonical(u)
	if c == "" {
		return sanitize.LinkMark{}
	}
	if c == f.self {
		if u.Fragment != "" {
			return sanitize.LinkMark{Anchor: u.Fragment}
		}
		return sanitize.LinkMark{Page: f.src.PageID}
	}
	if m, ok := f.links[c]; ok {
		return m
	}
	var m sanitize.LinkMark
	t, err := f.st.LinkTarget(f.ctx, c)
	if !f.fail(err) {
		m.Page, m.Known = t.Page, t.Known
		if t.Page > 0 && f.src.Replay {
			if v, err := f.st.NearestVersion(f.ctx, t.Page, f.src.At); !f.fail(err) {
				m.Version = v.ID
			}
		}
	}
	f.links[c] = m
	return m
}

// requisite returns the stored requisite u as the kind asked for, with its media type.
func (f *frame) requisite(u *url.URL, kind sanitize.AssetKind) (store.Requisite, string, bool) {
	c := canonical(u)
	if c == "" {
		return store.Requisite{}, "", false
	}
	r, err := f.st.Requisite(f.ctx, c, f.src.At)
	if f.fail(err) {
		return r, "", false
	}
	mt, ok := sanitize.AssetType(r.Body, r.ContentType, kind)
	return r, mt, ok
}

func (f *frame) Asset(u *url.URL, kind sanitize.AssetKind) string {
	key := kind.String() + " " + u.String()
	if v, ok := f.assets[key]; ok {
		return v
	}
	v := ""
	if r, mt, ok := f.requisite(u, kind); ok && len(r.Body) <= maxAssetBytes && f.stats.Bytes+int64(len(r.Body)) <= maxDocAssetBytes {
		v = sanitize.DataURL(mt, r.Body)
		f.stats.Shown++
		f.stats.Bytes += int64(len(v))
	} else {
		f.stats.Missing++
	}
	f.assets[key] = v
	return v
}

func (f *frame) Stylesheet(u *url.URL, media string) sanitize.Style {
	r, _, ok := f.requisite(u, sanitize.AssetStylesheet)
	if !ok || f.depth >= maxImportDepth || f.css+len(r.Body) > maxCSSBytes {
		f.stats.Missing++
		return sanitize.Style{}
	}
	f.stats.Shown++
	f.css += len(r.Body)
	css := f.rewrite(cssText(r.Body), u)
	if media != "" {
		css = "@media " + media + "{" + css + "}"
	}
	return sanitize.Style{CSS: css}
}

func (f *frame) InlineStyle(css []byte, base *url.URL) string { return f.rewrite(css, base) }

func (f *frame) rewrite(css []byte, base *url.URL) string {
	f.depth++
	defer func() { f.depth-- }()
	return sanitize.RewriteCSS(css, base, sanitize.CSSRewrite{Asset: f.Asset,
		Import: func(u *url.URL, media string) string { return f.Stylesheet(u, media).CSS }})
}

// cssText is a stored style sheet as UTF-8 (a BOM dropped; @charset is dropped by the
// rewriting).
func cssText(body []byte) []byte {
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	return bytes.ToValidUTF8(body, []byte("\uFFFD"))
}
