// Package exchange is Harvest's Gatherer/Broker collection in modern form: a workspace's
// page summaries go out as SOIF templates (a file, or a gzip stream served by `serve` to
// holders of a read-only token), and come in from a file or from another instance added
// as a source, pulled incrementally by a commit-ordered cursor, deduplicated by content
// hash, marked with where they came from, and never half-applied.
//
// The mapping between a stored page and its template is one pair of functions in this
// file (Template and FromTemplate); the rest moves templates. What it keeps (tokens,
// sources, the summaries a stream reads) it asks of the store through the interfaces in
// persist.go, written in exchange/record's types; it runs no SQL of its own.
package exchange

import (
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"mundaneum/backend/formats/soif"
)

// Summary is what a workspace holds of a page that travels: the page's fields, its
// extracted text and its links.
type Summary struct {
	URL         string
	ContentType string // media type
	Title       string
	Description string
	Keywords    string
	Author      string
	Lang        string
	Headings    string
	Text        string
	Links       []Link
	Size        int64
	Hash        string // sha256 hex of the body: the content hash peers deduplicate by
	// LastModified is the server's Last-Modified (HTTP date), "" if none.
	LastModified string
	// UpdatedAt is when the page's content last changed here (unix ms).
	UpdatedAt int64
	// Summariser names what made the summary, and Attrs are its type's own attributes
	// (author, pages, keywords of a PDF...), when the workspace records them.
	Summariser string
	Attrs      []soif.Attr
}

// Link is one reference of a page, with its anchor text.
type Link struct {
	URL, Anchor string
}

// Gatherer identifies the instance a stream comes from (Harvest's gatherer-* attributes).
type Gatherer struct {
	Name, Host, Version string
}

// TextBudget bounds the text a template carries. Below it the whole extracted text travels
// as Full-Text, so that the receiving instance finds a page by any word the sending one
// finds it by (Essence's abridged Partial-Text would not); a longer text is cut at the
// budget, on a character boundary, and travels as Partial-Text.
const TextBudget = 1 << 20

// TemplateType is the type of a page's template (Harvest's Gatherers wrote FILE).
const TemplateType = "FILE"

// Template is the SOIF template of a page's summary.
func Template(s *Summary, g Gatherer) *soif.Template {
	t := &soif.Template{Type: TemplateType, URL: s.URL}
	t.AddString("Type", essenceType(s.ContentType))
	t.AddString("Content-Type", s.ContentType)
	t.AddString("Title", s.Title)
	t.AddString("Description", s.Description)
	t.AddString("Keywords", s.Keywords)
	t.AddString("Author", s.Author)
	t.AddString("Language", s.Lang)
	t.AddString("Headings", s.Headings)
	if len(s.Text) <= TextBudget {
		t.AddString("Full-Text", s.Text)
	} else {
		cut := TextBudget
		for cut > 0 && !utf8.RuneStart(s.Text[cut]) {
			cut--
		}
		t.AddString("Partial-Text", s.Text[:cut])
	}
	if len(s.Links) > 0 {
		var refs, anchors strings.Builder
		for i, l := range s.Links {
			if i > 0 {
				refs.WriteByte('\n')
				anchors.WriteByte('\n')
			}
			refs.WriteString(l.URL)
			anchors.WriteString(oneLine(l.Anchor))
		}
		t.AddString("URL-References", refs.String())
		if strings.Trim(anchors.String(), "\n") != "" {
			t.AddString("URL-Anchors", anchors.String()) // line i is the anchor of reference i
		}
	}
	if lm, err := http.ParseTime(s.LastModified); err == nil {
		t.AddString("Last-Modification-Time", strconv.FormatInt(lm.Unix(), 10))
	}
	if s.UpdatedAt > 0 {
		t.AddString("Update-Time", strconv.FormatInt(s.UpdatedAt/1000, 10))
	}
	t.AddString("Content-SHA256", s.Hash)
	if s.Size > 0 {
		t.AddString("File-Size", strconv.FormatInt(s.Size, 10))
	}
	t.AddString("Summariser", s.Summariser)
	for _, a := range s.Attrs {
		t.Add(a.Name, a.Value)
	}
	t.AddString("Gatherer-Name", g.Name)
	t.AddString("Gatherer-Host", g.Host)
	t.AddString("Gatherer-Version", g.Version)
	return t
}

// known are the attributes FromTemplate reads into a Summary's fields; any other is one
// of the summariser's own (Summary.Attrs).
var known = map[string]bool{}

func init() {
	for _, n := range []string{"Type", "Content-Type", "Title", "Description", "Keywords", "Author", "Language",
		"Headings", "Full-Text", "Partial-Text", "URL-References", "URL-Anchors", "Last-Modification-Time",
		"Update-Time", "Content-SHA256", "MD5", "File-Size", "Summariser", "Gatherer-Name", "Gatherer-Host",
		"Gatherer-Version", "Time-To-Live", "Refresh-Rate"} {
		known[strings.ToLower(n)] = true
	}
}

// machine are the attributes whose values are not words a reader searches by: the page's
// type, references, times, sizes and hashes, and who gathered it (title and headings are
// searchable already as such; any Gatherer-* attribute too).
var machine = map[string]bool{}

func init() {
	for _, n := range []string{"Type", "Content-Type", "Title", "Headings", "Full-Text", "URL-References", "URL-Anchors",
		"Last-Modification-Time", "Update-Time", "Content-SHA256", "MD5", "File-Size", "Summariser",
		"Time-To-Live", "Refresh-Rate", "Language"} {
		machine[strings.ToLower(n)] = true
	}
}

// wordsOf is the searchable text of another gatherer's template without Full-Text
// (Harvest's Essence with its abridged Partial-Text, UKOLN's DC-dot with Dublin Core
// elements as attributes): its Partial-Text, then every other attribute that holds words
// (Description, Keywords, Author, Creator, Subject, Publisher, ...), a line each, up to
// TextBudget. The broker that held it found it by all of them. Mundaneum's own templates
// (they carry Content-SHA256) send their whole searchable text as Full-Text.
func wordsOf(t *soif.Template) string {
	var b strings.Builder
	add := func(v []byte) {
		if len(v) == 0 || !utf8.Valid(v) || b.Len()+len(v)+1 > TextBudget {
			return
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.Write(v)
	}
	v, _ := t.Get("Partial-Text")
	add(v)
	for _, a := range t.Attrs {
		if n := strings.ToLower(a.Name); n != "partial-text" && !machine[n] && !strings.HasPrefix(n, "gatherer-") {
			add(a.Value)
		}
	}
	return b.String()
}

// FromTemplate reads a page's summary from its template: the inverse of Template, and
// lenient with templates other Gatherers wrote (Harvest's lower-case names, MD5, a
// type for a content type, no text). The caller checks the URL.
func FromTemplate(t *soif.Template) Summary {
	s := Summary{URL: t.URL, Title: t.String("Title"), Description: t.String("Description"),
		Keywords: t.String("Keywords"), Author: t.String("Author"), Lang: t.String("Language"),
		Headings: t.String("Headings"), Hash: strings.ToLower(t.String("Content-SHA256")),
		Summariser: t.String("Summariser"), ContentType: t.String("Content-Type")}
	if s.ContentType == "" {
		s.ContentType = mediaOfType(t.String("Type"))
	}
	_, ours := t.Get("Content-SHA256") // Mundaneum's: Full-Text is the whole searchable text
	if v, ok := t.Get("Full-Text"); ok {
		s.Text = string(v)
	} else if ours {
		s.Text = t.String("Partial-Text")
	} else {
		s.Text = wordsOf(t)
	}
	if lm, err := strconv.ParseInt(t.String("Last-Modification-Time"), 10, 64); err == nil && lm > 0 {
		s.LastModified = time.Unix(lm, 0).UTC().Format(http.TimeFormat)
	}
	if ut, err := strconv.ParseInt(t.String("Update-Time"), 10, 64); err == nil && ut > 0 && ut < 1<<40 {
		s.UpdatedAt = ut * 1000
	}
	if n, err := strconv.ParseInt(t.String("File-Size"), 10, 64); err == nil && n > 0 {
		s.Size = n
	}
	if refs := t.String("URL-References"); refs != "" {
		anchors := strings.Split(t.String("URL-Anchors"), "\n")
		for i, u := range strings.Split(refs, "\n") {
			if u = strings.TrimSpace(u); u == "" {
				continue
			}
			l := Link{URL: u}
			if i < len(anchors) {
				l.Anchor = anchors[i]
			}
			s.Links = append(s.Links, l)
		}
	}
	for _, a := range t.Attrs {
		if !known[strings.ToLower(a.Name)] {
			s.Attrs = append(s.Attrs, a)
		}
	}
	return s
}

// essenceType names a media type as Essence's type recognisers did.
func essenceType(mt string) string {
	switch mt {
	case "text/html", "application/xhtml+xml":
		return "HTML"
	case "text/plain":
		return "Text"
	case "application/pdf":
		return "PDF"
	case "text/markdown":
		return "Markdown"
	case "application/rss+xml", "application/atom+xml":
		return "Feed"
	case "":
		return ""
	}
	return mt
}

func mediaOfType(typ string) string {
	switch strings.ToLower(typ) {
	case "html":
		return "text/html"
	case "text", "plaintext", "readme":
		return "text/plain"
	case "pdf":
		return "application/pdf"
	case "markdown":
		return "text/markdown"
	}
	if strings.Contains(typ, "/") {
		return strings.ToLower(typ)
	}
	return "text/html"
}

func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
