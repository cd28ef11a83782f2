// Command benchgraph measures the graph questions (issue 13's figure: shortest path and
// path count on a 1,000,000-link graph under 200 ms) on a synthetic web shaped like
// ../shared/bench/synthweb's: every page links to its children in an 8-ary tree, to 15
// random pages of its site and home, with anchor text; about 24 links a page.
//
// It generates the workspace once per parameter set through the store's writer and caches
// it under -dir, opens it as the app does, runs untimed warm-up questions, then times a
// seeded set of random page pairs and prints p50/p90/p99/max per question and one BENCH line:
//
//	go run ./scripts/benchgraph -links 1000000
//	go run ./scripts/benchgraph -links 1000000 -pairs 500 -cpuprofile cpu.out
package main

import (
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"time"

	"mundaneum/backend/graph"
	"mundaneum/backend/rules"
	"mundaneum/backend/store"
)

// genVersion names the generator's output: bump it when the synthetic web changes.
const genVersion = 2

type options struct {
	links, fanout, random, pairs, warmup int
	seed                                 uint64
	dir, cpuprofile                      string
	regen                                bool
}

func main() {
	var o options
	flag.IntVar(&o.links, "links", 1_000_000, "links in the synthetic web (pages = links / (random+2))")
	flag.IntVar(&o.fanout, "fanout", 8, "children per page in the site's tree")
	flag.IntVar(&o.random, "random", 15, "random links per page")
	flag.IntVar(&o.pairs, "pairs", 300, "timed random page pairs")
	flag.IntVar(&o.warmup, "warmup", 30, "untimed questions first")
	flag.Uint64Var(&o.seed, "seed", 1, "seed of the web and of the pairs")
	flag.StringVar(&o.dir, "dir", filepath.Join(os.TempDir(), "mundaneum-benchgraph"), "cache of generated workspaces")
	flag.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the timed questions")
	flag.BoolVar(&o.regen, "regen", false, "generate the workspace again")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "benchgraph:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	ctx := context.Background()
	pages := o.links / (o.random + 2) // the tree adds about one link a page, home one more
	path := filepath.Join(o.dir, fmt.Sprintf("g%d-%d-%d-%d-s%d.mundaneum", genVersion, pages, o.fanout, o.random, o.seed))
	if o.regen {
		os.Remove(path)
		os.Remove(path + "-wal")
	}
	if _, err := os.Stat(path); err != nil {
		if err := os.MkdirAll(o.dir, 0o755); err != nil {
			return err
		}
		t0 := time.Now()
		n, err := generate(ctx, path+".tmp", pages, o)
		if err != nil {
			return err
		}
		if err := os.Rename(path+".tmp", path); err != nil {
			return err
		}
		os.Remove(path + ".tmp-wal")
		fmt.Printf("generated %d pages, %d links in %.1fs: %s\n", pages, n, time.Since(t0).Seconds(), path)
	}
	t0 := time.Now()
	st, err := store.Open(ctx, path, store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer st.Close()
	var links int
	if err := st.ReadDB().QueryRowContext(ctx, `SELECT n FROM counts WHERE name = 'links'`).Scan(&links); err != nil {
		return err
	}
	g := graph.New(st.ReadDB())
	r := rand.New(rand.NewPCG(o.seed, 99))
	pick := func() int64 { return int64(1 + r.IntN(pages)) }
	first, err := timed(func() error { _, err := g.Path(ctx, pick(), pick(), graph.PathOptions{}); return err })
	if err != nil {
		return err
	}
	fmt.Printf("workspace: %d pages, %d links; open + first path question %.1f ms\n", pages, links,
		float64(time.Since(t0).Microseconds())/1000)
	_ = first
	for range o.warmup {
		if _, err := g.Path(ctx, pick(), pick(), graph.PathOptions{}); err != nil {
			return err
		}
	}
	if o.cpuprofile != "" {
		f, err := os.Create(o.cpuprofile)
		if err != nil {
			return err
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	type class struct {
		name string
		ask  func(a, b int64) (int, error) // returns links read
	}
	classes := []class{
		{"path+count", func(a, b int64) (int, error) {
			res, err := g.Path(ctx, a, b, graph.PathOptions{})
			return res.LinksRead, err
		}},
		{"separation", func(a, b int64) (int, error) {
			res, err := g.Path(ctx, a, b, graph.PathOptions{Undirected: true})
			return res.LinksRead, err
		}},
		{"click-depth", func(_, b int64) (int, error) { _, err := g.ClickDepth(ctx, 0, b); return 0, err }},
		{"links", func(a, _ int64) (int, error) { _, err := g.LinksOf(ctx, a, 1000); return 0, err }},
	}
	fmt.Printf("%-12s %6s %9s %9s %9s %9s %11s\n", "question", "n", "p50 ms", "p90 ms", "p99 ms", "max ms", "links read")
	bench := fmt.Sprintf("BENCH graph links=%d pages=%d", links, pages)
	pairs := make([][2]int64, o.pairs)
	for i := range pairs {
		pairs[i] = [2]int64{pick(), pick()}
	}
	for _, c := range classes {
		var ds []time.Duration
		read := 0
		for _, p := range pairs {
			var n int
			d, err := timed(func() error { var err error; n, err = c.ask(p[0], p[1]); return err })
			if err != nil {
				return fmt.Errorf("%s %d %d: %w", c.name, p[0], p[1], err)
			}
			ds = append(ds, d)
			read += n
		}
		slices.Sort(ds)
		q := func(f float64) float64 { return float64(ds[int(f*float64(len(ds)-1))].Microseconds()) / 1000 }
		fmt.Printf("%-12s %6d %9.1f %9.1f %9.1f %9.1f %11d\n", c.name, len(ds), q(0.5), q(0.9), q(0.99), q(1), read/len(ds))
		bench += fmt.Sprintf(" %s_p50_ms=%.1f %s_p99_ms=%.1f %s_max_ms=%.1f", c.name, q(0.5), c.name, q(0.99), c.name, q(1))
	}
	fmt.Println(bench)
	return nil
}

func timed(f func() error) (time.Duration, error) {
	t0 := time.Now()
	err := f()
	return time.Since(t0), err
}

// generate writes the synthetic web: pages 1..n on one host, page 1 the home and the seed.
func generate(ctx context.Context, path string, n int, o options) (int, error) {
	os.Remove(path)
	os.Remove(path + "-wal")
	st, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		return 0, err
	}
	defer st.Close()
	r := rand.New(rand.NewPCG(o.seed, 1))
	const origin = "http://graph.bench"
	total := 0
	err = st.Writer().Do(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO hosts(id, origin) VALUES (1, ?)`, origin); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO crawls(id, key, seeds, scope, config, state, created_at)
			VALUES (1, 'bench', json_array(?), 'site', '{}', 'done', 0)`, origin+"/")
		return err
	})
	if err != nil {
		return 0, err
	}
	const batch = 2000
	for start := 1; start <= n; start += batch {
		err := st.Writer().Do(ctx, func(tx *store.Tx) error {
			for p := start; p < start+batch && p <= n; p++ {
				u := fmt.Sprintf("%s/p/%d.html", origin, p)
				if p == 1 {
					u = origin + "/"
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO pages(id, url, host_id, crawl_id, state, status, title, depth, discovered_at)
					VALUES (?, ?, 1, 1, 'fetched', 200, ?, 0, 0)`, p, u, fmt.Sprintf("Page %d", p)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return 0, err
		}
	}
	ins := `INSERT OR IGNORE INTO links(from_id, to_id, kind, anchor, pos) VALUES (?, ?, 'a', ?, ?)`
	for start := 1; start <= n; start += batch / 4 {
		added, err := store.Get(ctx, st.Writer(), func(tx *store.Tx) (int, error) {
			stmt, err := tx.Stmt(ctx, ins)
			if err != nil {
				return 0, err
			}
			added := 0
			for p := start; p < start+batch/4 && p <= n; p++ {
				pos := 0
				link := func(to int) error {
					pos++
					res, err := stmt.ExecContext(ctx, p, to, fmt.Sprintf("page %d", to), pos)
					if err == nil {
						if k, _ := res.RowsAffected(); k > 0 {
							added++
						}
					}
					return err
				}
				for c := 1; c <= o.fanout; c++ {
					if child := (p-1)*o.fanout + c + 1; child <= n {
						if err := link(child); err != nil {
							return added, err
						}
					}
				}
				for range o.random {
					if err := link(1 + r.IntN(n)); err != nil {
						return added, err
					}
				}
				if err := link(1); err != nil {
					return added, err
				}
			}
			return added, nil
		})
		if err != nil {
			return 0, err
		}
		total += added
	}
	if err := st.Writer().Flush(ctx); err != nil {
		return 0, err
	}
	return total, elements(ctx, st, n)
}

// elements writes crawl 1's elements as a breadth-first crawl from page 1 would have: each
// page visited once, as the first element that reached it, with its links as children.
func elements(ctx context.Context, st *store.Store, n int) error {
	out := make([][]int64, n+1)
	rows, err := st.ReadDB().QueryContext(ctx, `SELECT from_id, to_id FROM links ORDER BY from_id, pos`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var f, t int64
		if err := rows.Scan(&f, &t); err != nil {
			rows.Close()
			return err
		}
		out[f] = append(out[f], t)
	}
	rows.Close()
	type el struct {
		id  int64
		fam rules.Family
	}
	seen := make([]bool, n+1)
	seen[1] = true
	queue := []el{{1, rules.Family{1}}}
	for len(queue) > 0 {
		batch := queue[:min(len(queue), 2000)]
		queue = queue[len(batch):]
		var next []el
		err := st.Writer().Do(ctx, func(tx *store.Tx) error {
			next = next[:0]
			for _, e := range batch {
				var kids []byte
				for k, t := range out[e.id] {
					kids = binary.AppendUvarint(kids, uint64(t))
					kids = append(kids, byte(rules.Next))
					if !seen[t] {
						seen[t] = true
						next = append(next, el{t, e.fam.Child(k + 1)})
					}
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO elements(crawl_id, page_id, family, category, followed, children)
					VALUES (1, ?, ?, ?, 1, ?)`, e.id, e.fam.Encode(), byte(rules.Next), kids); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		queue = append(queue, next...)
	}
	return st.Writer().Flush(ctx)
}
