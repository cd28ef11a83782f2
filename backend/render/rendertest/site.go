// Package rendertest serves a site of pages that scripts build, on loopback, for the
// tests and the benchmark of rendering: a client-side-routed application whose pages
// fetch their text as JSON, hash routes, content loaded on scroll, links that a script
// adds, text in shadow DOM, a static page that needs no browser, and hostile pages.
package rendertest

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
)

// Site is the test site and a second host (a tracker: out of any crawl's scope).
type Site struct {
	*httptest.Server
	Tracker *httptest.Server
	// Cards is the number of the application's card pages (/app/cards/1 ... /app/cards/N).
	Cards int

	mu   sync.Mutex
	hits map[string]int
	// Text is what each card says, by number (changed by SetCardText for recrawls).
	text map[int]string
}

// Word is a word each page type puts in its text only once rendered, to search for.
const (
	WordApp     = "bibliotheca"  // the application's home, in its JSON
	WordAbout   = "repertorium"  // /app/about, in its JSON
	WordHash    = "palimpsest"   // the hash route #!/otlet
	WordHash2   = "incunabulum"  // the hash route #/fontaine
	WordScroll  = "colophon"     // the last part of /scroll/, loaded on scroll
	WordLinks   = "marginalia"   // the target of a link that a script adds
	WordShadow  = "scriptorium"  // inside a shadow root
	WordClosed  = "vellum"       // inside a closed shadow root
	WordStatic  = "codex"        // the static page
	WordNever   = "enableScript" // nothing: the noscript text of the shells
	WordCardFmt = "cardword%d"   // each card's own word
)

// New starts the site with n card pages.
func New(n int) *Site {
	s := &Site{Cards: n, hits: map[string]int{}, text: map[int]string{}}
	s.Tracker = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.count("tracker" + r.URL.Path)
		w.Header().Set("Content-Type", "application/javascript")
		fmt.Fprint(w, "window.tracked = true;")
	}))
	s.Server = httptest.NewServer(s.handler())
	return s
}

// Close stops both servers.
func (s *Site) Close() {
	s.Server.Close()
	s.Tracker.Close()
}

func (s *Site) count(p string) {
	s.mu.Lock()
	s.hits[p]++
	s.mu.Unlock()
}

// Hits returns how many times path was requested ("tracker/x" for the tracker's).
func (s *Site) Hits(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// SetCardText changes what card n says (for a recrawl that must see the change).
func (s *Site) SetCardText(n int, text string) {
	s.mu.Lock()
	s.text[n] = text
	s.mu.Unlock()
}

// shell is an application's HTML as served: an empty root, a script, a noscript line.
func shell(title, script string) string {
	return `<!doctype html><html><head><meta charset="utf-8"><title>` + title + `</title>
<script defer src="` + script + `"></script></head>
<body><noscript>Please ` + WordNever + ` to read this site.</noscript><div id="root"></div></body></html>`
}

func (s *Site) handler() http.Handler {
	mux := http.NewServeMux()
	htmlPage := func(w http.ResponseWriter, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}
	js := func(w http.ResponseWriter, body string) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Cache-Control", "max-age=3600")
		fmt.Fprint(w, body)
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.count(r.URL.Path)
		switch {
		case r.URL.Path == "/":
			htmlPage(w, `<!doctype html><title>Test site</title><h1>Test site</h1>
<ul><li><a href="/app/">The application</a><li><a href="/hash/">Hash routes</a><li><a href="/scroll/">Scroll</a>
<li><a href="/links/">Links by script</a><li><a href="/shadow/">Shadow DOM</a><li><a href="/static/">Static</a></ul>`)
		case r.URL.Path == "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		case strings.HasPrefix(r.URL.Path, "/app/") && !strings.HasSuffix(r.URL.Path, ".js"):
			// A single-page application: every route is the same shell (history fallback).
			htmlPage(w, shell("Application", "/app/app.js"))
		case r.URL.Path == "/app/app.js":
			js(w, appJS)
		case r.URL.Path == "/hash/":
			htmlPage(w, shell("Hash routes", "/hash/hash.js"))
		case r.URL.Path == "/hash/hash.js":
			js(w, hashJS)
		case r.URL.Path == "/scroll/":
			htmlPage(w, shell("Scroll", "/scroll/scroll.js"))
		case r.URL.Path == "/scroll/scroll.js":
			js(w, scrollJS)
		case r.URL.Path == "/links/":
			htmlPage(w, shell("Links", "/links/links.js"))
		case r.URL.Path == "/links/links.js":
			js(w, linksJS)
		case strings.HasPrefix(r.URL.Path, "/links/target-"):
			n := strings.TrimPrefix(r.URL.Path, "/links/target-")
			htmlPage(w, `<!doctype html><title>Target `+html.EscapeString(n)+`</title><h1>Target</h1><p>A page found through a link a script made: `+WordLinks+` `+strings.Repeat("text of the target page ", 20)+`</p>`)
		case r.URL.Path == "/shadow/":
			htmlPage(w, `<!doctype html><title>Shadow</title><body><noscript>Please `+WordNever+`.</noscript><x-card></x-card><x-seal></x-seal>
<script src="/shadow/shadow.js"></script></body>`)
		case r.URL.Path == "/shadow/shadow.js":
			js(w, shadowJS)
		case r.URL.Path == "/static/":
			htmlPage(w, `<!doctype html><html><head><title>A static page</title><script async src="/static/counter.js"></script></head>
<body><h1>The `+WordStatic+`</h1>`+strings.Repeat("<p>Everything on this page is in its HTML as served: no script builds it, so a crawl reads it without a browser.</p>", 6)+
				`<p><a href="/">home</a></p></body></html>`)
		case r.URL.Path == "/static/counter.js":
			js(w, "window.counted = 1;")
		case strings.HasPrefix(r.URL.Path, "/ssr/cards/"):
			// The same cards rendered on the server: what a crawl reads without a browser.
			d := s.appPage("/app/cards/" + strings.TrimPrefix(r.URL.Path, "/ssr/cards/"))
			var b strings.Builder
			fmt.Fprintf(&b, "<!doctype html><html><head><meta charset=\"utf-8\"><title>%s</title></head><body><div id=\"root\"><h1>%s</h1><p>%s</p><ul>",
				html.EscapeString(d["title"].(string)), html.EscapeString(d["title"].(string)), html.EscapeString(d["text"].(string)))
			for _, l := range d["links"].([]string) {
				l = strings.Replace(l, "/app/", "/ssr/", 1)
				fmt.Fprintf(&b, `<li><a href="%s">Go to %s</a></li>`, l, l)
			}
			b.WriteString("</ul></div></body></html>")
			htmlPage(w, b.String())
		case strings.HasPrefix(r.URL.Path, "/hostile/"):
			s.hostile(w, r)
		default:
			http.NotFound(w, r)
		}
	})
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		s.count(r.URL.Path)
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/page":
			json.NewEncoder(w).Encode(s.appPage(r.URL.Query().Get("path")))
		case "/api/more":
			n, _ := strconv.Atoi(r.URL.Query().Get("part"))
			text := fmt.Sprintf("Part %d of the long page, loaded when the reader came to the end of what was there. ", n) + strings.Repeat("More words of a long page. ", 40)
			if n >= 3 {
				text += "The " + WordScroll + " ends it."
			}
			json.NewEncoder(w).Encode(map[string]any{"text": text, "more": n < 3})
		case "/api/tracker":
			fmt.Fprint(w, `{"ok":true}`)
		default:
			http.NotFound(w, r)
		}
	})
	return mux
}

// appPage is the JSON of the application's route path.
func (s *Site) appPage(path string) map[string]any {
	switch {
	case path == "/app/" || path == "/app":
		links := []string{"/app/about"}
		for i := 1; i <= min(s.Cards, 5); i++ {
			links = append(links, fmt.Sprintf("/app/cards/%d", i))
		}
		return map[string]any{"title": "The application", "text": "Welcome to the " + WordApp + ", a library that scripts build.", "links": links}
	case path == "/app/about":
		return map[string]any{"title": "About", "text": "The " + WordAbout + " of everything, as Otlet dreamed it.", "links": []string{"/app/"}}
	case strings.HasPrefix(path, "/app/cards/"):
		n, err := strconv.Atoi(strings.TrimPrefix(path, "/app/cards/"))
		if err != nil || n < 1 || n > s.Cards {
			return map[string]any{"title": "Not found", "text": "No such card.", "links": []string{"/app/"}}
		}
		s.mu.Lock()
		extra := s.text[n]
		s.mu.Unlock()
		var links []string
		for _, k := range []int{n + 1, n + 2, 2*n + 1} {
			if k <= s.Cards {
				links = append(links, fmt.Sprintf("/app/cards/%d", k))
			}
		}
		return map[string]any{"title": fmt.Sprintf("Card %d", n),
			"text":  fmt.Sprintf("Card %d of the repertory holds "+WordCardFmt+". ", n, n) + extra + strings.Repeat(" A card of the universal repertory, filed by its classification.", 8),
			"links": links}
	}
	return map[string]any{"title": "Not found", "text": "No such page.", "links": []string{}}
}

// appJS routes by location.pathname: it fetches the route's JSON and builds the page.
const appJS = `(async () => {
  const root = document.getElementById('root');
  const r = await fetch('/api/page?path=' + encodeURIComponent(location.pathname));
  const d = await r.json();
  document.title = d.title;
  const h = document.createElement('h1'); h.textContent = d.title; root.appendChild(h);
  const p = document.createElement('p'); p.textContent = d.text; root.appendChild(p);
  const nav = document.createElement('ul');
  for (const l of d.links) {
    const li = document.createElement('li'); const a = document.createElement('a');
    a.href = l; a.textContent = 'Go to ' + l;
    a.addEventListener('click', (e) => { e.preventDefault(); history.pushState({}, '', l); });
    li.appendChild(a); nav.appendChild(li);
  }
  root.appendChild(nav);
})();`

// hashJS shows the route in location.hash; its links are route fragments.
const hashJS = `(() => {
  const pages = {
    '': ['Hash home', 'Pick a route.'],
    '!/otlet': ['Otlet', 'Paul Otlet and the ` + WordHash + ` of the Mundaneum.'],
    '/fontaine': ['La Fontaine', 'Henri La Fontaine and the ` + WordHash2 + `.'],
  };
  const show = () => {
    const root = document.getElementById('root');
    const [t, text] = pages[location.hash.slice(1)] || ['Unknown', 'No such route.'];
    root.innerHTML = '';
    const h = document.createElement('h1'); h.textContent = t; root.appendChild(h);
    const p = document.createElement('p'); p.textContent = text + ' This text exists only once the route has been shown by the script.'; root.appendChild(p);
    for (const [href, label] of [['#!/otlet', 'Otlet'], ['#/fontaine', 'La Fontaine'], ['#top', 'top']]) {
      const a = document.createElement('a'); a.href = href; a.textContent = label; root.appendChild(a);
    }
  };
  window.addEventListener('hashchange', show);
  show();
})();`

// scrollJS loads three more parts when the reader reaches the end.
const scrollJS = `(() => {
  const root = document.getElementById('root');
  const h = document.createElement('h1'); h.textContent = 'A long page'; root.appendChild(h);
  for (let i = 0; i < 30; i++) { const p = document.createElement('p'); p.textContent = 'Paragraph ' + i + ' of what the page shows at first.'; root.appendChild(p); }
  const end = document.createElement('div'); end.style.height = '10px'; root.appendChild(end);
  let part = 0, busy = false, more = true;
  new IntersectionObserver(async (es) => {
    if (!es.some((e) => e.isIntersecting) || busy || !more) return;
    busy = true; part++;
    const d = await (await fetch('/api/more?part=' + part)).json();
    for (let i = 0; i < 20; i++) { const p = document.createElement('p'); p.textContent = i === 0 ? d.text : 'Filler line ' + i + ' of part ' + part; root.insertBefore(p, end); }
    more = d.more; busy = false;
  }).observe(end);
})();`

// linksJS adds links, without a click, a moment after the page loads.
const linksJS = `(() => {
  const root = document.getElementById('root');
  const h = document.createElement('h1'); h.textContent = 'Links made by a script'; root.appendChild(h);
  setTimeout(() => {
    for (const n of [1, 2, 3]) {
      const a = document.createElement('a'); a.href = '/links/target-' + n; a.textContent = 'Target ' + n;
      root.appendChild(a); root.appendChild(document.createTextNode(' '));
    }
    const p = document.createElement('p'); p.textContent = 'These links did not exist in the HTML the server sent.'; root.appendChild(p);
  }, 50);
})();`

// shadowJS builds text in an open and in a closed shadow root, one slotting light DOM.
const shadowJS = `(() => {
  class Card extends HTMLElement {
    constructor() {
      super();
      const r = this.attachShadow({ mode: 'open' });
      r.innerHTML = '<h1>Shadow card</h1><p>The ` + WordShadow + ` keeps its text in a shadow root.</p><slot></slot>';
    }
  }
  class Seal extends HTMLElement {
    constructor() {
      super();
      const r = this.attachShadow({ mode: 'closed' });
      r.innerHTML = '<p>A closed root holds ` + WordClosed + ` too.</p>';
    }
  }
  customElements.define('x-card', Card);
  customElements.define('x-seal', Seal);
  const light = document.createElement('span'); light.textContent = 'Slotted light text.';
  document.querySelector('x-card').appendChild(light);
})();`
