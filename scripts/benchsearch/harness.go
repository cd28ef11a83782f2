package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"time"
)

// timing is one timed query.
type timing struct {
	q   query
	d   time.Duration // wall clock
	cpu time.Duration // CPU time of the process during the query
	out outcome
	// fd and fcpu time the facets request that follows the results (-facets: the window's
	// second request); 0 without it.
	fd, fcpu time.Duration
	fapprox  bool
}

// the parts of a timing a summary reads
var (
	resultsPart = func(t timing) (time.Duration, time.Duration) { return t.d, t.cpu }
	facetsPart  = func(t timing) (time.Duration, time.Duration) { return t.fd, t.fcpu }
	bothParts   = func(t timing) (time.Duration, time.Duration) { return t.d + t.fd, t.cpu + t.fcpu }
)

// classStats summarises the timings of one class (or of all).
type classStats struct {
	Class   string  `json:"class"`
	N       int     `json:"n"`
	P50     float64 `json:"p50"`
	P90     float64 `json:"p90"`
	P99     float64 `json:"p99"`
	Max     float64 `json:"max"`
	CPU50   float64 `json:"cpuP50"` // CPU time of the process during the query
	CPU99   float64 `json:"cpuP99"`
	Mean    float64 `json:"mean"`
	Hits    float64 `json:"hits"`    // mean result count (the engine's total)
	Empty   int     `json:"empty"`   // queries that found nothing
	Snipped float64 `json:"snipped"` // share of returned results that had a snippet
	Approx  int     `json:"approx"`  // queries whose count was capped
	Fixed   int     `json:"fixed"`   // queries answered with a spelling correction
	Timeout int     `json:"timeout"` // queries stopped at the timeout
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// percentile by nearest rank over sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted))+0.999999) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func summarise(name string, ts []timing, part func(timing) (time.Duration, time.Duration)) classStats {
	ds := make([]time.Duration, len(ts))
	cs := make([]time.Duration, len(ts))
	var sum time.Duration
	s := classStats{Class: name, N: len(ts)}
	results, snipped := 0, 0
	fd, _ := part(timing{fd: 1})
	facets := fd != 0 // a summary of facets requests counts their estimates as "approx"
	for i, t := range ts {
		ds[i], cs[i] = part(t)
		sum += ds[i]
		s.Hits += float64(t.out.total)
		if t.out.total == 0 {
			s.Empty++
		}
		if t.out.approx && !facets || t.fapprox && facets {
			s.Approx++
		}
		if t.out.corrected {
			s.Fixed++
		}
		if t.out.timedOut {
			s.Timeout++
		}
		results += t.out.results
		snipped += t.out.snippets
	}
	slices.Sort(ds)
	slices.Sort(cs)
	s.CPU50, s.CPU99 = ms(percentile(cs, .50)), ms(percentile(cs, .99))
	s.P50, s.P90, s.P99 = ms(percentile(ds, .50)), ms(percentile(ds, .90)), ms(percentile(ds, .99))
	if len(ds) > 0 {
		s.Max = ms(ds[len(ds)-1])
		s.Mean = ms(sum / time.Duration(len(ds)))
		s.Hits /= float64(len(ds))
	}
	if results > 0 {
		s.Snipped = float64(snipped) / float64(results)
	}
	return s
}

// coldStart opens the workspace as the app does (its searcher readying itself in the
// background) and times the first query, asked at once: with the OS page cache for the
// files dropped first when evict is set.
//
// It also waits, after the first query, until the searcher has the index's terms in memory
// (approximate words and suggestions answer from them), and returns how long that took from
// the open: the vocabulary ready on a cold open.
func coldStart(ctx context.Context, path string, q string, limit int, facets, evict bool) (c cold, err error) {
	if evict {
		c.evicted = evictCache(path) == nil
	}
	t0 := time.Now()
	sr, err := openSearch(ctx, path)
	if err != nil {
		return c, err
	}
	defer sr.Close()
	ready, stop := context.WithCancel(ctx)
	defer stop()
	e := newEngine(sr.idx.SearchDB(), facets)
	e.start(ready)
	c.open = time.Since(t0)
	t1 := time.Now()
	if _, err := e.run(ctx, q, limit); err != nil {
		return c, err
	}
	c.first = time.Since(t1)
	if c.vocab, err = e.prepare(ctx); err != nil {
		return c, fmt.Errorf("vocabulary: %w", err)
	}
	c.vocabSince = time.Since(t0)
	return c, nil
}

// cold is what coldStart measured.
type cold struct {
	open, first time.Duration
	vocab       time.Duration // the vocabulary's reading, from Prepare until it was in memory
	vocabSince  time.Duration // from the open until coldStart saw it in memory (after the first query)
	evicted     bool
}

// runMix runs the warm-up queries, then times each query of qs. A query that takes longer
// than timeout is stopped and counted with the time it had.
//
// With window set, each query is asked as the window asks it: the first page of results,
// then (timed apart, in fd) the facet counts alone.
func runMix(ctx context.Context, e *engine, warm, qs []query, limit int, window bool, timeout time.Duration, cpuprofile string, logf func(string, ...any)) ([]timing, error) {
	t0 := time.Now()
	for _, q := range warm {
		qctx, cancel := context.WithTimeout(ctx, timeout)
		_, err := e.run(qctx, q.text, limit)
		if window && err == nil {
			_, err = e.runFacets(qctx, q.text)
		}
		cancel()
		if err != nil && !errors.Is(err, context.DeadlineExceeded) && qctx.Err() == nil {
			return nil, fmt.Errorf("query %q: %w", q.text, err)
		}
	}
	logf("warm-up: %d other queries of the same classes in %.1fs", len(warm), time.Since(t0).Seconds())
	stop, err := startProfile(cpuprofile, "")
	if err != nil {
		return nil, err
	}
	defer stop()
	// Queries run one at a time, so the process's CPU time over a query is the query's, on
	// every thread it used (snippets are cut beside the querying goroutine; the garbage
	// collector counts too). The machine may be shared: wall time then includes waiting.
	out := make([]timing, 0, len(qs))
	for _, q := range qs {
		qctx, cancel := context.WithTimeout(ctx, timeout)
		c0, start := cpuTime(), time.Now()
		o, err := e.run(qctx, q.text, limit)
		d, c := time.Since(start), cpuTime()-c0
		timedOut := qctx.Err() != nil
		cancel()
		if err != nil && !timedOut {
			return nil, fmt.Errorf("query %q: %w", q.text, err)
		}
		o.timedOut = timedOut
		t := timing{q: q, d: d, cpu: c, out: o}
		if window {
			qctx, cancel := context.WithTimeout(ctx, timeout)
			c0, start := cpuTime(), time.Now()
			approx, err := e.runFacets(qctx, q.text)
			t.fd, t.fcpu, t.fapprox = time.Since(start), cpuTime()-c0, approx
			timedOut := qctx.Err() != nil
			cancel()
			if err != nil && !timedOut {
				return nil, fmt.Errorf("facets %q: %w", q.text, err)
			}
			t.out.timedOut = t.out.timedOut || timedOut
		}
		out = append(out, t)
	}
	return out, nil
}

// startProfile writes a CPU profile to file+suffix until stop is called (nothing if file is
// empty).
func startProfile(file, suffix string) (stop func(), err error) {
	if file == "" {
		return func() {}, nil
	}
	f, err := os.Create(file + suffix)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// report is everything one run measured.
type report struct {
	Pages  int    `json:"pages"`
	API    string `json:"api"`
	Limit  int    `json:"limit"`
	Facets bool   `json:"facets"`
	// FacetsHow says how facets were asked: "off", "window" (the window's way: results,
	// then a second request for the facets alone, timed apart) or "together" (one call).
	FacetsHow   string   `json:"facetsHow"`
	Gen         genStats `json:"gen"`
	Generated   bool     `json:"generated"` // false: the cached workspace was reused
	ColdOpenMs  float64  `json:"coldOpenMs"`
	ColdFirstMs float64  `json:"coldFirstQueryMs"`
	ColdVocabMs float64  `json:"coldVocabularyMs"` // the vocabulary's reading on the cold open
	// ColdVocabSinceMs is from the cold open until the vocabulary was seen in memory, once
	// the first query was answered.
	ColdVocabSinceMs float64      `json:"coldVocabularyReadyMs"`
	VocabFile        bool         `json:"vocabularyFile"`        // the file of the index's terms was there at the cold open
	Evicted          bool         `json:"evicted"`               // the OS cache was dropped before the cold open
	CacheWarmMs      float64      `json:"cacheWarmMs,omitempty"` // reading the files into the OS cache before the timed queries (-evict=false)
	WarmFirstMs      float64      `json:"warmFirstQueryMs"`
	VocabMs          float64      `json:"vocabularyMs"` // reading the vocabulary at open, as the window does
	LoadBefore       string       `json:"loadBefore"`
	LoadAfter        string       `json:"loadAfter"`
	All              classStats   `json:"all"`
	Classes          []classStats `json:"classes"`
	// With FacetsHow "window": the facets request alone, by class, and results + facets.
	FacetsAll     *classStats  `json:"facetsAll,omitempty"`
	FacetsClasses []classStats `json:"facetsClasses,omitempty"`
	BothAll       *classStats  `json:"resultsPlusFacetsAll,omitempty"`
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func (r *report) print(w io.Writer, ts []timing, slowest int) {
	facets := map[string]string{"off": "facets off", "together": "facets on, in the same call",
		"window": "facets on as the window asks: results first, facets in a second request"}[r.FacetsHow]
	fmt.Fprintf(w, "\nsearch latency, %d pages (%s, limit %d, snippets on, %s)\n", r.Pages, r.API, r.Limit, facets)
	if r.Generated {
		fmt.Fprintf(w, "generated in %.0fs: ", r.Gen.Seconds)
	} else {
		fmt.Fprintf(w, "cached workspace (generated in %.0fs): ", r.Gen.Seconds)
	}
	fmt.Fprintf(w, "%d index rows, %d links, %.2f GB on disk, %.0f MB of indexed text\n",
		r.Gen.FTSRows, r.Gen.Links, float64(r.Gen.Bytes)/1e9, float64(r.Gen.TextBytes)/1e6)
	ev := "OS cache kept"
	if r.Evicted {
		ev = "OS cache dropped"
	}
	fmt.Fprintf(w, "cold open %.1f ms + first query %.1f ms (%s); first query after a warm reopen %.1f ms\n",
		r.ColdOpenMs, r.ColdFirstMs, ev, r.WarmFirstMs)
	file := "no file of its terms"
	if r.VocabFile {
		file = "from the file of its terms"
	}
	fmt.Fprintf(w, "vocabulary read into memory in %.0f ms on the cold open (%s; seen ready %.0f ms after the open, once the first query was answered); at a later open in %.0f ms\n",
		r.ColdVocabMs, file, r.ColdVocabSinceMs, r.VocabMs)
	fmt.Fprintf(w, "load average before %s, after %s\n\n", r.LoadBefore, r.LoadAfter)
	if r.FacetsHow == "window" {
		fmt.Fprintf(w, "results request (what the window waits for before it shows the results):\n")
	}
	table := func(cs []classStats, capped string) {
		fmt.Fprintf(w, "%-12s %5s %8s %8s %8s %8s %8s %8s %8s %9s %6s %6s %6s %4s\n", "class", "n", "p50 ms", "p90 ms", "p99 ms", "max ms", "mean ms",
			"cpu p50", "cpu p99", "mean hits", "empty", capped, "fixed", "t/o")
		for _, c := range cs {
			fmt.Fprintf(w, "%-12s %5d %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %9.0f %6d %6d %6d %4d\n",
				c.Class, c.N, c.P50, c.P90, c.P99, c.Max, c.Mean, c.CPU50, c.CPU99, c.Hits, c.Empty, c.Approx, c.Fixed, c.Timeout)
		}
	}
	table(append(slices.Clone(r.Classes), r.All), "capped")
	if r.FacetsAll != nil {
		fmt.Fprintf(w, "\nfacets request (sent once the results are shown; \"approx\": counts estimated from a sample):\n")
		table(append(slices.Clone(r.FacetsClasses), *r.FacetsAll), "approx")
		b := *r.BothAll
		fmt.Fprintf(w, "\nresults + facets (until the facets are filled in, without the window's %s pause between): p50 %.2f, p90 %.2f, p99 %.2f, max %.2f ms\n",
			"150 ms", b.P50, b.P90, b.P99, b.Max)
	}
	if slowest > 0 {
		sorted := slices.Clone(ts)
		slices.SortFunc(sorted, func(a, b timing) int { return int(b.d - a.d) })
		fmt.Fprintf(w, "\nslowest queries:\n")
		for _, t := range sorted[:min(slowest, len(sorted))] {
			fmt.Fprintf(w, "  %8.2f ms (cpu %8.2f)  %-11s %8d hits  %s\n", ms(t.d), ms(t.cpu), t.q.class, t.out.total, t.q.text)
		}
		if r.FacetsAll != nil {
			slices.SortFunc(sorted, func(a, b timing) int { return int(b.fd - a.fd) })
			fmt.Fprintf(w, "\nslowest facets requests:\n")
			for _, t := range sorted[:min(slowest, len(sorted))] {
				fmt.Fprintf(w, "  %8.2f ms (cpu %8.2f)  %-11s %8d hits  %s\n", ms(t.fd), ms(t.fcpu), t.q.class, t.out.total, t.q.text)
			}
		}
	}
	js, _ := json.Marshal(r)
	fmt.Fprintf(w, "\nBENCH-SEARCH %s\n", js)
}

// writeTSV writes every timed query, for reproducing slow ones with -query.
func writeTSV(file string, ts []timing) error {
	var b strings.Builder
	b.WriteString("class\twall_ms\tcpu_ms\thits\tfacets_ms\tquery\n")
	for _, t := range ts {
		fmt.Fprintf(&b, "%s\t%.2f\t%.2f\t%d\t%.2f\t%s\n", t.q.class, ms(t.d), ms(t.cpu), t.out.total, ms(t.fd), t.q.text)
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}

// readThrough reads the files to their end, into the OS page cache.
func readThrough(paths ...string) error {
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		_, err = io.Copy(io.Discard, f)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
