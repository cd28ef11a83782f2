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
func markdown(runs []corpusRun, what string, took time.Duration, floor float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s with %s; the whole check took %s.\n",
		time.Now().UTC().Format("2006-01-02"), what, took.Round(time.Second))
	if floor > 0 {
		fmt.Fprintf(&b, "Floor (testdata/relevance/floor.txt): Mundaneum MRR@10 on %s >= %.3f.\n", corpora[0].Name, floor)
	}
	for _, r := range runs {
		writeCorpus(&b, r)
	}
	return b.String()
}

func writeCorpus(b *strings.Builder, r corpusRun) {
	role := "confirmation set, not tuned on"
	if r.C.Tuned {
		role = "tuning set"
	}
	fmt.Fprintf(b, "\n### %s (`%s`, %s)\n\n", r.C.Title, r.C.Package, role)
	if r.Skipped != "" {
		fmt.Fprintf(b, "Skipped: %s.\n", r.Skipped)
		return
	}
	m, x := r.Engines[0], r.Engines[1]
	fmt.Fprintf(b, "%d pages crawled from %s in %s; Xapian indexed the same pages in %s; corpus done in %s.\n",
		r.Pages, r.C.Root, m.Prepare.Round(100*time.Millisecond), x.Prepare.Round(100*time.Millisecond),
		r.Took.Round(100*time.Millisecond))
	if len(r.NotCrawled) > 0 {
		fmt.Fprintf(b, "**Expected pages the crawler never fetched:** %s.\n", strings.Join(r.NotCrawled, ", "))
	}
	b.WriteString("\n| engine | MRR@10 | S@1 | S@10 | queries | median per query |\n|---|---:|---:|---:|---:|---:|\n")
	for _, e := range r.Engines {
		s := summarize(e.Results, nil)
		fmt.Fprintf(b, "| %s | %.3f | %.3f | %.3f | %d | %s |\n", e.Name, s.MRR, s.S1, s.S10, s.N,
			medianTook(e.Results).Round(time.Millisecond))
	}
	b.WriteString("\nMRR@10 by kind of query:\n\n| kind | queries | Mundaneum | Xapian |\n|---|---:|---:|---:|\n")
	for _, k := range []string{"api", "howto", "concept", "typo", "phrase"} {
		keep := func(i int) bool { return r.Queries[i].Kind == k }
		ms, xs := summarize(m.Results, keep), summarize(x.Results, keep)
		if ms.N > 0 {
			fmt.Fprintf(b, "| %s | %d | %.3f | %.3f |\n", k, ms.N, ms.MRR, xs.MRR)
		}
	}
	fmt.Fprintf(b, "\nMundaneum's %d worst queries (rank of the expected page; – = not in the first %d):\n\n", worstShown, cutoff)
	b.WriteString("| query | expected | Mundaneum | Xapian | Mundaneum's first result |\n|---|---|---:|---:|---|\n")
	for n, i := range worst(m.Results, x.Results) {
		if n == worstShown {
			break
		}
		first := "(nothing)"
		if hs := m.Results[i].Hits; len(hs) > 0 {
			title := "(no title)"
			if t := cell(hs[0].Title); t != "" {
				title = "“" + t + "”"
			}
			first = hs[0].Path + " " + title
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", code(r.Queries[i].Text), r.Queries[i].Expected,
			rank(m.Results[i]), rank(x.Results[i]), first)
	}
	b.WriteString("\n<details><summary>Rank of the expected page, per query</summary>\n\n")
	b.WriteString("| query | kind | expected | Mundaneum | Xapian |\n|---|---|---|---:|---:|\n")
	for i, q := range r.Queries {
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", code(q.Text), q.Kind, q.Expected, rank(m.Results[i]), rank(x.Results[i]))
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
