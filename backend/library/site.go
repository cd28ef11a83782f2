package library

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"sort"
	"strconv"
	"strings"
	"time"
)

// A static HTML export: a folder of pages that a browser opens from the disk, GENVL's
// summary pages as files. index.html is the exported library; each library below has
// lib-ID.html and its recursive "what's new" list new-ID.html; each report report-ID.html;
// pictures are img-ID files. Every page is written through html/template (titles and notes
// are escaped, addresses other than http(s) are neutralised), reports go through the
// sanitiser, and a Content-Security-Policy forbids scripts.

// SiteReport says what a static export wrote.
type SiteReport struct {
	Files                               int
	Libraries, Pointers, Reports, Views int
}

// sitePage is what the page template shows.
type sitePage struct {
	Title, Purpose, Author, Email string
	Image                         string
	Crumbs                        []siteLink
	New                           string // the what's-new page
	Libraries                     []siteLink
	Postings                      []sitePosting
	Recent                        []sitePosting
	Report                        template.HTML
	Generated                     string
}

type siteLink struct {
	Href, Title string
	Count       string
}

type sitePosting struct {
	Kind, Title, Href, URL, Notes, Where, When string
	Tags                                       []string
	External                                   bool
}

var siteTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' file:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<title>{{.Title}}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:52em;margin:1.5em auto;padding:0 1em;color:#222}
header img{max-height:5em;float:right}nav,footer,.meta,.where{color:#666;font-size:.9em}ul{padding-left:1.2em}
li{margin:.25em 0}.lib{font-weight:600}.tag{background:#eef;border-radius:3px;padding:0 .3em;font-size:.85em;margin-left:.3em}
.notes{display:block;color:#444;white-space:pre-wrap}@media (prefers-color-scheme:dark){body{color:#ddd;background:#1c1c1e}a{color:#78aeed}.notes{color:#bbb}.tag{background:#334}}</style>
</head><body>
<header>{{if .Image}}<img src="{{.Image}}" alt="">{{end}}
{{if .Crumbs}}<nav>{{range $i, $c := .Crumbs}}{{if $i}} / {{end}}<a href="{{$c.Href}}">{{$c.Title}}</a>{{end}}</nav>{{end}}
<h1>{{.Title}}</h1>
{{if .Purpose}}<p>{{.Purpose}}</p>{{end}}
{{if or .Author .Email}}<p class="meta">{{.Author}}{{if .Email}} &lt;{{.Email}}&gt;{{end}}</p>{{end}}
{{if .New}}<p class="meta"><a href="{{.New}}">What's new here and below</a></p>{{end}}
</header>
{{if .Report}}<article>{{.Report}}</article>{{end}}
{{if .Libraries}}<h2>Libraries</h2><ul>{{range .Libraries}}<li class="lib"><a href="{{.Href}}">{{.Title}}</a> <span class="meta">{{.Count}}</span></li>{{end}}</ul>{{end}}
{{if .Postings}}<h2>Postings</h2><ul>{{template "postings" .Postings}}</ul>{{end}}
{{if .Recent}}<ul>{{template "postings" .Recent}}</ul>{{end}}
<footer><p>Exported from Mundaneum {{.Generated}}.</p></footer>
</body></html>
{{define "postings"}}{{range .}}<li>{{if .External}}<a href="{{.Href}}" rel="noopener noreferrer nofollow">{{.Title}}</a>{{else if .Href}}<a href="{{.Href}}">{{.Title}}</a>{{else}}{{.Title}}{{end}}
{{- if eq .Kind "report"}} <span class="meta">(report)</span>{{end}}{{if eq .Kind "view"}} <span class="meta">(saved search: {{.URL}})</span>{{end}}
{{- range .Tags}}<span class="tag">{{.}}</span>{{end}}{{if .Where}} <span class="where">in {{.Where}}</span>{{end}}{{if .When}} <span class="where">{{.When}}</span>{{end}}
{{- if .Notes}}<span class="notes">{{.Notes}}</span>{{end}}</li>
{{end}}{{end}}`))

// recentOnSite bounds each what's-new page.
const recentOnSite = 200

// ExportSite writes the library id and everything below it as a static site, calling
// write for each file (a name without directories, and its content).
func (l *Library) ExportSite(ctx context.Context, id int64, write func(name string, data []byte) error) (SiteReport, error) {
	t, err := l.tree(ctx, id)
	if err != nil {
		return SiteReport{}, err
	}
	top := t.nodes[0]
	if top.Kind != KindLibrary {
		return SiteReport{}, fmt.Errorf("#%d is a %s: export a library: %w", id, top.Kind, ErrInvalid)
	}
	_, inherited, err := l.crumbs(ctx, top)
	if err != nil {
		return SiteReport{}, err
	}
	s := &site{l: l, t: t, top: top.ID, write: write, images: map[int64]string{}, views: map[int64]string{},
		byID: map[int64]Node{}, generated: l.now().UTC().Format("2006-01-02 15:04 UTC")}
	for _, n := range t.nodes {
		s.byID[n.ID] = n
	}
	if err := s.library(ctx, top, nil, inherited); err != nil {
		return s.rep, err
	}
	return s.rep, nil
}

type site struct {
	l         *Library
	t         *tree
	top       int64
	write     func(string, []byte) error
	byID      map[int64]Node
	images    map[int64]string
	views     map[int64]string
	generated string
	rep       SiteReport
}

func (s *site) page(name string, p sitePage) error {
	p.Generated = s.generated
	var buf bytes.Buffer
	if err := siteTemplate.Execute(&buf, p); err != nil {
		return err
	}
	s.rep.Files++
	return s.write(name, buf.Bytes())
}

func libFile(top, id int64) string {
	if id == top {
		return "index.html"
	}
	return "lib-" + strconv.FormatInt(id, 10) + ".html"
}

func (s *site) image(ctx context.Context, id int64) (string, error) {
	if id == 0 {
		return "", nil
	}
	if name, ok := s.images[id]; ok {
		return name, nil
	}
	img, err := s.l.st.LibImage(ctx, id)
	if err != nil {
		return "", err
	}
	name := "img-" + strconv.FormatInt(id, 10) + "." + strings.TrimPrefix(img.Mime, "image/")
	s.images[id] = name
	s.rep.Files++
	return name, s.write(name, img.Data)
}

func (s *site) posting(ctx context.Context, n Node) (sitePosting, error) {
	p := sitePosting{Kind: string(n.Kind), Title: n.Title, Notes: n.Notes, Tags: n.Tags}
	switch n.Kind {
	case KindPointer:
		p.Href, p.External = n.URL, true
	case KindReport:
		p.Href = "report-" + strconv.FormatInt(n.ID, 10) + ".html"
	case KindLibrary:
		p.Href = libFile(s.top, n.ID)
	case KindView:
		q, ok := s.views[n.ID]
		if !ok {
			if v, err := s.l.st.LibPosting(ctx, n.ID); err == nil && v.View != nil {
				q = v.View.Query
			}
			s.views[n.ID] = q
		}
		p.URL = q
	}
	return p, nil
}

// library writes a library's page, its what's-new page and everything below.
func (s *site) library(ctx context.Context, n Node, crumbs []siteLink, inherited int64) error {
	s.rep.Libraries++
	if n.ImageID != 0 {
		inherited = n.ImageID
	}
	img, err := s.image(ctx, inherited)
	if err != nil {
		return err
	}
	p := sitePage{Title: n.Title, Purpose: n.Purpose, Author: n.Author, Email: n.Email, Image: img, Crumbs: crumbs,
		New: "new-" + strconv.FormatInt(n.ID, 10) + ".html"}
	children := sortPostings(s.t.children[n.ID], n.Sort)
	here := append(append([]siteLink{}, crumbs...), siteLink{Href: libFile(s.top, n.ID), Title: n.Title})
	for _, c := range children {
		if c.Kind == KindLibrary {
			libs, posts := s.count(c)
			p.Libraries = append(p.Libraries, siteLink{Href: libFile(s.top, c.ID), Title: c.Title,
				Count: fmt.Sprintf("%d postings, %d libraries", posts, libs)})
			if err := s.library(ctx, c, here, inherited); err != nil {
				return err
			}
			continue
		}
		sp, err := s.posting(ctx, c)
		if err != nil {
			return err
		}
		p.Postings = append(p.Postings, sp)
		switch c.Kind {
		case KindPointer:
			s.rep.Pointers++
		case KindView:
			s.rep.Views++
		case KindReport:
			s.rep.Reports++
			if err := s.report(ctx, c, here, inherited); err != nil {
				return err
			}
		}
	}
	if err := s.page(libFile(s.top, n.ID), p); err != nil {
		return err
	}
	return s.recent(ctx, n, here)
}

// count is what is below a library in the export.
func (s *site) count(n Node) (libs, posts int) {
	for _, c := range s.t.children[n.ID] {
		if c.Kind == KindLibrary {
			l, p := s.count(c)
			libs, posts = libs+l+1, posts+p
		} else {
			posts++
		}
	}
	return libs, posts
}

func (s *site) report(ctx context.Context, n Node, crumbs []siteLink, inherited int64) error {
	if n.ImageID != 0 {
		inherited = n.ImageID
	}
	img, err := s.image(ctx, inherited)
	if err != nil {
		return err
	}
	html, _ := RenderMarkdown(n.Body)
	p := sitePage{Title: n.Title, Author: n.Author, Email: n.Email, Image: img, Crumbs: crumbs, Report: template.HTML(html)}
	if n.URL != "" {
		p.Postings = []sitePosting{{Kind: "pointer", Title: n.URL, Href: n.URL, External: true}}
	}
	return s.page("report-"+strconv.FormatInt(n.ID, 10)+".html", p)
}

// recent writes a library's what's-new page: everything below it, newest first.
func (s *site) recent(ctx context.Context, n Node, crumbs []siteLink) error {
	var below []Node
	for _, x := range s.t.nodes {
		if x.ID != n.ID && strings.HasPrefix(x.Path, n.Path) {
			below = append(below, x)
		}
	}
	sort.SliceStable(below, func(i, j int) bool { return below[i].CreatedAt > below[j].CreatedAt })
	p := sitePage{Title: "What's new in " + n.Title, Crumbs: crumbs}
	for _, x := range below[:min(len(below), recentOnSite)] {
		sp, err := s.posting(ctx, x)
		if err != nil {
			return err
		}
		sp.Where = s.byID[x.Parent].Title
		sp.When = time.UnixMilli(x.CreatedAt).UTC().Format("2006-01-02")
		p.Recent = append(p.Recent, sp)
	}
	return s.page("new-"+strconv.FormatInt(n.ID, 10)+".html", p)
}

// sortPostings orders a library's children for its page: sub-libraries first.
func sortPostings(cs []Node, o Order) []Node {
	out := append([]Node{}, cs...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.Kind == KindLibrary) != (b.Kind == KindLibrary) {
			return a.Kind == KindLibrary
		}
		switch o {
		case ByDate:
			return a.CreatedAt > b.CreatedAt
		case ByManual:
			return a.Position < b.Position
		}
		return strings.ToLower(a.Title) < strings.ToLower(b.Title)
	})
	return out
}
