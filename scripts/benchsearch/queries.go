package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
)

// query is one benchmark query and the class it is reported under.
type query struct {
	class, text string
}

// Frequency bands, by the share of indexed pages whose body has the word.
const (
	rareMax   = 0.001 // rare: at most 0.1% of pages
	commonMin = 0.05  // common: more than 5%
	topWords  = 20    // "top": the words in (nearly) every page
)

// mix holds what the query classes draw from.
type mixer struct {
	m                 *model
	v                 *vocab
	r                 *rand.Rand
	rare, mid, common []string
	top               []string
	byCol             [5][]string // terms of each column seen in at least 2 pages
	docs              int
}

func isWord(t string) bool {
	return len(t) >= 3 && strings.IndexFunc(t, func(r rune) bool { return r < 'a' || r > 'z' }) < 0
}

func newMixer(m *model, v *vocab, docs int, seed uint64) *mixer {
	x := &mixer{m: m, v: v, r: rand.New(rand.NewPCG(seed, 77)), docs: docs}
	type tf struct {
		t  string
		df int
	}
	var body []tf
	for _, t := range v.terms {
		d := v.df[t]
		if !isWord(t) {
			continue
		}
		for c := range ftsCols {
			if d[c] >= 2 {
				x.byCol[c] = append(x.byCol[c], t)
			}
		}
		if d[2] == 0 {
			continue
		}
		body = append(body, tf{t, d[2]})
		switch f := float64(d[2]) / float64(docs); {
		case f <= rareMax || d[2] <= 3:
			x.rare = append(x.rare, t)
		case f > commonMin:
			x.common = append(x.common, t)
		default:
			x.mid = append(x.mid, t)
		}
	}
	sort.Slice(body, func(i, j int) bool {
		return body[i].df > body[j].df || body[i].df == body[j].df && body[i].t < body[j].t
	})
	for _, b := range body[:min(topWords, len(body))] {
		x.top = append(x.top, b.t)
	}
	return x
}

func (x *mixer) pick(list []string) string {
	if len(list) == 0 {
		return "nothing"
	}
	return list[x.r.IntN(len(list))]
}

// word draws a word the way users type them: mostly mid-frequency, some common, some rare.
func (x *mixer) word() string {
	switch u := x.r.IntN(100); {
	case u < 25:
		return x.pick(x.common)
	case u < 80:
		return x.pick(x.mid)
	}
	return x.pick(x.rare)
}

// pageWords draws n distinct words of one random indexed page, as someone looking for that
// page would type them (words of one page co-occur; words drawn independently mostly don't):
// by the same band preferences as word, from the bands the page has.
func (x *mixer) pageWords(n int) string {
	id := 1 + x.r.IntN(x.m.n)
	c := x.m.content(id)
	text := x.m.title(c) + " " + x.m.headings(c) + " " + x.m.body(c)
	var bands [3][]string // rare, mid, common
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r < 'a' || r > 'z' }) {
		if seen[w] || !isWord(w) {
			continue
		}
		seen[w] = true
		switch f := float64(x.v.df[w][2]) / float64(x.docs); {
		case f <= rareMax || x.v.df[w][2] <= 3:
			bands[0] = append(bands[0], w)
		case f > commonMin:
			bands[2] = append(bands[2], w)
		default:
			bands[1] = append(bands[1], w)
		}
	}
	var ws []string
	for len(ws) < n && len(bands[0])+len(bands[1])+len(bands[2]) > 0 {
		b := 1
		switch u := x.r.IntN(100); {
		case u < 25:
			b = 2
		case u >= 80:
			b = 0
		}
		for len(bands[b]) == 0 {
			b = (b + 1) % 3
		}
		i := x.r.IntN(len(bands[b]))
		ws = append(ws, bands[b][i])
		bands[b] = slices.Delete(bands[b], i, i+1)
	}
	return strings.Join(ws, " ")
}

// phrase takes n consecutive words from a random indexed page's title or body.
func (x *mixer) phrase(n int, title bool) string {
	for {
		id := 1 + x.r.IntN(x.m.n)
		if x.m.isDup(id) {
			continue
		}
		text := x.m.body(id)
		if title {
			text = x.m.title(id)
		}
		ws := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r < 'a' || r > 'z' })
		if len(ws) < n {
			continue
		}
		i := x.r.IntN(len(ws) - n + 1)
		return `"` + strings.Join(ws[i:i+n], " ") + `"`
	}
}

func (x *mixer) host() string {
	h := x.m.hosts[x.r.IntN(len(x.m.hosts))]
	switch x.r.IntN(3) {
	case 0: // a top-level domain, as in site:fi
		return h.name[strings.LastIndexByte(h.name, '.')+1:]
	case 1: // the registered name without subdomain
		if i := strings.IndexByte(h.name, '.'); i >= 0 && strings.Count(h.name, ".") > 1 && !strings.HasSuffix(h.name, ".co.uk") {
			return h.name[i+1:]
		}
	}
	return h.name
}

func (x *mixer) ext() string { return exts[x.r.IntN(len(exts))].ext }

// typo misspells a mid-frequency word by one edit, into a word that is not in the index.
func (x *mixer) typo() string {
	for {
		w := []byte(x.pick(x.mid))
		if len(w) < 5 {
			continue
		}
		i := x.r.IntN(len(w) - 1)
		switch x.r.IntN(4) {
		case 0:
			w = append(w[:i], w[i+1:]...)
		case 1:
			w[i], w[i+1] = w[i+1], w[i]
		case 2:
			w[i] = byte('a' + x.r.IntN(26))
		default:
			w = slices.Insert(w, i, byte('a'+x.r.IntN(26)))
		}
		if _, ok := x.v.df[string(w)]; !ok {
			return string(w)
		}
	}
}

// classes are the query classes, in report order.
var classes = []struct {
	name string
	gen  func(x *mixer) string
}{
	{"1w-rare", func(x *mixer) string { return x.pick(x.rare) }},
	{"1w-mid", func(x *mixer) string { return x.pick(x.mid) }},
	{"1w-common", func(x *mixer) string { return x.pick(x.common) }},
	{"1w-top", func(x *mixer) string { return x.pick(x.top) }},
	{"2w", func(x *mixer) string { return x.pageWords(2) }},
	{"3w", func(x *mixer) string { return x.pageWords(3) }},
	{"4w", func(x *mixer) string { return x.pageWords(4) }},
	{"phrase2", func(x *mixer) string { return x.phrase(2, false) }},
	{"phrase3", func(x *mixer) string { return x.phrase(3, x.r.IntN(3) == 0) }},
	{"title:", func(x *mixer) string {
		q := "title:" + x.pick(x.byCol[0])
		if x.r.IntN(3) == 0 {
			q += " " + x.word()
		}
		return q
	}},
	{"anchor:", func(x *mixer) string { return "anchor:" + x.pick(x.byCol[3]) }},
	{"url:", func(x *mixer) string { return "url:" + x.pick(x.byCol[4]) }},
	{"site:", func(x *mixer) string {
		if x.r.IntN(4) == 0 {
			return "site:" + x.host()
		}
		return "site:" + x.host() + " " + x.word()
	}},
	{"ext:/type:", func(x *mixer) string {
		switch x.r.IntN(4) {
		case 0:
			return "ext:" + x.ext()
		case 1:
			return "site:" + x.host() + " ext:" + x.ext()
		case 2:
			return "type:" + x.ext() + " " + x.pick(x.byCol[3])
		}
		return x.pick(x.byCol[3]) + " ext:" + x.ext()
	}},
	{"prefix2", func(x *mixer) string { return x.pick(x.mid)[:2] + "*" }},
	{"prefix3-5", func(x *mixer) string {
		w := x.pick(x.mid)
		return w[:min(len(w), 3+x.r.IntN(3))] + "*"
	}},
	{"OR", func(x *mixer) string { return x.word() + " OR " + x.word() }},
	{"NOT", func(x *mixer) string { return x.word() + " -" + x.pick(x.common) }},
	{"typo", func(x *mixer) string {
		if x.r.IntN(3) == 0 {
			return x.word() + " " + x.typo()
		}
		return x.typo()
	}},
	// word~N (issue 14): a typo within one edit, alone or beside a word; a word within two.
	{"approx~1", func(x *mixer) string {
		if x.r.IntN(3) == 0 {
			return x.word() + " " + x.typo() + "~1"
		}
		return x.typo() + "~1"
	}},
	{"approx~2", func(x *mixer) string {
		if x.r.IntN(2) == 0 {
			return x.pick(x.mid) + "~2"
		}
		return x.typo() + "~2"
	}},
	{"mixed", func(x *mixer) string {
		switch x.r.IntN(4) {
		case 0:
			return "title:" + x.pick(x.byCol[0]) + " " + x.word()
		case 1:
			return x.phrase(2, false) + " site:" + x.host()
		case 2:
			return "(" + x.word() + " OR " + x.word() + ") " + x.word()
		}
		return x.word() + " " + x.pick(x.byCol[0]) + "* -" + x.pick(x.common)
	}},
}

// queryMix draws perClass queries of every class (or of the named ones).
func (x *mixer) queryMix(perClass int, only map[string]bool) []query {
	var qs []query
	for _, c := range classes {
		if len(only) > 0 && !only[c.name] {
			continue
		}
		for range perClass {
			qs = append(qs, query{c.name, c.gen(x)})
		}
	}
	return qs
}

func (x *mixer) describe() string {
	return fmt.Sprintf("vocabulary: %d rare (<=%.1f%% of pages), %d mid, %d common (>%.0f%%) body words",
		len(x.rare), rareMax*100, len(x.mid), len(x.common), commonMin*100)
}
