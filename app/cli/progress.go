package cli

import (
	"fmt"
	"io"
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
	parts := []string{
		fmt.Sprintf("%d fetched", pages[store.StateFetched]),
		fmt.Sprintf("%d failed", pages[store.StateFailed]),
		fmt.Sprintf("%d skipped", pages[store.StateSkipped]),
		fmt.Sprintf("%d to visit", p.Queued),
		fmt.Sprintf("%.1f pages/s", p.PagesPerSec),
		humanBytes(int64(p.BytesPerSec)) + "/s",
		p.Elapsed.Round(time.Second).String(),
	}
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
