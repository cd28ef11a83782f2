package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
)

// The synthetic web is a pure function of (seed, pages, body length): every page's text,
// URL and links are derived from its id, so the generator and the query mix agree without
// sharing state, and a cached workspace can be checked against its parameters.
//
// Page ids: 1..n are HTML pages (some of them duplicates of an earlier page), n+1..n+nres
// non-HTML resources known only from links, the rest link targets that answered 404.

// Stream numbers keep the random draws of one page independent of each other.
const (
	streamDup = iota + 1
	streamOrig
	streamHost
	streamTitle
	streamHeadings
	streamBody
	streamLinks
	streamMeta
	streamAnchor
	streamRes
	streamDead
)

// Word ranks: titles, headings and anchors draw content words (past the most common ranks),
// bodies draw from the whole Zipf curve.
const (
	zipfS          = 1.07 // exponent of the word-frequency curve (natural text: about 1)
	contentSkip    = 60   // titles and headings skip this many of the most common words
	dupPerMille    = 20   // pages that duplicate an earlier page's content
	resPerHundred  = 3    // non-HTML resources per 100 pages
	deadPerHundred = 1    // 404 link targets per 100 pages
	numHosts       = 200
)

var tlds = []struct {
	tld    string
	weight int
	lang   string
}{{"com", 40, "en"}, {"org", 14, "en"}, {"net", 9, "en"}, {"edu", 7, "en"}, {"de", 8, "de"},
	{"fi", 6, "fi"}, {"fr", 5, "fr"}, {"co.uk", 6, "en"}, {"io", 5, "en"}}

var subdomains = []string{"", "", "", "www.", "www.", "docs.", "blog.", "wiki.", "archive."}

// exts are the non-HTML resource types, weighted, with the link kind that cites them.
var exts = []struct {
	ext, mime, kind, dir string
	weight               int
}{
	{"pdf", "application/pdf", "a", "papers", 30}, {"jpg", "image/jpeg", "img", "images", 20},
	{"png", "image/png", "img", "images", 10}, {"gif", "image/gif", "img", "images", 5},
	{"mpg", "video/mpeg", "a", "movies", 5}, {"mp4", "video/mp4", "a", "movies", 5},
	{"avi", "video/x-msvideo", "a", "movies", 2}, {"zip", "application/zip", "a", "downloads", 8},
	{"tar.gz", "application/gzip", "a", "downloads", 5}, {"mp3", "audio/mpeg", "a", "audio", 5},
	{"ps", "application/postscript", "a", "papers", 2}, {"doc", "application/msword", "a", "papers", 3},
}

var genericAnchors = []string{"home", "read more", "click here", "next"}

type host struct {
	origin   string
	name     string // host name without scheme
	lang     string
	crawl    int // 1-based crawl id
	sections []string
}

// model is the synthetic web of one parameter set.
type model struct {
	seed             uint64
	n, nres, ndead   int
	bodyMin, bodyMax int
	words            []string // by frequency rank, most common first
	hosts            []host
	hostCum          []uint64 // cumulative host weights
	byHost           [][]int32
	hostOf           []uint8 // by id-1, HTML pages only
}

func loadWords(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("word list: %w (install Debian's wamerican)", err)
	}
	defer f.Close()
	seen := map[string]bool{}
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.TrimSpace(sc.Text())
		if len(w) < 2 || len(w) > 15 || seen[w] || strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("word list: %w", err)
	}
	if len(out) < 1000 {
		return nil, fmt.Errorf("word list %s: only %d usable words", path, len(out))
	}
	sort.Strings(out)
	return out, nil
}

// newModel lays out the synthetic web: word ranks, hosts, and which host each page is on.
func newModel(seed uint64, pages, bodyMin, bodyMax int, words []string) *model {
	m := &model{seed: seed, n: pages, bodyMin: bodyMin, bodyMax: bodyMax}
	m.nres = max(1, pages*resPerHundred/100)
	m.ndead = max(1, pages*deadPerHundred/100)
	r := rand.New(rand.NewPCG(seed, 0))
	m.words = append([]string(nil), words...)
	r.Shuffle(len(m.words), func(i, j int) { m.words[i], m.words[j] = m.words[j], m.words[i] })

	tldTotal := 0
	for _, t := range tlds {
		tldTotal += t.weight
	}
	names := map[string]bool{}
	var cum uint64
	for h := 0; len(m.hosts) < numHosts; h++ {
		k := r.IntN(tldTotal)
		t := tlds[0]
		for _, c := range tlds {
			if k < c.weight {
				t = c
				break
			}
			k -= c.weight
		}
		name := subdomains[r.IntN(len(subdomains))] + m.words[200+r.IntN(3000)]
		if r.IntN(3) == 0 {
			name += "-" + m.words[200+r.IntN(3000)]
		}
		name += "." + t.tld
		if names[name] {
			continue
		}
		names[name] = true
		scheme := "https://"
		if r.IntN(5) == 0 {
			scheme = "http://"
		}
		hs := host{origin: scheme + name, name: name, lang: t.lang, crawl: 1 + len(m.hosts)%3}
		for range 3 + r.IntN(10) {
			hs.sections = append(hs.sections, m.words[100+r.IntN(5000)])
		}
		m.hosts = append(m.hosts, hs)
		cum += uint64(1 << 20 / (len(m.hosts) + 4)) // weight of host i ~ 1/(i+5)
		m.hostCum = append(m.hostCum, cum)
	}
	m.hostOf = make([]uint8, pages)
	m.byHost = make([][]int32, numHosts)
	for id := 1; id <= pages; id++ {
		var h int
		if m.isDup(id) {
			h = int(m.hostOf[m.content(id)-1])
		} else {
			x := mix(seed, id, streamHost) % cum
			h = sort.Search(len(m.hostCum), func(i int) bool { return m.hostCum[i] > x })
		}
		m.hostOf[id-1] = uint8(h)
		m.byHost[h] = append(m.byHost[h], int32(id))
	}
	return m
}

// mix is a splitmix64 hash of (seed, id, stream).
func mix(seed uint64, id, stream int) uint64 {
	z := seed ^ uint64(id)*0x9E3779B97F4A7C15 ^ uint64(stream)<<56
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

func (m *model) rng(id, stream int) *rand.Rand {
	return rand.New(rand.NewPCG(m.seed^uint64(stream)<<48, uint64(id)))
}

func (m *model) total() int { return m.n + m.nres + m.ndead }

// isDup reports whether HTML page id has the content of an earlier page.
func (m *model) isDup(id int) bool { return id > 1 && mix(m.seed, id, streamDup)%1000 < dupPerMille }

// content is the id of the page whose content page id has (itself unless a duplicate).
func (m *model) content(id int) int {
	if !m.isDup(id) {
		return id
	}
	o := id - 1 - int(mix(m.seed, id, streamOrig)%uint64(min(id-1, 500)))
	for m.isDup(o) {
		o--
	}
	return o
}

// zipf draws word ranks >= skip.
type zipf struct {
	z    *rand.Zipf
	skip int
}

func (m *model) zipf(r *rand.Rand, skip int) zipf {
	return zipf{rand.NewZipf(r, zipfS, 2, uint64(len(m.words)-1-skip)), skip}
}

func (m *model) word(z zipf) string { return m.words[z.skip+int(z.z.Uint64())] }

// title of content id c: 3-8 content words, capitalised.
func (m *model) title(c int) string {
	r := m.rng(c, streamTitle)
	z := m.zipf(r, contentSkip)
	var b strings.Builder
	for i := range 3 + r.IntN(6) {
		if i > 0 {
			b.WriteByte(' ')
		}
		w := m.word(z)
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// headings of content id c: 1-4 headings of 2-6 words, joined as the extractor joins them.
func (m *model) headings(c int) string {
	r := m.rng(c, streamHeadings)
	z := m.zipf(r, contentSkip)
	var hs []string
	for range 1 + r.IntN(4) {
		ws := make([]string, 2+r.IntN(5))
		for i := range ws {
			ws[i] = m.word(z)
		}
		hs = append(hs, strings.Join(ws, " "))
	}
	return strings.Join(hs, " \n")
}

// bodyLen is the number of words in the body of content id c.
func (m *model) bodyLen(c int) int {
	r := m.rng(c, streamBody)
	_ = m.zipf(r, 0)
	return m.bodyMin + r.IntN(m.bodyMax-m.bodyMin+1)
}

// body of content id c: sentences of 6-20 Zipf words, bodyMin..bodyMax words in all.
func (m *model) body(c int) string {
	r := m.rng(c, streamBody)
	z := m.zipf(r, 0)
	n := m.bodyMin + r.IntN(m.bodyMax-m.bodyMin+1)
	var b strings.Builder
	b.Grow(n * 9)
	sentence := 0
	for i := range n {
		w := m.word(z)
		if sentence == 0 {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strings.ToUpper(w[:1]))
			b.WriteString(w[1:])
			sentence = 6 + r.IntN(15)
		} else {
			b.WriteByte(' ')
			b.WriteString(w)
		}
		sentence--
		if sentence == 0 || i == n-1 {
			b.WriteByte('.')
		}
	}
	return b.String()
}

// url of HTML page id: the host's home page for its first page, else a slug under a section.
func (m *model) url(id int) string {
	h := int(m.hostOf[id-1])
	hs := &m.hosts[h]
	list := m.byHost[h]
	seq := sort.Search(len(list), func(i int) bool { return int(list[i]) >= id })
	if seq == 0 {
		return hs.origin + "/"
	}
	r := m.rng(id, streamMeta)
	sec := hs.sections[r.IntN(len(hs.sections))]
	t := strings.Fields(strings.ToLower(m.title(m.content(id))))
	slug := strings.Join(t[:min(len(t), 1+r.IntN(3))], "-")
	return hs.origin + "/" + sec + "/" + slug + "-" + strconv.Itoa(seq) + ".html"
}

func (m *model) hash(c int) string {
	s := sha256.Sum256([]byte(fmt.Sprintf("mundaneum-benchsearch %d %d", m.seed, c)))
	return hex.EncodeToString(s[:])
}

// resource r (0-based): a non-HTML file on the host of the page that cites it first.
func (m *model) resource(r int) (url, name string, ext int) {
	x := m.rng(r, streamRes)
	total := 0
	for _, e := range exts {
		total += e.weight
	}
	k := x.IntN(total)
	for i, e := range exts {
		if k < e.weight {
			ext = i
			break
		}
		k -= e.weight
	}
	z := m.zipf(x, contentSkip)
	name = m.word(z) + " " + m.word(z)
	url = m.hosts[m.hostOf[m.resOwner(r)-1]].origin + "/" + exts[ext].dir + "/" + strings.ReplaceAll(name, " ", "-") + "-" + strconv.Itoa(r) + "." + exts[ext].ext
	return url, name, ext
}

// dead target d (0-based): a page that answers 404.
func (m *model) dead(d int) (url, name string, h int) {
	x := m.rng(d, streamDead)
	z := m.zipf(x, contentSkip)
	name = m.word(z) + " " + m.word(z)
	h = int(mix(m.seed, d, streamDead) % numHosts)
	hs := &m.hosts[h]
	url = hs.origin + "/" + hs.sections[x.IntN(len(hs.sections))] + "/" + strings.ReplaceAll(name, " ", "-") + "-old-" + strconv.Itoa(d) + ".html"
	return url, name, h
}

// link is one outgoing link: target id and the anchor variant chosen for it.
type link struct {
	to   int
	code uint8
}

// Anchor variants (bit positions in a target's anchor set).
const (
	anchorFull   = iota // the target's title (resources: their name)
	anchorFirst2        // first two title words (resources: "download NAME")
	anchorLast2         // last two title words (resources: "NAME EXT")
	anchorHome          // genericAnchors[0..3]
	anchorMore
	anchorClick
	anchorNext
	anchorWords3 // three words about the target
	anchorWords2 // two other words about the target
	anchorEmpty  // an image link without alt text, a bare link
	numAnchorCodes
)

// outlinks of HTML page id: links to pages on the same host, to popular pages, anywhere,
// to 404s, and to the resources the page cites (each resource is cited by 1-2 pages).
func (m *model) outlinks(id int, buf []link) []link {
	c := m.content(id)
	r := m.rng(c, streamLinks)
	popular := rand.NewZipf(r, 1.2, 1, uint64(max(1, m.n-1)))
	out := buf[:0]
	add := func(to int) {
		if to == id || to < 1 {
			return
		}
		for _, l := range out {
			if l.to == to {
				return
			}
		}
		out = append(out, link{to: to, code: m.anchorCode(id, to)})
	}
	same := m.byHost[m.hostOf[id-1]]
	for range 4 + r.IntN(12) {
		switch u := r.IntN(100); {
		case u < 45:
			add(int(same[r.IntN(len(same))]))
		case u < 80:
			add(1 + int(popular.Uint64()))
		case u < 97:
			add(1 + r.IntN(m.n))
		default:
			add(m.n + m.nres + 1 + r.IntN(m.ndead))
		}
	}
	for _, p := range []int{id, id - 7} {
		if p < 1 {
			continue
		}
		lo, hi := m.resOf(p)
		for res := lo; res < hi; res++ {
			add(m.n + 1 + res)
		}
	}
	return out
}

// resOf is the range of resources cited first by page p (and again by p+7).
func (m *model) resOf(p int) (lo, hi int) {
	return (p - 1) * m.nres / m.n, p * m.nres / m.n
}

// resOwner is the page that cites resource r first.
func (m *model) resOwner(r int) int {
	return 1 + sort.Search(m.n, func(i int) bool { return (i+1)*m.nres/m.n > r })
}

func (m *model) anchorCode(from, to int) uint8 {
	u := mix(m.seed, from*131+to, streamAnchor) % 100
	if to > m.n && to <= m.n+m.nres { // resources: name, "download name", "name ext", bare
		switch {
		case u < 35:
			return anchorFull
		case u < 60:
			return anchorFirst2
		case u < 80:
			return anchorLast2
		}
		return anchorEmpty
	}
	for i, cut := range []uint64{30, 45, 55, 60, 64, 68, 71, 81, 90} {
		if u < cut {
			return uint8(i)
		}
	}
	return anchorEmpty
}

// anchorText of a link to page to with variant code.
func (m *model) anchorText(to int, code uint8) string {
	if code == anchorEmpty {
		return ""
	}
	if code >= anchorHome && code <= anchorNext {
		return genericAnchors[code-anchorHome]
	}
	switch {
	case to > m.n+m.nres: // 404 targets
		_, name, _ := m.dead(to - m.n - m.nres - 1)
		return name
	case to > m.n:
		_, name, ext := m.resource(to - m.n - 1)
		switch code {
		case anchorFirst2:
			return "download " + name
		case anchorLast2:
			return name + " " + strings.ToUpper(exts[ext].ext)
		}
		return name
	}
	t := strings.Fields(m.title(m.content(to)))
	switch code {
	case anchorFull:
		return strings.Join(t, " ")
	case anchorFirst2:
		return strings.Join(t[:2], " ")
	case anchorLast2:
		return strings.Join(t[len(t)-2:], " ")
	}
	r := m.rng(to*16+int(code), streamAnchor)
	z := m.zipf(r, contentSkip)
	ws := []string{m.word(z), m.word(z)}
	if code == anchorWords3 {
		ws = append(ws, t[0])
	}
	return strings.Join(ws, " ")
}

// anchors is the indexed incoming anchor text of a page whose links use the codes in bits:
// the distinct non-empty anchors joined by " | ", as the store indexes them.
func (m *model) anchors(to int, bits uint16) string {
	var as []string
	seen := map[string]bool{}
	for code := range uint8(numAnchorCodes) {
		if bits&(1<<code) == 0 {
			continue
		}
		if a := m.anchorText(to, code); a != "" && !seen[a] {
			seen[a] = true
			as = append(as, a)
		}
	}
	return strings.Join(as, " | ")
}
