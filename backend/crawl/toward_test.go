package crawl

import (
	"context"
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

// TestTowardResumes checks that a query-directed crawl stopped by a limit resumes toward
// the same query (the query is in its stored configuration, the priorities in its queue)
// and that the same seeds without it are another crawl.
func TestTowardResumes(t *testing.T) {
	web := plantedweb.New(plantedweb.Config{Pages: 120, Planted: 4, Entries: 1, OutMin: 3, OutMax: 5, Seed: 2})
	srv := httptest.NewServer(web)
	defer srv.Close()
	st := openStore(t)
	cfg := Config{Seeds: []string{srv.URL + "/p/0"}, Scope: ScopeSite, Agents: 1, PerHost: 1, Toward: plantedweb.Topic, MaxPages: 10}
	p := run(t, st, cfg)
	cr, err := Resume(context.Background(), st.Store, st.idx, p.CrawlID)
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := cr.strategy.(frontier.Toward); !ok || cr.Config().Toward != plantedweb.Topic || s.Match == nil {
		t.Fatalf("resumed crawl: strategy %s, toward %q", cr.strategy.Name(), cr.Config().Toward)
	}
	var queued int
	if err := st.ReadDB().QueryRow(`SELECT count(*) FROM frontier WHERE crawl_id = ? AND priority > 1`, p.CrawlID).Scan(&queued); err != nil {
		t.Fatal(err)
	}
	if queued == 0 {
		t.Fatal("the queue should keep the links' priorities")
	}
	plain := cfg
	plain.Toward = ""
	other, err := Open(context.Background(), st.Store, st.idx, plain)
	if err != nil {
		t.Fatal(err)
	}
	if other.ID() == p.CrawlID {
		t.Fatal("the same seeds without --toward should be another crawl")
	}
}
