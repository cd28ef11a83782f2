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
	eval := func(w search.Weights) (mrr, s1 float64) {
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
						mrr += 1 / float64(i+1)
						if i == 0 {
							s1++
						}
						break
					}
				}
			}
		}
		return mrr / float64(n), s1 / float64(n)
	}
	show := func(label string, w search.Weights, mrr, s1 float64) {
		fmt.Printf("%-28s intent=%v rerank=%v cover=%g within=%g kind=%g prox=%g heading=%g  MRR@10 %.3f  S@1 %.3f\n",
			label, w.Intent, w.Rerank, w.TitleCover, w.TitleWithin, w.KindScale, w.Proximity, w.HeadingAll, mrr, s1)
	}
	// The first stage alone, then coordinate ascent from the defaults: each weight in turn
	// takes the value of its list that scores best (MRR@10, then S@1), the others fixed.
	off := search.DefaultWeights
	off.Rerank, off.Intent, off.Proximity, off.HeadingAll = false, false, 0, 0
	m, s1 := eval(off)
	show("first stage only", off, m, s1)
	best := search.DefaultWeights
	bm, bs := eval(best)
	show("defaults", best, bm, bs)
	type axis struct {
		name string
		vals []float64
		set  func(w *search.Weights, v float64)
	}
	b := func(v float64) bool { return v != 0 }
	for _, ax := range []axis{
		{"intent", []float64{0, 1}, func(w *search.Weights, v float64) { w.Intent = b(v) }},
		{"within", []float64{0, 0.5, 1, 2, 4}, func(w *search.Weights, v float64) { w.TitleWithin = v }},
		{"cover", []float64{0, 0.5, 1, 2}, func(w *search.Weights, v float64) { w.TitleCover = v }},
		{"prox", []float64{0, 0.25, 0.5, 1, 2}, func(w *search.Weights, v float64) { w.Proximity = v }},
		{"heading", []float64{0, 0.25, 0.5, 1}, func(w *search.Weights, v float64) { w.HeadingAll = v }},
		{"kind", []float64{1, 0.5, 0.25}, func(w *search.Weights, v float64) { w.KindScale = v }},
	} {
		for _, v := range ax.vals {
			w := best
			ax.set(&w, v)
			if w == best {
				continue
			}
			m, s := eval(w)
			show(fmt.Sprintf("%s=%g", ax.name, v), w, m, s)
			if m > bm+1e-9 || m > bm-1e-9 && s > bs {
				best, bm, bs = w, m, s
			}
		}
	}
	show("best", best, bm, bs)
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
