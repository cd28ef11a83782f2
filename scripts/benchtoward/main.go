// Command benchtoward measures the query-directed crawl (issue 14, WebCrawler's real-time
// search) against breadth-first on a synthetic web with a planted topic
// (backend/crawl/plantedweb): it crawls the same web twice on loopback, breadth-first and
// toward the topic, and prints for each how many pages it had visited when it had found
// half of the planted pages and all of them:
//
//	go run ./scripts/benchtoward
//	go run ./scripts/benchtoward -pages 10000 -planted 50 -agents 4
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"mundaneum/backend/crawl"
	"mundaneum/backend/crawl/plantedweb"
	"mundaneum/backend/index"
	"mundaneum/backend/store"
)

func main() {
	cfg := plantedweb.Defaults
	agents := flag.Int("agents", 1, "parallel fetches (1: the visiting order is exact)")
	flag.IntVar(&cfg.Pages, "pages", cfg.Pages, "pages in the synthetic web")
	flag.IntVar(&cfg.Planted, "planted", cfg.Planted, "pages on the planted topic")
	flag.IntVar(&cfg.Entries, "entries", cfg.Entries, "pages outside the topic that link into it")
	flag.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed of the web")
	flag.Parse()
	fmt.Printf("planted web: %d pages, %d on the topic %q, %d entries, seed %d, %d agent(s)\n",
		cfg.Pages, cfg.Planted, plantedweb.Topic, cfg.Entries, cfg.Seed, *agents)
	var res [2]plantedweb.Found
	for i, toward := range []string{"", plantedweb.Topic} {
		f, took, err := crawlOnce(cfg, toward, *agents)
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchtoward:", err)
			os.Exit(1)
		}
		res[i] = f
		name := "breadth-first"
		if toward != "" {
			name = "toward"
		}
		fmt.Printf("%-14s visited until half found: %5d   until all found: %5d   (found %d/%d, visited %d in %s)\n",
			name, f.Half, f.All, f.Planted, cfg.Planted, f.Visited, took.Round(time.Millisecond))
	}
	if res[1].All > 0 && res[0].All > 0 {
		fmt.Printf("BENCH toward pages=%d planted=%d all: toward %d vs bfs %d (%.1fx fewer); half: %d vs %d (%.1fx fewer)\n",
			cfg.Pages, cfg.Planted, res[1].All, res[0].All, float64(res[0].All)/float64(res[1].All),
			res[1].Half, res[0].Half, float64(res[0].Half)/float64(max(res[1].Half, 1)))
	}
}

// crawlOnce crawls a fresh copy of the web into a fresh workspace.
func crawlOnce(cfg plantedweb.Config, toward string, agents int) (plantedweb.Found, time.Duration, error) {
	ctx := context.Background()
	web := plantedweb.New(cfg)
	srv := httptest.NewServer(web)
	defer srv.Close()
	dir, err := os.MkdirTemp("", "benchtoward")
	if err != nil {
		return plantedweb.Found{}, 0, err
	}
	defer os.RemoveAll(dir)
	st, err := store.Open(ctx, filepath.Join(dir, "w.mundaneum"), store.Options{})
	if err != nil {
		return plantedweb.Found{}, 0, err
	}
	defer st.Close()
	idx, err := index.Open(ctx, st)
	if err != nil {
		return plantedweb.Found{}, 0, err
	}
	defer idx.Close()
	start := time.Now()
	cr, err := crawl.Open(ctx, st, idx, crawl.Config{Seeds: []string{srv.URL + "/p/0"}, Scope: crawl.ScopeSite,
		Agents: agents, PerHost: agents, Toward: toward})
	if err != nil {
		return plantedweb.Found{}, 0, err
	}
	if _, err := cr.Run(ctx, nil); err != nil {
		return plantedweb.Found{}, 0, err
	}
	return web.Found(), time.Since(start), nil
}
