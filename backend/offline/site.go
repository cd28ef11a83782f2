package offline

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"net/url"
	"path"
	"sort"
	"strings"
	"time"

	"mundaneum/backend/fetch"
	"mundaneum/backend/sanitize"
	"mundaneum/backend/store"
)

// The html-site export: a crawl as a folder of pages that a browser opens from the disk,
// like a wget mirror (-k -p -E): each stored page at a path made of its host and path
// (index.html for a directory, .html added where the name has no page extension, the query
// as a short hash), its links to the other exported pages rewritten to relative file names
// and the others left pointing at the web (marked, and opening a new window), its stored
// style sheets, images and fonts in _requisites/ (each once), a stored PDF as its file,
// and index.html listing everything. Every page goes through the sanitiser, as in the
// window, under a Content-Security-Policy that loads nothing from the network.

// SiteStore is what the export reads (store.Store satisfies it).
type SiteStore interface {
	Store
	ExportPages(ctx context.Context, crawlID, after int64, limit int) ([]store.ArchivedPage, error)
	Body(ctx context.Context, id int64) (body []byte, contentType, charset string, err error)
}

// SiteReport says what an export wrote.
type SiteReport struct {
	Pages      int   `json:"pages"`      // pages written
	Documents  int   `json:"documents"`  // PDFs written as they are
	Requisites int   `json:"requisites"` // style sheets, images and fonts written
	Skipped    int   `json:"skipped"`    // stored pages of other types (feeds, archives)
	Files      int   `json:"files"`      // every file, index.html included
	Bytes      int64 `json:"bytes"`
}

// SiteProgress is called after each page with the pages done and the total.
type SiteProgress func(done, total int)

// siteCSP is the export's policy: the files beside the page, data: images and fonts,
// inline styles, and nothing else.
const siteCSP = "default-src 'none'; img-src 'self' file: data:; font-src 'self' file: data:; " +
	"style-src 'self' file: 'unsafe-inline'; form-action 'none'; base-uri 'none'"

// requisiteDir holds the exported requisites.
const requisiteDir = "_requisites"

const siteBatch = 500

// sitePage is a page of the export.
type sitePage struct {
	store.ArchivedPage
	file    string
	written bool
}

// Site writes crawl (every crawl's pages when 0) as a static site through write, which
// receives slash-separated relative names.
func Site(ctx context.Context, st SiteStore, crawl int64, write func(name string, data []byte) error, progress SiteProgress) (SiteReport, error) {
	var rep SiteReport
	pages, err := sitePages(ctx, st, crawl)
	if err != nil {
		return rep, err
	}
	out := &siteWriter{write: write, rep: &rep, reqs: map[string]string{},
		byURL: make(map[string]*sitePage, len(pages)), byID: make(map[int64]*sitePage, len(pages))}
	for i := range pages {
		out.byURL[pages[i].URL], out.byID[pages[i].ID] = &pages[i], &pages[i]
	}
	for i := range pages {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		if err := out.page(ctx, st, &pages[i]); err != nil {
			return rep, err
		}
		if progress != nil {
			progress(i+1, len(pages))
		}
	}
	if err := out.index(pages, crawl); err != nil {
		return rep, err
	}
	return rep, nil
}

// sitePages lists the crawl's stored pages and names their files.
func sitePages(ctx context.Context, st SiteStore, crawl int64) ([]sitePage, error) {
	var pages []sitePage
	names := map[string]bool{"index.html": true}
	var after int64
	for {
		ps, err := st.ExportPages(ctx, crawl, after, siteBatch)
		if err != nil {
			return nil, err
		}
		if len(ps) == 0 {
			break
		}
		for _, p := range ps {
			after = p.ID
			u, err := url.Parse(p.URL)
			if err != nil || u.Host == "" {
				continue
			}
			pages = append(pages, sitePage{ArchivedPage: p, file: uniqueName(names, fileName(u, p.ContentType))})
		}
	}
	sort.SliceStable(pages, func(i, j int) bool { return pages[i].file < pages[j].file })
	return pages, nil
}

type siteWriter struct {
	write func(string, []byte) error
	rep   *SiteReport
	reqs  map[string]string // requisite body hash -> its file
	byURL map[string]*sitePage
	byID  map[int64]*sitePage
}

func (w *siteWriter) put(name string, data []byte) error {
	if err := w.write(name, data); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	w.rep.Files++
	w.rep.Bytes += int64(len(data))
	return nil
}

func (w *siteWriter) page(ctx context.Context, st SiteStore, p *sitePage) error {
	body, ct, charset, err := st.Body(ctx, p.ID)
	if err != nil {
		if isNotFound(err) {
			w.rep.Skipped++
			return nil
		}
		return err
	}
	switch {
	case bytes.HasPrefix(body, []byte("%PDF-")):
		w.rep.Documents++
		p.written = true
		return w.put(p.file, body)
	case !IsHTML(ct) && !strings.HasPrefix(ct, "text/plain"):
		w.rep.Skipped++
		return nil
	}
	utf8, _ := fetch.DecodeText(body, withCharset(ct, charset))
	w.rep.Pages++
	p.written = true
	if !IsHTML(ct) {
		return w.put(p.file, []byte(sanitize.Text(string(utf8), p.Title)))
	}
	base, _ := url.Parse(p.URL)
	r := &siteResolver{frame: newFrame(ctx, st, Source{PageID: p.ID, URL: p.URL, At: p.FetchedAt}), w: w, from: p}
	doc := sanitize.Page(utf8, base, sanitize.PageOptions{Title: p.Title, CSP: siteCSP, Resolver: r})
	if r.frame.err != nil {
		return r.frame.err
	}
	if r.err != nil {
		return r.err
	}
	return w.put(p.file, []byte(doc))
}

// siteResolver answers the sanitiser for an exported page: links to exported pages become
// relative file names, requisites files of their own.
type siteResolver struct {
	*frame
	w    *siteWriter
	from *sitePage
	err  error
}

func (r *siteResolver) Link(u *url.URL) sanitize.LinkMark {
	m := r.frame.Link(u)
	switch {
	case m.Anchor != "":
		m.Href = "#" + u.EscapedFragment()
	case m.Page > 0:
		if to := r.target(u); to != nil {
			m.Href = relative(r.from.file, to.file)
			if u.Fragment != "" {
				m.Href += "#" + u.EscapedFragment()
			}
		} else {
			// Stored, but not in this export (another crawl's page): the web has it.
			m = sanitize.LinkMark{Known: m.Page}
		}
	}
	return m
}

// target is the exported page a link opens: its own, or where its recorded redirects lead.
func (r *siteResolver) target(u *url.URL) *sitePage {
	if p := r.w.byURL[canonical(u)]; p != nil {
		return p
	}
	t, err := r.st.LinkTarget(r.ctx, canonical(u))
	if err != nil {
		return nil
	}
	return r.w.byID[t.Page]
}

// requisiteFile writes a requisite once (by its content) and returns its name.
func (r *siteResolver) requisiteFile(hash, mediaType string, data func() []byte) string {
	if name, ok := r.w.reqs[hash]; ok {
		return name
	}
	name := requisiteDir + "/" + hash[:16] + extFor(mediaType)
	if err := r.w.put(name, data()); err != nil && r.err == nil {
		r.err = err
	}
	r.w.reqs[hash] = name
	r.w.rep.Requisites++
	return name
}

func (r *siteResolver) Asset(u *url.URL, kind sanitize.AssetKind) string {
	req, mt, ok := r.requisite(u, kind)
	if !ok {
		return ""
	}
	name := r.requisiteFile(req.Hash, mt, func() []byte { return req.Body })
	return relative(r.from.file, name)
}

func (r *siteResolver) Stylesheet(u *url.URL, media string) sanitize.Style {
	req, _, ok := r.requisite(u, sanitize.AssetStylesheet)
	if !ok {
		return sanitize.Style{}
	}
	name := r.requisiteFile(req.Hash, "text/css", func() []byte {
		// The sheet's own references are relative to its file, beside theirs.
		sheet := &siteResolver{frame: r.frame, w: r.w, from: &sitePage{file: requisiteDir + "/sheet.css"}}
		css := sanitize.RewriteCSS(cssText(req.Body), u, sanitize.CSSRewrite{Asset: sheet.Asset,
			Import: func(iu *url.URL, media string) string { return sheet.imported(iu, media, 1) }})
		if sheet.err != nil && r.err == nil {
			r.err = sheet.err
		}
		return []byte(css)
	})
	return sanitize.Style{Href: relative(r.from.file, name)}
}

// imported returns an @import's sheet inline (rewritten as the sheet that imports it).
func (r *siteResolver) imported(u *url.URL, media string, depth int) string {
	req, _, ok := r.requisite(u, sanitize.AssetStylesheet)
	if !ok || depth >= maxImportDepth {
		return ""
	}
	css := sanitize.RewriteCSS(cssText(req.Body), u, sanitize.CSSRewrite{Asset: r.Asset,
		Import: func(iu *url.URL, m string) string { return r.imported(iu, m, depth+1) }})
	if media != "" {
		css = "@media " + media + "{" + css + "}"
	}
	return css
}

func (r *siteResolver) InlineStyle(css []byte, base *url.URL) string {
	return sanitize.RewriteCSS(css, base, sanitize.CSSRewrite{Asset: r.Asset,
		Import: func(u *url.URL, media string) string { return r.imported(u, media, 1) }})
}

func extFor(mediaType string) string {
	switch mediaType {
	case "text/css":
		return ".css"
	case "image/png":
		return ".png"
	case "image/gif":
		return ".gif"
	case "image/jpeg":
		return ".jpg"
	case "image/webp":
		return ".webp"
	case "image/svg+xml":
		return ".svg"
	case "image/bmp":
		return ".bmp"
	case "image/x-icon":
		return ".ico"
	case "image/avif":
		return ".avif"
	case "font/woff":
		return ".woff"
	case "font/woff2":
		return ".woff2"
	case "font/ttf":
		return ".ttf"
	case "font/otf":
		return ".otf"
	}
	return ".bin"
}

// relative is the address of file to from's page (both slash-separated names in the
// export).
func relative(from, file string) string {
	fd := strings.Split(path.Dir(from), "/")
	if path.Dir(from) == "." {
		fd = nil
	}
	parts := strings.Split(file, "/")
	i := 0
	for i < len(fd) && i < len(parts)-1 && fd[i] == parts[i] {
		i++
	}
	var b strings.Builder
	for range fd[i:] {
		b.WriteString("../")
	}
	for j, p := range parts[i:] {
		if j > 0 {
			b.WriteByte('/')
		}
		b.WriteString(url.PathEscape(p))
	}
	return b.String()
}

// fileName is where a page of URL u goes in the export.
func fileName(u *url.URL, contentType string) string {
	host := safeSegment(u.Hostname())
	if p := u.Port(); p != "" {
		host += "_" + p
	}
	segs := []string{host}
	raw := strings.Split(u.Path, "/")
	for i, s := range raw {
		if s == "" && i < len(raw)-1 {
			continue
		}
		segs = append(segs, safeSegment(s))
	}
	last := segs[len(segs)-1]
	if len(segs) == 1 || last == "" {
		last = "index.html"
	}
	ext := strings.ToLower(path.Ext(last))
	want := ".html"
	switch {
	case strings.HasPrefix(contentType, "application/pdf"):
		want = ".pdf"
	case ext == ".html" || ext == ".htm" || ext == ".xhtml":
		want = ext
	}
	if u.RawQuery != "" {
		sum := sha256.Sum256([]byte(u.RawQuery))
		last = strings.TrimSuffix(last, ext) + "@" + hex.EncodeToString(sum[:4]) + ext
	}
	if ext != want {
		last += want
	}
	if len(segs) == 1 {
		segs = append(segs, last)
	} else {
		segs[len(segs)-1] = last
	}
	return strings.Join(segs, "/")
}

// safeSegment makes a path segment a file name any system takes: letters, digits and
// ._~- kept, the rest as _, never . or .., at most 100 bytes (a long one keeps a hash).
func safeSegment(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '~' || c == '-' {
			b.WriteByte(c)
		} else {
			b.WriteByte('_')
		}
	}
	out := b.String()
	if out == "." || out == ".." || strings.HasPrefix(out, ".") {
		out = "_" + out
	}
	if len(out) > 100 {
		sum := sha256.Sum256([]byte(s))
		out = out[:80] + "-" + hex.EncodeToString(sum[:6])
	}
	return out
}

// uniqueName returns name, or name with -2, -3... before its extension when it is taken.
func uniqueName(taken map[string]bool, name string) string {
	if !taken[name] {
		taken[name] = true
		return name
	}
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 2; ; i++ {
		n := fmt.Sprintf("%s-%d%s", stem, i, ext)
		if !taken[n] {
			taken[n] = true
			return n
		}
	}
}

var indexTemplate = template.Must(template.New("index").Parse(`<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<title>{{.Title}}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60em;margin:1.5em auto;padding:0 1em;color:#222}
li{margin:.2em 0}.url{color:#666;font-size:.85em;margin-left:.4em;overflow-wrap:anywhere}
@media (prefers-color-scheme:dark){body{color:#ddd;background:#1c1c1e}a{color:#78aeed}.url{color:#aaa}}</style>
</head><body><h1>{{.Title}}</h1>
<p>{{.Count}} pages, exported from Mundaneum {{.When}}. Links between them open the copies here; links elsewhere open the web.</p>
{{range .Hosts}}<h2>{{.Host}}</h2><ul>{{range .Pages}}<li><a href="{{.Href}}">{{.Title}}</a><span class="url">{{.URL}}</span></li>
{{end}}</ul>{{end}}
</body></html>`))

type indexHost struct {
	Host  string
	Pages []indexEntry
}

type indexEntry struct {
	Href  template.URL // a relative file name made by relative(): no scheme
	Title string
	URL   string
}

// index writes index.html: every exported page, by host.
func (w *siteWriter) index(pages []sitePage, crawl int64) error {
	var hosts []indexHost
	n := 0
	for _, p := range pages {
		if !p.written {
			continue
		}
		n++
		u, _ := url.Parse(p.URL)
		host := u.Host
		if len(hosts) == 0 || hosts[len(hosts)-1].Host != host {
			hosts = append(hosts, indexHost{Host: host})
		}
		title := strings.TrimSpace(p.Title)
		if title == "" {
			title = p.URL
		}
		h := &hosts[len(hosts)-1]
		h.Pages = append(h.Pages, indexEntry{Href: template.URL(relative("index.html", p.file)), Title: title, URL: p.URL})
	}
	title := "Every crawl's pages"
	if crawl != 0 {
		title = fmt.Sprintf("Crawl %d", crawl)
	}
	var buf bytes.Buffer
	if err := indexTemplate.Execute(&buf, map[string]any{"Title": title, "Count": n, "Hosts": hosts,
		"When": time.Now().UTC().Format("2006-01-02 15:04 UTC")}); err != nil {
		return err
	}
	return w.put("index.html", buf.Bytes())
}

func isNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }
