package extract

import (
	"bytes"

	"golang.org/x/net/html/atom"
)

// onStart handles a start (or self-closing) tag.
func (p *parser) onStart(selfClosing bool) {
	z := p.z // nil when scan feeds the tags: it decides raw text from p.raw
	raw := p.cur
	if pr := tagProblem(raw, false); pr != 0 {
		p.problem(pr)
	}
	a := tagAtom(raw)
	if isBlock(a) {
		p.brk()
	}
	if a != atom.A {
		p.onAnchor()
	}
	p.chromeStart(a, selfClosing)
	if p.blk != nil {
		p.blk.start(p, a, selfClosing)
	}
	switch a {
	case atom.A:
		p.startA(selfClosing)
	case atom.Img:
		p.onImg()
	case atom.Area:
		href, alt, rel := p.attr3("href", "alt", "rel")
		if href != nil {
			p.addLink(href, KindArea, p.collapse(alt, MaxAnchor), rel)
		}
	case atom.Frame, atom.Iframe:
		src, title, _ := p.attr3("src", "title", "")
		if src != nil {
			kind := KindFrame
			if a == atom.Iframe {
				kind = KindIFrame
			}
			p.addLink(src, kind, p.collapse(title, MaxAnchor), nil)
		}
	case atom.Link:
		p.onLinkTag()
	case atom.Meta:
		p.onMeta()
	case atom.Script:
		if src, _, _ := p.attr3("src", "", ""); src != nil {
			p.addLink(src, KindScript, "", nil)
		}
	case atom.Embed:
		if src, _, _ := p.attr3("src", "", ""); src != nil {
			p.addLink(src, KindEmbed, "", nil)
		}
	case atom.Object:
		if data, _, _ := p.attr3("data", "", ""); data != nil {
			p.addLink(data, KindObject, "", nil)
		}
	case atom.Video, atom.Audio, atom.Source, atom.Track:
		src, poster, srcset := p.attr3("src", "poster", "srcset")
		if src != nil {
			p.addLink(src, KindMedia, "", nil)
		}
		if poster != nil {
			p.imgLink(poster, "")
		}
		p.srcset(srcset, "") // <picture><source srcset>
	case atom.Form:
		if action, _, _ := p.attr3("action", "", ""); len(bytes.TrimSpace(action)) > 0 {
			p.addLink(action, KindForm, "", nil)
		}
	case atom.Input:
		typ, src, alt := p.attr3("type", "src", "alt")
		if src != nil && bytes.EqualFold(bytes.TrimSpace(typ), []byte("image")) {
			p.imgLink(src, p.collapse(alt, MaxAnchor))
		}
	case atom.Body, atom.Table, atom.Td, atom.Th, atom.Tr:
		if bg, _, _ := p.attr3("background", "", ""); bg != nil {
			p.imgLink(bg, "")
		}
	case atom.Html:
		lang, xmlLang, _ := p.attr3("lang", "xml:lang", "")
		if lang == nil {
			lang = xmlLang
		}
		if p.lang == "" && lang != nil {
			p.lang = langTag(p.collapse(lang, 64))
		}
	case atom.Title:
		if p.foreign > 0 {
			if z != nil {
				z.NextIsNotRawText() // an SVG <title> is a tooltip, not the page title
			}
			return
		}
		p.titles++
		p.raw = a
	case atom.Noscript:
		if z != nil {
			z.NextIsNotRawText() // parse its markup: links inside count, its text does not
		}
		if !selfClosing {
			p.skip++
		}
	case atom.Noframes:
		if z != nil {
			z.NextIsNotRawText() // the frameless version of the page: text and links count
		}
	case atom.Template:
		if !selfClosing {
			p.skip++
			p.inert++
		}
	case atom.Svg, atom.Math:
		if !selfClosing {
			p.foreign++
		}
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		if a == atom.H1 {
			p.chromeHeading()
		}
		p.brk()
		if p.hDepth == 0 {
			p.heading.reset(MaxHeadings)
		}
		p.hDepth++
	}
	// Elements whose content the tokenizer returns as one raw text token.
	switch a {
	case atom.Script, atom.Style, atom.Textarea, atom.Xmp, atom.Iframe, atom.Noembed, atom.Plaintext:
		p.raw = a
	}
}

// onEnd handles an end tag.
func (p *parser) onEnd() {
	a := tagAtom(p.cur)
	if p.raw != 0 {
		// The tokenizer ends raw text only at the matching end tag.
		if a == p.raw {
			p.raw = 0
		}
		return
	}
	if isBlock(a) {
		p.brk()
	}
	p.chromeEnd(a)
	if p.blk != nil {
		p.blk.end(a)
	}
	switch a {
	case atom.A:
		if p.inA {
			p.endA()
		}
	case atom.Noscript:
		if p.skip > 0 {
			p.skip--
		}
	case atom.Template:
		if p.skip > 0 {
			p.skip--
		}
		if p.inert > 0 {
			p.inert--
		}
	case atom.Svg, atom.Math:
		if p.foreign > 0 {
			p.foreign--
		}
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		p.brk()
		if p.hDepth > 0 {
			p.hDepth--
			if p.hDepth == 0 {
				p.endHeading()
			}
		}
	}
}

// attr3 returns the values of up to three attributes of the current tag (nil when
// absent); an empty name matches nothing. The slices stay valid until Next.
func (p *parser) attr3(n1, n2, n3 string) (v1, v2, v3 []byte) {
	it := p.attrs()
	for k, v, ok := it.next(); ok; k, v, ok = it.next() {
		switch string(k) {
		case "":
		case n1:
			first(&v1, v)
		case n2:
			first(&v2, v)
		case n3:
			first(&v3, v)
		}
	}
	return v1, v2, v3
}

// first stores v in *dst unless an earlier attribute of that name was stored;
// a present but empty value is stored as non-nil, apart from "absent".
func first(dst *[]byte, v []byte) {
	if *dst == nil {
		if v == nil {
			v = []byte{}
		}
		*dst = v
	}
}

// nonNil keeps "present but empty" apart from "absent".
func nonNil(v []byte) []byte {
	if v == nil {
		return []byte{}
	}
	return v
}

// startA opens an anchor; a nested <a> first closes the open one, as browsers do.
func (p *parser) startA(selfClosing bool) {
	if p.inA {
		p.problem(probUnclosedElement)
		p.endA()
	}
	var href, rel, title, label []byte
	var idSeen, nameSeen bool
	it := p.attrs()
	for k, v, ok := it.next(); ok; k, v, ok = it.next() {
		switch string(k) {
		case "href", "xlink:href":
			first(&href, v)
		case "rel":
			first(&rel, v)
		case "title":
			first(&title, v)
		case "aria-label":
			first(&label, v)
		case "id", "name":
			if p.anchor != nil && p.inert == 0 && !seenID(k, &idSeen, &nameSeen) && len(v) > 0 {
				p.anchor(v) // what a fragment may name: an <a>'s id, or its name (the old way)
			}
		}
	}
	p.inA = true
	p.aLink = -1
	p.aText.reset(MaxAnchor)
	p.aImgs = p.aImgs[:0]
	p.aAlt = ""
	if label == nil {
		label = title
	}
	p.aTitle = p.collapse(label, MaxAnchor)
	if href != nil {
		p.aLink, _ = p.addLink(href, KindA, "", rel)
	}
	if selfClosing && p.foreign > 0 {
		p.endA() // <a/> closes only in SVG; in HTML the slash is ignored
	}
}

// endA closes the open anchor and hands out its text: to the <a> link (falling
// back to an inner image's alt text, then its title) and, as WWWW did, to the
// images inside it.
func (p *parser) endA() {
	text := p.aText.String()
	if p.aLink >= 0 && p.links[p.aLink].Anchor == "" {
		anchor := text
		if anchor == "" {
			anchor = p.aAlt
		}
		if anchor == "" {
			anchor = p.aTitle
		}
		p.links[p.aLink].Anchor = anchor
	}
	if text != "" {
		for _, i := range p.aImgs {
			p.links[i].Anchor = text
		}
	}
	p.inA = false
	p.aLink = -1
}

// onImg records an image's src and srcset candidates with its alt text.
func (p *parser) onImg() {
	src, srcset, alt := p.attr3("src", "srcset", "alt")
	altText := p.collapse(alt, MaxAnchor)
	if src != nil {
		p.imgLink(src, altText)
	}
	p.srcset(srcset, altText)
	if p.inA && p.aAlt == "" {
		p.aAlt = altText
	}
}

func (p *parser) imgLink(src []byte, alt string) {
	i, created := p.addLink(src, KindImg, alt, nil)
	if created && p.inA {
		p.aImgs = append(p.aImgs, i)
	}
}

func (p *parser) srcset(v []byte, alt string) {
	if len(v) == 0 {
		return
	}
	p.cands = splitSrcset(v, p.cands[:0])
	for _, c := range p.cands {
		p.imgLink(c, alt)
	}
}

// onLinkTag handles <link>: a link of kind "link", the canonical URL, and the
// MOMspider owner from <link rev=made href="mailto:...">.
func (p *parser) onLinkTag() {
	var href, rel, rev, title []byte
	it := p.attrs()
	for k, v, ok := it.next(); ok; k, v, ok = it.next() {
		switch string(k) {
		case "href":
			first(&href, v)
		case "rel":
			first(&rel, v)
		case "rev":
			first(&rev, v)
		case "title":
			first(&title, v)
		}
	}
	if href == nil {
		return
	}
	rel, rev = p.lowered(rel), p.lowered(rev)
	if p.owner == "" && (hasToken(rev, "made") || hasToken(rel, "made")) {
		if addr, ok := mailtoAddress(href); ok {
			p.owner = p.collapse(addr, MaxMeta)
		}
	}
	i, _ := p.addLink(href, KindLink, p.collapse(title, MaxAnchor), rel)
	if i >= 0 && p.canonical == "" && hasToken(rel, "canonical") {
		p.canonical = p.links[i].URL
	}
}

// endHeading appends the finished heading to Headings.
func (p *parser) endHeading() {
	p.headings.join(" \n", p.heading.b)
	p.heading.reset(MaxHeadings)
}

// mailtoAddress returns the address of a mailto: URL without its query.
func mailtoAddress(href []byte) ([]byte, bool) {
	h := bytes.TrimSpace(href)
	if len(h) < 7 || !bytes.EqualFold(h[:7], []byte("mailto:")) {
		return nil, false
	}
	h = h[7:]
	if i := bytes.IndexByte(h, '?'); i >= 0 {
		h = h[:i]
	}
	return h, len(h) > 0
}
