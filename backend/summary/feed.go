package summary

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"net/url"
	"strconv"
	"strings"

	"mundaneum/backend/extract"
	"mundaneum/backend/fetch"
)

// Feeds (RSS 0.9x-2.0, RSS 1.0/RDF, Atom): the feed's title and description, each entry's
// title and summary as text, and each entry's link as a link with the entry's title as its
// anchor text, so that a crawl may follow the entries within its scope.
func init() {
	Register(&Kind{Name: "feed", Type: "feed",
		Media: []string{"application/rss+xml", "application/atom+xml", "application/rdf+xml", "application/feed+xml",
			"application/x-rss+xml", // Debian's /etc/mime.types (so Python's http.server, Apache on Debian)
			"application/xml", "text/xml"},
		Exts:  []string{"rss", "atom", "rdf", "xml"},
		Magic: looksFeed,
		Run:   feedSummary})
}

// looksFeed finds a feed's root element near the start of an XML document.
func looksFeed(head []byte) bool {
	h := bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n")
	if !bytes.HasPrefix(h, []byte("<")) {
		return false
	}
	for _, root := range []string{"<rss", "<feed", "<rdf:RDF"} {
		if i := bytes.Index(h, []byte(root)); i >= 0 && i+len(root) < len(h) {
			if c := h[i+len(root)]; c == ' ' || c == '>' || c == '\n' || c == '\t' || c == '\r' {
				return true
			}
		}
	}
	return false
}

const maxFeedDepth = 64

type feedEntry struct {
	title, link, summary, author strings.Builder
	href                         string
}

func feedSummary(ctx context.Context, in Input, b *Budget) (*Result, error) {
	text, enc := fetch.DecodeText(in.Body, in.ContentType)
	d := xml.NewDecoder(bytes.NewReader(text))
	d.Strict = false
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil } // already UTF-8
	r := &Result{Charset: enc}
	out := textOut{max: b.MaxText}
	var (
		stack            []string // local names of the open elements
		entry            *feedEntry
		title, desc, who strings.Builder
		entries          int
		field            *strings.Builder // the element whose text is being read
	)
	seen := map[string]bool{}
	flush := func() {
		t := htmlText(entry.title.String(), extract.MaxAnchor)
		link := entry.href
		if link == "" {
			link = strings.TrimSpace(entry.link.String())
		}
		out.add(t)
		out.add(htmlText(entry.summary.String(), b.MaxText))
		if u := resolve(in.URL, link); u != "" && !seen[u] && len(r.Links) < extract.MaxLinks {
			seen[u] = true
			r.Links = append(r.Links, extract.Link{URL: u, Kind: extract.KindA, Anchor: t})
		}
		entries++
	}
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return r, ctx.Err()
		}
		tok, err := d.Token()
		if err != nil {
			if !errors.Is(err, io.EOF) && entries == 0 && title.Len() == 0 {
				r.problem(ProblemUnreadable)
			}
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) >= maxFeedDepth {
				r.problem(ProblemTooDeep)
				goto done
			}
			name := t.Name.Local
			stack = append(stack, name)
			field = nil
			switch {
			case name == "item" || name == "entry":
				entry = &feedEntry{}
			case entry != nil && len(stack) >= 2 && (stack[len(stack)-2] == "item" || stack[len(stack)-2] == "entry"):
				switch name {
				case "title":
					field = &entry.title
				case "link":
					if href := attr(t, "href"); href != "" {
						if rel := attr(t, "rel"); (rel == "" || rel == "alternate") && entry.href == "" {
							entry.href = href
						}
					} else {
						field = &entry.link
					}
				case "guid", "id":
					if entry.link.Len() == 0 && entry.href == "" && attr(t, "isPermaLink") != "false" {
						field = &entry.link
					}
				case "description", "summary", "content", "encoded":
					field = &entry.summary
				case "creator":
					field = &entry.author
				}
			case entry == nil && len(stack) == 2 && name == "title" && stack[0] != "rss",
				entry == nil && len(stack) == 3 && name == "title" && stack[1] == "channel":
				if title.Len() == 0 {
					field = &title
				}
			case entry == nil && (name == "subtitle" || name == "description") && len(stack) <= 3:
				if desc.Len() == 0 {
					field = &desc
				}
			case entry == nil && (name == "name" && len(stack) >= 2 && stack[len(stack)-2] == "author" || name == "managingEditor" || name == "creator"):
				if who.Len() == 0 {
					field = &who
				}
			}
		case xml.EndElement:
			if len(stack) > 0 {
				name := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if entry != nil && (name == "item" || name == "entry") {
					flush()
					entry = nil
				}
			}
			field = nil
		case xml.CharData:
			if field != nil && field.Len() < extract.MaxMeta*8 {
				field.Write(t)
			}
		}
	}
done:
	if entry != nil {
		flush()
	}
	r.Title = htmlText(title.String(), extract.MaxTitle)
	r.Description = htmlText(desc.String(), extract.MaxMeta)
	r.Author = strings.TrimSpace(who.String())
	r.Text = joinText(b.MaxText, r.Title, r.Description, out.String())
	if out.full {
		r.problem(extract.ProblemTruncated)
	}
	r.addAttr(AttrTitle, r.Title)
	r.addAttr(AttrAuthor, r.Author)
	r.addAttr(AttrEntries, strconv.Itoa(entries))
	return r, nil
}

func attr(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return strings.TrimSpace(a.Value)
		}
	}
	return ""
}

// htmlText is the text of a fragment that may hold (escaped) HTML, as feeds' titles and
// summaries do, capped at max bytes.
func htmlText(s string, max int) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if !strings.ContainsAny(s, "<&") {
		return clip(strings.Join(strings.Fields(s), " "), max)
	}
	return clip(extract.Options{MaxText: max}.HTML([]byte(s), nil).Text, max)
}

// resolve makes a link absolute against base; "" when it is not an http(s) URL.
func resolve(base *url.URL, link string) string {
	link = strings.TrimSpace(link)
	if link == "" || len(link) > extract.MaxURL {
		return ""
	}
	u, err := url.Parse(link)
	if err != nil {
		return ""
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return ""
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}
