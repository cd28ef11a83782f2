package crawl

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mundaneum/backend/store"
	"mundaneum/backend/store/dbtest"
	"mundaneum/backend/urlnorm"
)

// trapSite serves the five kinds of endless URL spaces a crawler meets, and counts the
// requests per path.
type trapSite struct {
	mu   sync.Mutex
	hits map[string]int
}

func (s *trapSite) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

func (s *trapSite) prefixed(prefix string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for p, h := range s.hits {
		if strings.HasPrefix(p, prefix) {
			n += h
		}
	}
	return n
}

func random() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func (s *trapSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.Path]++
	s.mu.Unlock()
	q := r.URL.Query()
	var links []string
	switch p := r.URL.Path; {
	case p == "/":
		links = []string{"/shop?page=1", "/cal/" + strconv.Itoa(time.Now().Year()) + "/01/", "/s/page",
			"/deep/", "/cat/page.html", "/d/"}
	case p == "/shop":
		// Faceted navigation: every filter link adds a parameter, repeats one or reorders
		// them, and "next" goes on forever.
		n, _ := strconv.Atoi(q.Get("page"))
		base := r.URL.RawQuery
		for _, f := range []string{"color=red", "color=blue", "size=m", "size=l", "sort=price"} {
			links = append(links, "/shop?"+base+"&"+f, "/shop?"+f+"&"+base)
		}
		links = append(links, "/shop?"+base+"&"+base, fmt.Sprintf("/shop?page=%d", n+1))
	case strings.HasPrefix(p, "/cal/"):
		// A calendar whose "next month" never ends.
		var y, m int
		fmt.Sscanf(p, "/cal/%d/%d/", &y, &m)
		y, m = y+m/12, m%12+1
		links = []string{fmt.Sprintf("/cal/%d/%02d/", y, m)}
	case p == "/s/page":
		// Session ids in every link: each request a new one.
		links = []string{"/s/page?PHPSESSID=" + random(), "/s/page;jsessionid=" + random(),
			"/s/page?sid=" + random(), "/s/other?token=" + random()}
	case p == "/s/other":
		links = []string{"/s/other?token=" + random()}
	case strings.HasPrefix(p, "/deep/"):
		links = []string{"more/"} // endlessly deepening relative path
	case strings.HasPrefix(p, "/d/"):
		links = []string{fmt.Sprintf("x%d/", strings.Count(p, "/"))} // deepening, new names
	case strings.HasSuffix(p, "/page.html"):
		links = []string{"cat/page.html"} // a relative link that concatenates itself
	}
	var b strings.Builder
	for _, l := range links {
		fmt.Fprintf(&b, `<a href="%s">x</a> `, l)
	}
	w.Header().Set("Content-Type", "text/html")
	fmt.Fprint(w, page("trap "+r.URL.Path, b.String()))
}

// TestTrapsStayBounded crawls the five kinds of endless URL spaces with no limit but the
// crawl's own guards and checks that each stays small (issue 18: faceted navigation drew
// about 100,000 fetches of one path).
func TestTrapsStayBounded(t *testing.T) {
	site := &trapSite{hits: map[string]int{}}
	srv := httptest.NewServer(site)
	defer srv.Close()
	st := openStore(t)
	const budget = 30
	p := run(t, st, Config{Seeds: []string{srv.URL + "/"}, Scope: ScopeSite, Agents: 8, PerHost: 8, MaxQueryVariants: budget})

	if n := site.count("/shop"); n > budget || n < budget/2 {
		t.Errorf("faceted navigation: /shop fetched %d times, budget %d", n, budget)
	}
	var variants int
	dbtest.Scan(t, st.ReadDB().QueryRow(`SELECT count(*) FROM pages WHERE reason = ?`, ReasonVariants), &variants)
	if variants == 0 || !strings.Contains(p.Note, "query variants") {
		t.Errorf("%d pages skipped by the query-variant budget; note %q", variants, p.Note)
	}
	// Repeated and reordered parameters are one URL: no two requests of /shop had the same
	// set of parameters.
	var dups int
	dbtest.Scan(t, st.ReadDB().QueryRow(`SELECT count(*) - count(DISTINCT url) FROM pages WHERE url LIKE ?`, srv.URL+"/shop%"), &dups)
	if dups != 0 {
		t.Errorf("%d duplicate /shop URLs", dups)
	}
	years := urlnorm.YearsAhead + 1
	if n := site.prefixed("/cal/"); n > 12*years || n < 12*(years-1) {
		t.Errorf("calendar: %d months fetched, want about %d", n, 12*years)
	}
	if n := site.count("/s/page"); n != 1 {
		t.Errorf("session ids: /s/page fetched %d times", n)
	}
	if n := site.count("/s/other"); n > budget+1 {
		t.Errorf("an unknown session parameter: /s/other fetched %d times, budget %d", n, budget)
	}
	if n := site.prefixed("/deep/"); n > 3 {
		t.Errorf("deepening relative path: %d fetches", n)
	}
	if n := site.prefixed("/d/"); n > 17 {
		t.Errorf("deepening path with new names: %d fetches", n)
	}
	if n := site.prefixed("/cat/"); n > 3 {
		t.Errorf("self-concatenating relative link: %d fetches", n)
	}
	for _, reason := range []string{"trap:calendar", "trap:repeated-segment", "trap:too-deep"} {
		var n int
		dbtest.Scan(t, st.ReadDB().QueryRow(`SELECT count(*) FROM pages WHERE reason = ? AND state = ?`, reason, store.StateSkipped), &n)
		if n == 0 {
			t.Errorf("no page skipped as %s", reason)
		}
	}
	t.Logf("%d pages fetched in all", p.Fetched)
}
