package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"mundaneum/backend/crawl"
)

// progressBar draws a crawl's progress: a live bar on a terminal, a line every few seconds
// otherwise (logs, cron).
type progressBar struct {
	w     io.Writer
	tty   bool
	last  time.Time
	drawn bool
}

func newProgressBar(w io.Writer, tty bool) *progressBar { return &progressBar{w: w, tty: tty} }

const barWidth = 24

func (b *progressBar) update(p crawl.Progress) {
	now := time.Now()
	if !b.tty {
		if now.Sub(b.last) < 5*time.Second && p.State == "running" {
			return
		}
		b.last = now
		fmt.Fprintln(b.w, b.line(p))
		return
	}
	if now.Sub(b.last) < 100*time.Millisecond && p.State == "running" {
		return
	}
	b.last = now
	done := p.Fetched + p.Failed + p.Skipped
	frac := 0.0
	if total := done + p.Queued; total > 0 {
		frac = float64(done) / float64(total)
	}
	fill := int(frac * barWidth)
	bar := strings.Repeat("█", fill) + strings.Repeat("░", barWidth-fill)
	fmt.Fprintf(b.w, "\r\x1b[K%s %3.0f%% %s", bar, frac*100, b.line(p))
	b.drawn = true
}

func (b *progressBar) line(p crawl.Progress) string {
	s := fmt.Sprintf("%d fetched · %d queued · %d failed · %d skipped · %.1f pages/s · %s/s · %s",
		p.Fetched, p.Queued, p.Failed, p.Skipped, p.PagesPerSec, humanBytes(int64(p.BytesPerSec)), p.Elapsed.Round(time.Second))
	switch {
	case p.Note != "" && p.State == "running":
		s += " · " + p.Note
	case p.State == "running" && !p.Index.Missing:
		s += fmt.Sprintf(" · %d searchable", p.Index.Indexed)
	}
	return s
}

func (b *progressBar) done() {
	if b.tty && b.drawn {
		fmt.Fprintln(b.w)
	}
}
