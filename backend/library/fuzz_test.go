package library

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// FuzzPath: any text given as a path parses or fails cleanly, and titles as the library
// stores them (one clean line each) survive FormatPath then ParsePath exactly, whatever
// slashes, backslashes or leading #s they hold.
func FuzzPath(f *testing.F) {
	for _, s := range []string{"/Computing/Go", `/a\/b/c\\d`, "#42", "/#1/#2", `\#42/x`, "//a//", "/\x00/\xff", `a\`, "/ a /b "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		segs, err := ParsePath(s)
		if err == nil {
			for _, g := range segs {
				if g.ID == 0 && g.Title == "" {
					t.Fatalf("%q: an empty segment", s)
				}
			}
		}
		var titles []string
		for _, part := range strings.Split(s, "\x00") {
			if c := cleanLine(part); c != "" {
				titles = append(titles, c)
			}
		}
		p := FormatPath(titles)
		back, err := ParsePath(p)
		if err != nil {
			t.Fatalf("titles %q: FormatPath gives %q, which does not parse: %v", titles, p, err)
		}
		var got []string
		for _, g := range back {
			if g.ID != 0 {
				t.Fatalf("titles %q: %q parses to the id #%d", titles, p, g.ID)
			}
			got = append(got, g.Title)
		}
		if !reflect.DeepEqual(got, titles) {
			t.Fatalf("titles %q -> %q -> %q", titles, p, got)
		}
	})
}

// FuzzRenderMarkdown: whatever a report holds, its rendering has no element that runs or
// loads anything, no event handler and no link that is not http(s), mailto or in-page, and
// the addresses it lists are http(s).
func FuzzRenderMarkdown(f *testing.F) {
	for _, s := range []string{
		"# Title\n\n[a](https://example.org/) https://example.net/",
		"<script>alert(1)</script>",
		"[x](javascript:alert(1)) [y](JaVaScRiPt:alert(1)) [z](data:text/html,<b>)",
		"<img src=x onerror=alert(1)>\n\n![i](https://e.example/i.png)",
		"| a | b |\n|---|---|\n| <iframe> | [c](vbscript:x) |",
		"<a href=\"https://x.example/\" onclick=\"alert(1)\">x</a>",
		"[l]: java\tscript:alert(1)\n\n[l]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		if len(md) > 1<<16 {
			return
		}
		frag, links := RenderMarkdown(md)
		for _, l := range links {
			if low := strings.ToLower(l); !strings.HasPrefix(low, "http:") && !strings.HasPrefix(low, "https:") {
				t.Fatalf("%q lists the link %q", md, l)
			}
		}
		nodes, err := html.ParseFragment(strings.NewReader(frag), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
		if err != nil {
			t.Fatalf("the rendering does not parse: %v", err)
		}
		var walk func(n *html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.ElementNode {
				switch n.Data {
				case "script", "iframe", "object", "embed", "frame", "frameset", "form", "base", "meta", "link", "style", "svg", "math":
					t.Fatalf("%q renders a <%s>:\n%s", md, n.Data, frag)
				}
				for _, a := range n.Attr {
					k := strings.ToLower(a.Key)
					if strings.HasPrefix(k, "on") || k == "style" || k == "srcdoc" || k == "formaction" {
						t.Fatalf("%q renders the attribute %s:\n%s", md, a.Key, frag)
					}
					if k == "href" || k == "src" || k == "action" || k == "xlink:href" {
						v := strings.ToLower(strings.Map(func(r rune) rune {
							if r <= ' ' {
								return -1
							}
							return r
						}, a.Val))
						if i := strings.IndexAny(v, ":/?#"); i >= 0 && v[i] == ':' &&
							!strings.HasPrefix(v, "http:") && !strings.HasPrefix(v, "https:") && !strings.HasPrefix(v, "mailto:") {
							t.Fatalf("%q renders %s=%q:\n%s", md, a.Key, a.Val, frag)
						}
					}
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		for _, n := range nodes {
			walk(n)
		}
	})
}

// FuzzMarkdownText: whatever a report holds, its text (a search hit's snippet) comes back
// without a panic, as valid UTF-8 when the input is, and no longer than the Markdown plus
// the line breaks put between blocks.
func FuzzMarkdownText(f *testing.F) {
	for _, s := range []string{"One **fact** per _card_.", "<script>x</script>\n\n| a |\n|---|\n| b |", "```\ncode\n```\n- [ ] task", "<https://a.example/> [l]: x\n\n[l]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		if len(md) > 1<<16 {
			return
		}
		s := MarkdownText(md)
		if utf8.ValidString(md) && !utf8.ValidString(s) {
			t.Fatalf("%q gives invalid UTF-8 %q", md, s)
		}
		if len(s) > 2*len(md)+16 {
			t.Fatalf("%q grows to %d bytes", md, len(s))
		}
	})
}
