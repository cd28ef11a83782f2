package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"mundaneum/backend/crawl"
	"mundaneum/backend/store"
)

// progressBar draws a crawl's progress: a live line on a terminal, a line every few seconds
// otherwise (logs, cron). It shows only what never moves back: the pages dealt with, the
// queue, the rate, the time, and a bar (with an ETA) only when a limit says what the end is;
// a growing queue says nothing of it.
type progressBar struct {
	w     io.Writer
	tty   bool
	last  time.Time
	drawn bool
	spin  int
}

func newProgressBar(w io.Writer, tty bool) *progressBar { return &progressBar{w: w, tty: tty} }

const barWidth = 24

// everyLine is how often a line is written when the output is not a terminal.
const everyLine = 5 * time.Second

func (b *progressBar) update(p crawl.Progress) {
	now := time.Now()
	if !b.tty {
		if now.Sub(b.last) < everyLine && p.State == store.CrawlRunning {
			return
		}
		b.last = now
		fmt.Fprintln(b.w, b.line(p))
		return
	}
	if now.Sub(b.last) < 100*time.Millisecond && p.State == store.CrawlRunning {
		return
	}
	b.last = now
	head := ""
	if p.Done >= 0 {
		fill := int(p.Done * barWidth)
		head = fmt.Sprintf("%s %3.0f%% ", strings.Repeat("█", fill)+strings.Repeat("░", barWidth-fill), p.Done*100)
	} else if p.State == store.CrawlRunning {
		head = string("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"[3*(b.spin%10):3*(b.spin%10)+3]) + " "
		b.spin++
	}
	fmt.Fprintf(b.w, "\r\x1b[K%s%s", head, b.line(p))
	b.drawn = true
}

func (b *progressBar) line(p crawl.Progress) string {
	pages := p.Pages
	if pages == nil { // before the first committed count
		pages = map[string]int64{store.StateFetched: p.Fetched, store.StateFailed: p.Failed, store.StateSkipped: p.Skipped}
	}
	// The links recorded, not pages, are no pages the crawl left out: named apart, a good
	// crawl does not read as a failing one (store.Recorded).
	parts := []string{
		fmt.Sprintf("%d fetched", pages[store.StateFetched]),
		fmt.Sprintf("%d failed", pages[store.StateFailed]),
	}
	if n := pages[store.StateSkipped]; n > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped", n))
	}
	if n := pages[store.Recorded]; n > 0 {
		parts = append(parts, recordedWords(n))
	}
	parts = append(parts,
		fmt.Sprintf("%d to visit", p.Queued),
		fmt.Sprintf("%.1f pages/s", p.PagesPerSec),
		humanBytes(int64(p.BytesPerSec))+"/s",
		p.Elapsed.Round(time.Second).String(),
	)
	if p.Done >= 0 && p.ETA > 0 && p.State == store.CrawlRunning {
		parts = append(parts, "about "+p.ETA.Round(time.Second).String()+" left")
	}
	if p.State == store.CrawlRunning && p.Note == "" && !p.Index.Missing {
		parts = append(parts, fmt.Sprintf("%d searchable", p.Index.Indexed))
	}
	if p.Note != "" && p.State == store.CrawlRunning {
		parts = append(parts, clean(p.Note))
	} else if p.Current != "" {
		cur := clean(p.Current)
		if b.tty && len(cur) > 60 {
			cur = cur[:57] + "..."
		}
		parts = append(parts, cur)
	}
	return strings.Join(parts, " · ")
}

func (b *progressBar) done() {
	if b.tty && b.drawn {
		fmt.Fprintln(b.w)
	}
}

// recordedWords names the links recorded, not pages: "1680 links recorded, not pages".
func recordedWords(n int64) string {
	if n == 1 {
		return "1 link recorded, not a page"
	}
	return fmt.Sprintf("%d links recorded, not pages", n)
}

// skipReasonWords say why a row is skipped, by its reason (crawl's closed set).
var skipReasonWords = map[string]string{
	"scope":          "out of the crawl's scope (other sites)",
	"type":           "not HTML or text (style sheets, scripts, images, files)",
	"rule":           "refused by the crawl's rules",
	"robots":         "disallowed by robots.txt",
	"depth":          "beyond the depth limit",
	"nofollow":       "marked nofollow",
	"host-limit":     "over the per-host cap",
	"query-variants": "over the query-variant budget",
	"trap":           "spider traps",
}

// skipWhy says what the links recorded and the skipped pages are, by reason, most first:
// "links recorded, not pages: 1674 out of the crawl's scope (other sites), 6 not HTML or
// text (...)"; "" when there are none.
func skipWhy(reasons map[string]int64) string {
	var recorded, skipped []string
	byWords := map[string]int64{}
	for r, n := range reasons {
		w, ok := skipReasonWords[r]
		if !ok {
			w = r
			if base, _, cut := strings.Cut(r, ":"); cut && skipReasonWords[base] != "" {
				w = skipReasonWords[base]
			}
		}
		if store.IsRecorded(r) {
			w = "recorded\x00" + w
		}
		byWords[w] += n
	}
	keys := make([]string, 0, len(byWords))
	for w, n := range byWords {
		if n > 0 {
			keys = append(keys, w)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if byWords[keys[i]] != byWords[keys[j]] {
			return byWords[keys[i]] > byWords[keys[j]]
		}
		return keys[i] < keys[j]
	})
	for _, w := range keys {
		if rest, ok := strings.CutPrefix(w, "recorded\x00"); ok {
			recorded = append(recorded, fmt.Sprintf("%d %s", byWords[w], rest))
		} else {
			skipped = append(skipped, fmt.Sprintf("%d %s", byWords[w], w))
		}
	}
	var lines []string
	if len(recorded) > 0 {
		lines = append(lines, "links recorded, not pages: "+strings.Join(recorded, ", "))
	}
	if len(skipped) > 0 {
		lines = append(lines, "pages skipped: "+strings.Join(skipped, ", "))
	}
	return strings.Join(lines, "\n")
}

// thousands writes n with commas, as the index's summary does: 1,169.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
