// Command benchsearch measures search latency on a synthetic workspace of N pages
// (issue 3's targets: p50 under 10 ms, p99 under 50 ms at 1,000,000 pages, snippets included).
//
// It generates the workspace once per parameter set (Zipf-distributed words from a word
// list, pages over ~200 hosts, links with anchor text, duplicates, non-HTML resources and
// dead links), written through the store's writer, and caches it under -dir. Then it opens
// the workspace as the app does, times a cold open and first query, runs a fixed, seeded mix
// of queries drawn from the index's own vocabulary (after other warm-up queries), and
// prints a table of p50/p90/p99/max per query class plus one machine-readable line:
//
//	go run ./scripts/benchsearch -pages 100000
//	go run ./scripts/benchsearch -pages 1000000 -cpuprofile cpu.out
//	go run ./scripts/benchsearch -pages 1000000 -query 'site:fi ext:mpg' -cpuprofile one.out
//	go run ./scripts/benchsearch -pages 1000000 -sql "SELECT ... FROM page_fts WHERE ..."
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"mundaneum/backend/index"
	"mundaneum/backend/store"
)

// genVersion names the generator's output: bump it when the synthetic web changes, so that
// cached workspaces of the old shape are not reused.
const genVersion = 1

type options struct {
	pages, bodyMin, bodyMax, batch      int
	seed                                uint64
	dir, words                          string
	queries, warmup, limit, slowest     int
	timeout                             time.Duration
	cpuprofile, only, sqlText, one, tsv string
	regen, genOnly, evict, facets       bool
	together, dropVocab, coldReads      bool
}

func main() {
	var o options
	flag.IntVar(&o.pages, "pages", 100000, "HTML pages in the synthetic index")
	flag.Uint64Var(&o.seed, "seed", 1, "seed of the synthetic web and of the query mix")
	flag.IntVar(&o.bodyMin, "body-min", 150, "fewest words in a page body")
	flag.IntVar(&o.bodyMax, "body-max", 600, "most words in a page body")
	flag.IntVar(&o.batch, "batch", 5000, "pages per write transaction when generating")
	flag.StringVar(&o.dir, "dir", filepath.Join(os.TempDir(), "mundaneum-benchsearch"), "cache of generated workspaces")
	flag.StringVar(&o.words, "words", "/usr/share/dict/words", "word list (Debian wamerican)")
	flag.IntVar(&o.queries, "queries", 2000, "timed queries (spread evenly over the query classes)")
	flag.IntVar(&o.warmup, "warmup", 200, "untimed warm-up queries first (others than the timed ones, same classes)")
	flag.DurationVar(&o.timeout, "timeout", 30*time.Second, "stop a query after this long (it counts with that time)")
	flag.IntVar(&o.limit, "limit", 20, "results per query (the first page)")
	flag.IntVar(&o.slowest, "slowest", 15, "list this many slowest queries")
	flag.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the timed queries to this file (and of generation to FILE.gen)")
	flag.StringVar(&o.tsv, "tsv", "", "also write every timed query to this file (class, wall ms, cpu ms, hits, query)")
	flag.StringVar(&o.only, "classes", "", "comma-separated query classes to run (default all)")
	flag.StringVar(&o.one, "query", "", "instead of the benchmark: run this one query a few times and time it")
	flag.StringVar(&o.sqlText, "sql", "", "instead of the benchmark: show the plan of this SQL and time it on the workspace")
	flag.BoolVar(&o.regen, "regen", false, "generate the workspace again even if cached")
	flag.BoolVar(&o.genOnly, "gen-only", false, "generate (or find) the workspace and stop")
	flag.BoolVar(&o.facets, "facets", false, "ask for facet counts with every query, as the window does: the results, then the facets in a second request, timed apart")
	flag.BoolVar(&o.together, "facets-together", false, "ask for facet counts in the same call as the results (the CLI's and a saved view's way)")
	flag.BoolVar(&noPairs, "no-pairs", false, "answer phrases from the word index only (the pair index is still built)")
	flag.BoolVar(&o.evict, "evict", true, "drop the workspace from the OS page cache before the cold open")
	flag.BoolVar(&o.coldReads, "cold-reads", false, "instead of the benchmark: drop the OS cache, open without readying the searcher, ask the cold open's first query (then -query's, if given) and say what each read from the disk")
	flag.BoolVar(&o.dropVocab, "drop-vocab-file", false, "remove the file of the index's terms before the cold open (the first open after an index is built)")
	flag.Parse()
	if err := run(context.Background(), o); err != nil {
		fmt.Fprintln(os.Stderr, "benchsearch:", err)
		os.Exit(1)
	}
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "benchsearch: "+format+"\n", args...)
}

// searchable is a workspace opened read-only with its index, as `mundaneum search` opens it.
type searchable struct {
	st  *store.Store
	idx *index.Index
}

func openSearch(ctx context.Context, path string) (*searchable, error) {
	st, err := store.Open(ctx, path, store.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	idx, err := index.Open(ctx, st)
	if err != nil {
		st.Close()
		return nil, err
	}
	return &searchable{st: st, idx: idx}, nil
}

func (s *searchable) Close() error {
	s.idx.Close()
	return s.st.Close()
}

func fileSize(path string) int64 {
	var n int64
	for _, p := range []string{path, path + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// meta is written last into a cache entry: its presence says the entry is complete.
type meta struct {
	Version int      `json:"version"`
	Pages   int      `json:"pages"`
	Seed    uint64   `json:"seed"`
	BodyMin int      `json:"bodyMin"`
	BodyMax int      `json:"bodyMax"`
	Gen     genStats `json:"gen"`
	Load    string   `json:"load"` // load average when generation ended
}

func run(ctx context.Context, o options) error {
	if o.pages < 100 || o.bodyMin < 1 || o.bodyMax < o.bodyMin || o.batch < 1 || o.limit < 1 {
		return errors.New("need -pages >= 100, 1 <= -body-min <= -body-max, -batch >= 1, -limit >= 1")
	}
	words, err := loadWords(o.words)
	if err != nil {
		return err
	}
	t0 := time.Now()
	m := newModel(o.seed, o.pages, o.bodyMin, o.bodyMax, words)
	logf("model of %d pages over %d hosts, %d words (%.1fs)", o.pages, len(m.hosts), len(m.words), time.Since(t0).Seconds())

	entry := filepath.Join(o.dir, fmt.Sprintf("p%d-s%d-b%d-%d-g%d", o.pages, o.seed, o.bodyMin, o.bodyMax, genVersion))
	ws := filepath.Join(entry, "workspace.mundaneum")
	vocabFile := filepath.Join(entry, "vocab.tsv")
	metaFile := filepath.Join(entry, "meta.json")
	var md meta
	generated := false
	if b, err := os.ReadFile(metaFile); err == nil && !o.regen && json.Unmarshal(b, &md) == nil {
		logf("reusing %s (generated in %.0fs)", entry, md.Gen.Seconds)
	} else {
		if err := os.RemoveAll(entry); err != nil {
			return err
		}
		if err := os.MkdirAll(entry, 0o755); err != nil {
			return err
		}
		logf("generating %s", ws)
		stop, err := startProfile(o.cpuprofile, ".gen")
		if err != nil {
			return err
		}
		gs, err := generate(ctx, m, ws, o.batch, logf)
		stop()
		if err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		logf("generated %d pages to index in %.0fs, %.2f GB (load %s)", gs.FTSRows, gs.Seconds, float64(gs.Bytes)/1e9, loadavg())
		md = meta{Version: genVersion, Pages: o.pages, Seed: o.seed, BodyMin: o.bodyMin, BodyMax: o.bodyMax, Gen: gs, Load: loadavg()}
		b, _ := json.MarshalIndent(md, "", "  ")
		if err := os.WriteFile(metaFile, b, 0o644); err != nil {
			return err
		}
		generated = true
	}
	// A workspace from before a newer migration is upgraded once by a writable open, which
	// also brings its index up to date (built when there is none, rebuilt when it is of an
	// older format) and settles it (pair index built, segments merged); the benchmark
	// itself reads through a read-only open, as search does while a crawl runs.
	if err := buildIndex(ctx, ws, logf); err != nil {
		return err
	}
	if _, err := os.Stat(vocabFile); err != nil {
		t := time.Now()
		if err := extractVocab(ctx, ws, vocabFile); err != nil {
			return err
		}
		logf("vocabulary read in %.1fs", time.Since(t).Seconds())
	}
	if o.genOnly {
		return nil
	}
	if o.sqlText != "" {
		return explain(ctx, ws, o.sqlText)
	}
	if o.one != "" && !o.coldReads {
		return timeOne(ctx, ws, o.one, o.limit, o.facets || o.together, o.cpuprofile)
	}
	v, err := loadVocab(vocabFile)
	if err != nil {
		return err
	}
	x := newMixer(m, v, md.Gen.FTSRows, o.seed)
	logf("%s", x.describe())
	only := map[string]bool{}
	for _, c := range strings.Split(o.only, ",") {
		if c = strings.TrimSpace(c); c != "" {
			only[c] = true
		}
	}
	n := len(classes)
	if len(only) > 0 {
		n = len(only)
	}
	qs := x.queryMix((o.queries+n-1)/n, only)
	if len(qs) == 0 {
		return fmt.Errorf("no query class matches -classes %q", o.only)
	}
	warm := x.queryMix((o.warmup+n-1)/n, only)
	shuffle := rand.New(rand.NewPCG(o.seed, 78)).Shuffle
	shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
	shuffle(len(warm), func(i, j int) { warm[i], warm[j] = warm[j], warm[i] })
	warm = warm[:min(len(warm), o.warmup)]

	window := o.facets && !o.together
	r := report{Pages: o.pages, API: apiName, Limit: o.limit, Facets: o.facets || o.together, FacetsHow: "off", Gen: md.Gen, Generated: generated}
	switch {
	case o.together:
		r.FacetsHow = "together"
	case window:
		r.FacetsHow = "window"
	}
	// The cold and warm first queries time the results (with the facets only when asked
	// together): what the window waits for before it shows them.
	vf := index.Path(ws) + "-vocab"
	if o.dropVocab {
		if err := os.Remove(vf); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	_, err = os.Stat(vf)
	r.VocabFile = err == nil
	logf("the first query, asked on the cold open: %q", qs[0].text)
	if o.coldReads {
		cq := []string{qs[0].text}
		if o.one != "" {
			cq = append(cq, o.one)
		}
		return coldReads(ctx, ws, cq, o.limit, o.together)
	}
	c, err := coldStart(ctx, ws, qs[0].text, o.limit, o.together, o.evict)
	if err != nil {
		return fmt.Errorf("cold open: %w", err)
	}
	r.ColdOpenMs, r.ColdFirstMs, r.Evicted = ms(c.open), ms(c.first), c.evicted
	r.ColdVocabMs, r.ColdVocabSinceMs = ms(c.vocab), ms(c.vocabSince)
	c, err = coldStart(ctx, ws, qs[0].text, o.limit, o.together, false)
	if err != nil {
		return fmt.Errorf("reopen: %w", err)
	}
	r.WarmFirstMs = ms(c.first)
	if !o.evict {
		// Timed warm: the files are read into the OS cache first. Without it, what the
		// kernel dropped since the last run (idle file pages are reclaimed on some machines,
		// this one's included: DAMON's pageout) is read from disk during the timed queries.
		t := time.Now()
		if err := readThrough(ws, ws+"-index"); err != nil {
			return fmt.Errorf("warm the cache: %w", err)
		}
		r.CacheWarmMs = ms(time.Since(t))
	}

	sr, err := openSearch(ctx, ws)
	if err != nil {
		return err
	}
	defer sr.Close()
	e := newEngine(sr.idx.SearchDB(), o.together)
	e.start(ctx)
	vocab, err := e.prepare(ctx)
	if err != nil {
		return fmt.Errorf("vocabulary: %w", err)
	}
	r.VocabMs = ms(vocab)
	r.LoadBefore = loadavg()
	ts, err := runMix(ctx, e, warm, qs, o.limit, window, o.timeout, o.cpuprofile, logf)
	if err != nil {
		return err
	}
	r.LoadAfter = loadavg()
	byClass := map[string][]timing{}
	for _, t := range ts {
		byClass[t.q.class] = append(byClass[t.q.class], t)
	}
	for _, c := range classes {
		if len(byClass[c.name]) > 0 {
			r.Classes = append(r.Classes, summarise(c.name, byClass[c.name], resultsPart))
			if window {
				r.FacetsClasses = append(r.FacetsClasses, summarise(c.name, byClass[c.name], facetsPart))
			}
		}
	}
	r.All = summarise("all", ts, resultsPart)
	if window {
		fa, both := summarise("all", ts, facetsPart), summarise("all", ts, bothParts)
		r.FacetsAll, r.BothAll = &fa, &both
	}
	r.print(os.Stdout, ts, o.slowest)
	if o.tsv != "" {
		return writeTSV(o.tsv, ts)
	}
	return nil
}
