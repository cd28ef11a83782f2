package crawl

import (
	"net/http/httptest"
	"strings"
	"testing"

	"mundaneum/backend/crawl/plantedweb"
	"mundaneum/backend/frontier"
)

// crawlPlanted crawls a fresh planted web (toward the topic, or breadth-first) one page at
// a time and returns what it found.
func crawlPlanted(t *testing.T, cfg plantedweb.Config, toward string) plantedweb.Found {
	t.Helper()
	web := plantedweb.New(cfg)
	srv := httptest.NewServer(web)
	defer srv.Close()
	st := openStore(t)
	run(t, st, Config{Seeds: []string{srv.URL + "/p/0"}, Scope: ScopeSite, Agents: 1, PerHost: 1, Toward: toward})
	f := web.Found()
	if f.Planted != web.Planted() {
		t.Fatalf("toward %q: the crawl found %d of %d planted pages (visited %d)", toward, f.Planted, web.Planted(), f.Visited)
	}
	return f
}

// TestTowardFindsPlantedPagesFirst checks WebCrawler's point: following the links whose
// anchors match the query finds the pages on a topic after far fewer visits than
// breadth-first does.
func TestTowardFindsPlantedPagesFirst(t *testing.T) {
	cfg := plantedweb.Config{Pages: 250, Planted: 8, Entries: 2, OutMin: 3, OutMax: 6, Seed: 3}
	bfs := crawlPlanted(t, cfg, "")
	toward := crawlPlanted(t, cfg, plantedweb.Topic)
	t.Logf("pages visited until all %d planted pages were found: toward %d, breadth-first %d (half: %d, %d)",
		cfg.Planted, toward.All, bfs.All, toward.Half, bfs.Half)
	if toward.All >= bfs.All || toward.Half > bfs.Half {
		t.Fatalf("toward visited %d (half %d) pages, breadth-first %d (half %d)", toward.All, toward.Half, bfs.All, bfs.Half)
	}
}

func TestTowardStrategy(t *testing.T) {
	if _, ok := strategyFor(nil, "card index").(frontier.Toward); !ok {
		t.Fatal("a crawl toward a query should be best-first")
	}
	if _, ok := strategyFor(nil, "-x").(frontier.ServerFirst); !ok {
		t.Fatal("a query without words leaves the crawl breadth-first")
	}
	s := strategyFor(nil, plantedweb.Topic)
	seed := s.Priority(frontier.Link{Seed: true})
	best := s.Priority(frontier.Link{Anchor: "Otlet's card index"})
	near := s.Priority(frontier.Link{Anchor: "see here", Context: "Paul Otlet filed the world on index cards"})
	page := s.Priority(frontier.Link{Anchor: "river garden", Page: 1})
	none := s.Priority(frontier.Link{Anchor: "river garden"})
	if !(seed > best && best > near && near > page && page > none && none > 0) {
		t.Fatalf("priorities: seed %d, anchor %d, context %d, page %d, none %d", seed, best, near, page, none)
	}
	n := &nearLinks{text: "a river garden. Paul Otlet filed the world on index cards: see here and there. see here"}
	if got := n.around("see here"); !strings.Contains(got, "Otlet filed") || !strings.Contains(got, "and there") {
		t.Fatalf("around = %q", got)
	}
	if got := n.around("see here"); got == "" {
		t.Fatal("the second occurrence has a context too")
	}
}
