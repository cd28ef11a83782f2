// Package plantedweb serves a synthetic web with a planted topic, for measuring a
// query-directed crawl against breadth-first: Pages pages of filler text with filler
// anchors, among which Planted pages on one topic that only descriptive links reach. A few
// entry pages, anywhere in the web, link to the topic (one with a descriptive anchor, one
// with a vague anchor in descriptive text); the planted pages link to each other with
// descriptive anchors, in a ring, so that breadth-first finds the farthest ones only once
// it has gone as deep as the ring is long. The web is the same for the same seed.
package plantedweb

import (
	"fmt"
	"html"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Topic is the planted query: its words are in the planted pages and the links to them,
// and nowhere else.
const Topic = "otlet card index"

// Config shapes the web.
type Config struct {
	Pages   int    // pages in all (the seed is /p/0)
	Planted int    // pages on the topic
	Entries int    // pages outside the topic that link into it
	OutMin  int    // fewest links a page has
	OutMax  int    // most links a page has
	Seed    uint64 // of the random web
}

// Defaults is the web the benchmark crawls.
var Defaults = Config{Pages: 3000, Planted: 30, Entries: 3, OutMin: 4, OutMax: 10, Seed: 1}

// Web is the synthetic web; it is an http.Handler and records the order of requests.
type Web struct {
	cfg     Config
	links   [][]link // outlinks per page
	planted map[int]bool
	entry   map[int]bool

	mu     sync.Mutex
	served []int // pages in the order first requested
	seen   map[int]bool
}

type link struct {
	to      int
	anchor  string
	context string // text around the link
}

var filler = strings.Fields(`the of and a to in is was for on that with as by at from his
	it an were are which this be or has had not but have they their one all its been
	river garden music railway county harbour theatre station village meadow mountain
	painting bridge castle season market festival chapel mill valley forest engine
	cathedral orchard lighthouse quarry vineyard canal tramway pottery brewery`)

var topicAnchors = []string{"Otlet's card index", "the card index of Paul Otlet", "index cards Otlet filed",
	"Otlet and his universal card index", "more on the card index", "Otlet card index, continued"}

// New builds the web of cfg.
func New(cfg Config) *Web {
	r := rand.New(rand.NewPCG(cfg.Seed, 14))
	w := &Web{cfg: cfg, links: make([][]link, cfg.Pages), planted: map[int]bool{}, entry: map[int]bool{},
		seen: map[int]bool{}}
	// The planted pages and the entries are drawn among the pages past the seed's links.
	perm := r.Perm(cfg.Pages - 1 - cfg.OutMax)
	for i := 0; i < cfg.Planted; i++ {
		w.planted[1+cfg.OutMax+perm[i]] = true
	}
	var plantedList []int
	for p := range cfg.Pages {
		if w.planted[p] {
			plantedList = append(plantedList, p)
		}
	}
	for i := 0; i < cfg.Entries; i++ {
		w.entry[1+cfg.OutMax+perm[cfg.Planted+i]] = true
	}
	ordinary := func() int {
		for {
			if p := r.IntN(cfg.Pages); !w.planted[p] {
				return p
			}
		}
	}
	words := func(n int) string {
		ws := make([]string, n)
		for i := range ws {
			ws[i] = filler[r.IntN(len(filler))]
		}
		return strings.Join(ws, " ")
	}
	for p := range cfg.Pages {
		n := cfg.OutMin + r.IntN(cfg.OutMax-cfg.OutMin+1)
		for range n {
			w.links[p] = append(w.links[p], link{to: ordinary(), anchor: words(2 + r.IntN(3))})
		}
		if p == 0 { // the seed reaches the first pages, so that the web is connected
			for i := 1; i <= cfg.OutMax; i++ {
				w.links[p] = append(w.links[p], link{to: i, anchor: words(2)})
			}
		}
		if p+1 < cfg.Pages && r.IntN(2) == 0 && !w.planted[p+1] {
			w.links[p] = append(w.links[p], link{to: p + 1, anchor: "next " + words(1)})
		}
	}
	// A ring through the planted pages, each also linking three further along: the topic
	// is one cluster, whichever entry leads into it.
	for i, p := range plantedList {
		for _, j := range []int{i + 1, i + 3} {
			if j%len(plantedList) != i {
				w.links[p] = append(w.links[p], link{to: plantedList[j%len(plantedList)], anchor: topicAnchors[r.IntN(len(topicAnchors))]})
			}
		}
	}
	// Entries: the first with a descriptive anchor, the others with a vague anchor in
	// descriptive text, each to one of the first planted pages.
	k := 0
	for p := range cfg.Pages {
		if !w.entry[p] {
			continue
		}
		l := link{to: plantedList[min(k, len(plantedList)-1)], anchor: topicAnchors[0]}
		if k > 0 {
			l.anchor, l.context = "see here", "Paul Otlet filed the world on index cards:"
		}
		w.links[p] = append(w.links[p], l)
		k++
	}
	return w
}

// Planted is how many planted pages the web has.
func (w *Web) Planted() int { return len(w.planted) }

// IsPlanted reports whether path is a planted page.
func (w *Web) IsPlanted(path string) bool {
	p, ok := pageOf(path)
	return ok && w.planted[p]
}

func pageOf(path string) (int, bool) {
	s, ok := strings.CutPrefix(path, "/p/")
	if !ok {
		return 0, false
	}
	p, err := strconv.Atoi(s)
	return p, err == nil
}

// ServeHTTP serves /p/N and an empty robots.txt.
func (w *Web) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/robots.txt" {
		rw.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(rw, "User-agent: *\nAllow: /\n")
		return
	}
	p, ok := pageOf(r.URL.Path)
	if !ok || p < 0 || p >= w.cfg.Pages {
		http.NotFound(rw, r)
		return
	}
	w.mu.Lock()
	if !w.seen[p] {
		w.seen[p] = true
		w.served = append(w.served, p)
	}
	w.mu.Unlock()
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(rw, w.page(p))
}

// page writes page p: its title and text (on the topic for a planted page) and its links.
func (w *Web) page(p int) string {
	r := rand.New(rand.NewPCG(w.cfg.Seed, uint64(p)+1000))
	words := func(n int) string {
		ws := make([]string, n)
		for i := range ws {
			ws[i] = filler[r.IntN(len(filler))]
		}
		return strings.Join(ws, " ")
	}
	var b strings.Builder
	title := strings.ToUpper(words(1)[:1]) + words(3)[1:]
	body := words(80)
	if w.planted[p] {
		title = "Otlet's card index, part " + strconv.Itoa(p)
		body = words(30) + " Paul Otlet kept a universal card index of all knowledge. " + words(30)
	}
	fmt.Fprintf(&b, "<!doctype html><html><head><title>%s</title></head><body><h1>%s</h1><p>%s</p><ul>",
		html.EscapeString(title), html.EscapeString(title), html.EscapeString(body))
	for _, l := range w.links[p] {
		fmt.Fprintf(&b, "<li>%s <a href=\"/p/%d\">%s</a> %s</li>", html.EscapeString(l.context), l.to,
			html.EscapeString(l.anchor), html.EscapeString(words(4)))
	}
	b.WriteString("</ul></body></html>")
	return b.String()
}

// Found is what a crawl of the web found, in the order it asked for pages.
type Found struct {
	Visited int // pages requested
	All     int // pages requested until every planted page was (0: not all were)
	Half    int // pages requested until half of them were
	Planted int // planted pages requested
}

// Found counts the pages requested so far.
func (w *Web) Found() Found {
	w.mu.Lock()
	defer w.mu.Unlock()
	f := Found{Visited: len(w.served)}
	half := (len(w.planted) + 1) / 2
	for i, p := range w.served {
		if !w.planted[p] {
			continue
		}
		f.Planted++
		if f.Planted == half {
			f.Half = i + 1
		}
		if f.Planted == len(w.planted) {
			f.All = i + 1
		}
	}
	return f
}
