// Command rankgrid tunes the search weights on the tuning split of the relevance queries,
// over the workspaces a kept `go run ./scripts/relevance -keep -split tune` run crawled: it
// runs every tuning query in this process with each setting of the grid and prints
// MRR@10 and S@1 pooled over the corpora. It never reads the held-out files.
//
//	go run ./scripts/rankgrid -dir /tmp/mundaneum-relevance-NNN
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"mundaneum/backend/index"
	"mundaneum/backend/search"
	"mundaneum/backend/store"
)

type query struct{ text, want string }

func main() {
	dir := flag.String("dir", "", "the kept scratch directory of a relevance run")
	flag.Parse()
	ctx := context.Background()
	type corpus struct {
		s  *search.Searcher
		qs []query
	}
	var cs []corpus
	for _, name := range []string{"python", "postgres", "git", "sqlite"} {
		ws := filepath.Join(*dir, name, "workspace.db")
		if _, err := os.Stat(ws); err != nil {
			continue
		}
		st, err := store.Open(ctx, ws, store.Options{ReadOnly: true})
		if err != nil {
			log.Fatal(err)
		}
		idx, err := index.Open(ctx, st)
		if err != nil {
			log.Fatal(err)
		}
		qs, err := load(filepath.Join("testdata/relevance", name+".tsv"))
		if err != nil {
			log.Fatal(err)
		}
		cs = append(cs, corpus{search.New(idx.SearchDB()), qs})
	}
	grid := []func(w *search.Weights){func(w *search.Weights) { w.Rerank = false }}
	for _, a := range []float64{0, 0.5, 1, 2} {
		for _, b := range []float64{0, 0.5, 1} {
			for _, c := range []float64{0, 1, 2} {
				for _, k := range []float64{1, 0.5, 0.25} {
					grid = append(grid, func(w *search.Weights) { w.TitleCover, w.TitleAll, w.TitleExact, w.KindScale = a, b, c, k })
				}
			}
		}
	}
	for _, intent := range []bool{false, true} {
		for _, g := range grid {
			w := search.DefaultWeights
			w.Intent = intent
			g(&w)
			var rr, s1 float64
			n := 0
			for _, c := range cs {
				s := c.s.WithWeights(w)
				for _, q := range c.qs {
					res, err := s.Search(ctx, search.Request{Query: q.text, Limit: 10})
					if err != nil {
						log.Fatal(err)
					}
					n++
					for i, r := range res.Results {
						u, _ := url.Parse(r.URL)
						if strings.TrimPrefix(u.Path, "/") == q.want {
							rr += 1 / float64(i+1)
							if i == 0 {
								s1++
							}
							break
						}
					}
				}
			}
			fmt.Printf("intent=%v cover=%g all=%g exact=%g kind=%g rerank=%v  MRR@10 %.3f  S@1 %.3f  (%d)\n",
				w.Intent, w.TitleCover, w.TitleAll, w.TitleExact, w.KindScale, w.Rerank, rr/float64(n), s1/float64(n), n)
		}
	}
}

func load(file string) ([]query, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var qs []query
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p := strings.Split(line, "\t")
		if len(p) < 2 {
			continue
		}
		qs = append(qs, query{p[0], p[1]})
	}
	return qs, sc.Err()
}
