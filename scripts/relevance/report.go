package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// engineRun is one engine's results on one corpus, parallel to the corpus's queries.
type engineRun struct {
	Name    string
	Results []result
	Prepare time.Duration // crawl (Mundaneum) or copy and index (Xapian)
}

// corpusRun is everything the check learned about one corpus.
type corpusRun struct {
	C          corpus
	Skipped    string // why the corpus was not run; "" when it was
	Queries    []query
	Pages      int      // pages the crawler fetched (and the baseline indexed)
	NotCrawled []string // expected pages the crawler never fetched
	Engines    []engineRun
	Took       time.Duration
}

// Markers delimit the part of docs/relevance.md the check rewrites with -write-docs.
const (
	beginMarker = "<!-- BEGIN relevance results: written by `go run ./scripts/relevance -write-docs` -->"
	endMarker   = "<!-- END relevance results -->"
)

// worstShown is how many of Mundaneum's worst queries the report lists.
const worstShown = 10

// markdown renders the results as Markdown, readable as plain text too.
func markdown(runs []corpusRun, what string, took time.Duration, floors map[string]float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s with %s; the whole check took %s.\n",
		time.Now().UTC().Format("2006-01-02"), what, took.Round(time.Second))
	if f := floorList(runs, floors); f != "" {
		fmt.Fprintf(&b, "Floors (testdata/relevance/floor.txt, on all of a corpus's queries): Mundaneum MRR@10 %s.\n", f)
	}
	writeSummary(&b, runs)
	for _, r := range runs {
		writeCorpus(&b, r)
	}
	return b.String()
}

func floorList(runs []corpusRun, floors map[string]float64) string {
	var parts []string
	for _, r := range runs {
		if f, ok := floors[r.C.Name]; ok {
			parts = append(parts, fmt.Sprintf(">= %.3f on %s", f, r.C.Name))
		}
	}
	return strings.Join(parts, ", ")
}

// splitName names the split a query comes from.
func splitName(q query) string {
	if q.HeldOut {
		return "held-out"
	}
	return "tuning"
}

// pooled is the results of both engines over the queries of several corpora.
type pooled struct {
	qs   []query
	m, x []result
}

func (p *pooled) add(r corpusRun) {
	if r.Skipped != "" {
		return
	}
	p.qs = append(p.qs, r.Queries...)
	p.m = append(p.m, r.Engines[0].Results...)
	p.x = append(p.x, r.Engines[1].Results...)
}

// row writes one table row of both engines' metrics over the queries keep accepts; nothing
// when it accepts none.
func (p *pooled) row(b *strings.Builder, label string, keep func(q query) bool) {
	k := func(i int) bool { return keep(p.qs[i]) }
	ms, xs := summarize(p.m, k), summarize(p.x, k)
	if ms.N == 0 {
		return
	}
	fmt.Fprintf(b, "| %s | %d | %.3f | %.3f | %+.3f | %.3f | %.3f | %.3f | %.3f |\n",
		label, ms.N, ms.MRR, xs.MRR, ms.MRR-xs.MRR, ms.S1, xs.S1, ms.S10, xs.S10)
}

// metricsHeader is the head of a table of pooled.row rows labelled by two columns.
func metricsHeader(first, second string) string {
	return "| " + first + " | " + second + " | queries | MRR@10 Mundaneum | MRR@10 Xapian | Δ MRR@10 | S@1 M | S@1 X | S@10 M | S@10 X |\n" +
		"|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
}

var (
	splitOrder = []string{"held-out", "tuning"}
	kindOrder  = []string{"api", "howto", "concept", "typo", "phrase"}
)

// writeSummary writes the figures per corpus and split, pooled over the corpora, and by
// kind of query.
func writeSummary(b *strings.Builder, runs []corpusRun) {
	var all pooled
	for _, r := range runs {
		all.add(r)
	}
	if len(all.qs) == 0 {
		return
	}
	b.WriteString("\n### Summary: Mundaneum against Xapian, per corpus and split\n\n")
	b.WriteString(metricsHeader("corpus", "split"))
	for _, r := range runs {
		var one pooled
		one.add(r)
		for _, sp := range splitOrder {
			one.row(b, r.C.Name+" | "+sp, func(q query) bool { return splitName(q) == sp })
		}
	}
	for _, sp := range splitOrder {
		all.row(b, "**all corpora** | **"+sp+"**", func(q query) bool { return splitName(q) == sp })
	}
	all.row(b, "all corpora | both", func(query) bool { return true })
	b.WriteString("\nBy kind of query, all corpora pooled:\n\n")
	b.WriteString(metricsHeader("kind", "split"))
	for _, k := range kindOrder {
		for _, sp := range splitOrder {
			all.row(b, k+" | "+sp, func(q query) bool { return q.Kind == k && splitName(q) == sp })
		}
	}
}

func writeCorpus(b *strings.Builder, r corpusRun) {
	fmt.Fprintf(b, "\n### %s (`%s`)\n\n", r.C.Title, r.C.Package)
	if r.Skipped != "" {
		fmt.Fprintf(b, "Skipped: %s.\n", r.Skipped)
		return
	}
	m, x := r.Engines[0], r.Engines[1]
	fmt.Fprintf(b, "%d pages crawled from %s in %s; Xapian indexed the same pages in %s; corpus done in %s.\n",
		r.Pages, r.C.Root, m.Prepare.Round(100*time.Millisecond), x.Prepare.Round(100*time.Millisecond),
		r.Took.Round(100*time.Millisecond))
	fmt.Fprintf(b, "Median time per query, process start included: Mundaneum %s, Xapian %s.\n",
		medianTook(m.Results).Round(time.Millisecond), medianTook(x.Results).Round(time.Millisecond))
	if len(r.NotCrawled) > 0 {
		fmt.Fprintf(b, "**Expected pages the crawler never fetched:** %s.\n", strings.Join(r.NotCrawled, ", "))
	}
	var one pooled
	one.add(r)
	b.WriteString("\n" + metricsHeader("kind", "split"))
	for _, k := range kindOrder {
		for _, sp := range splitOrder {
			one.row(b, k+" | "+sp, func(q query) bool { return q.Kind == k && splitName(q) == sp })
		}
	}
	// The worst list guides ranking work, so it shows the tuning split only.
	tuneIdx := func(i int) bool { return !r.Queries[i].HeldOut }
	fmt.Fprintf(b, "\nMundaneum's %d worst queries of the tuning split (rank of the expected page; – = not in the first %d):\n\n", worstShown, cutoff)
	b.WriteString("| query | kind | expected | Mundaneum | Xapian | Mundaneum's first result |\n|---|---|---|---:|---:|---|\n")
	n := 0
	for _, i := range worst(m.Results, x.Results) {
		if n == worstShown {
			break
		}
		if !tuneIdx(i) {
			continue
		}
		n++
		first := "(nothing)"
		if hs := m.Results[i].Hits; len(hs) > 0 {
			title := "(no title)"
			if t := cell(hs[0].Title); t != "" {
				title = "“" + t + "”"
			}
			first = hs[0].Path + " " + title
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", code(r.Queries[i].Text), r.Queries[i].Kind, r.Queries[i].Expected,
			rank(m.Results[i]), rank(x.Results[i]), first)
	}
	b.WriteString("\n<details><summary>Rank of the expected page, per query</summary>\n\n")
	b.WriteString("| query | split | kind | expected | Mundaneum | Xapian |\n|---|---|---|---|---:|---:|\n")
	for i, q := range r.Queries {
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", code(q.Text), splitName(q), q.Kind, q.Expected, rank(m.Results[i]), rank(x.Results[i]))
	}
	b.WriteString("\n</details>\n")
}

func rank(r result) string {
	if r.Err != "" {
		return "error"
	}
	if r.Rank == 0 {
		return "–"
	}
	return strconv.Itoa(r.Rank)
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	return strings.Join(strings.Fields(s), " ")
}

// code shows a query verbatim in a table cell.
func code(s string) string {
	return "`" + strings.ReplaceAll(cell(s), "`", "'") + "`"
}

// writeDocs replaces the results between the markers in file, keeping the rest (the
// hand-written method and analysis); a file without markers gets them appended.
func writeDocs(file, results string) error {
	old, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("read %s: %w", file, err)
	}
	section := beginMarker + "\n" + results + endMarker
	doc := string(old)
	i := strings.Index(doc, beginMarker)
	j := strings.Index(doc, endMarker)
	if i >= 0 && j > i {
		doc = doc[:i] + section + doc[j+len(endMarker):]
	} else {
		doc = strings.TrimRight(doc, "\n") + "\n\n## Results\n\n" + section + "\n"
	}
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	return nil
}
