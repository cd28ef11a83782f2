package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"mundaneum/app"
	"mundaneum/backend/index"
	"mundaneum/backend/store"
	"mundaneum/backend/vocab"
)

// workspace is an open workspace with its search index.
type workspace struct {
	st  *store.Store
	idx *index.Index
}

func (w *workspace) Close() error {
	err := w.idx.Close()
	if err2 := w.st.Close(); err == nil {
		err = err2
	}
	return err
}

// openIndexed opens the workspace and its index: for writing, the index follows the
// workspace in the background (and is rebuilt when stale); read-only, it is read as the
// process writing the workspace left it.
func (e *env) openIndexed(ctx context.Context, readOnly bool) (*workspace, error) {
	st, err := e.open(ctx, readOnly)
	if err != nil {
		return nil, err
	}
	idx, err := index.Open(ctx, st)
	if err != nil {
		st.Close()
		return nil, err
	}
	idx.KeepVocabularyFile(vocab.WriteFile) // when idle: the first search after a crawl has it at once
	return &workspace{st: st, idx: idx}, nil
}

// openSearchable opens the workspace for searching: read-only, so that it works while
// another process crawls; but when the index lags and no other process writes the
// workspace (nobody else will bring it up to date), it catches up first, showing how far
// it is on stderr.
func (e *env) openSearchable(ctx context.Context) (*workspace, error) {
	w, err := e.openIndexed(ctx, true)
	if err != nil {
		return nil, err
	}
	if w.idx.Progress(ctx).Current() || w.st.WriterActive() {
		return w, nil
	}
	w.Close()
	if w, err = e.openIndexed(ctx, false); err != nil {
		return nil, err
	}
	bar := newIndexBar(e.stderr, isTerminal(e.stderr))
	err = w.idx.Wait(ctx, bar.update)
	bar.done()
	if err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

func (e *env) reindexCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "reindex",
		Short: "Rebuild the search index from the stored pages",
		Long: `Rebuild the workspace's search index from the pages it stores (nothing is fetched),
with progress on stderr: after a change of tokenizer or ranking, or to recover. It also
builds the index of word pairs (fast phrase search) and merges the index, which the
window and 'mundaneum serve' otherwise do in the background.

The index is a file beside the workspace ("<workspace>-index"); a missing or stale one is
rebuilt by itself whenever the workspace is opened for writing.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return e.reindex(cmd.Context())
		},
	}
}

func (e *env) reindex(ctx context.Context) error {
	w, err := e.openIndexed(ctx, false)
	if err != nil {
		return err
	}
	defer w.Close()
	start := time.Now()
	bar := newIndexBar(e.stderr, isTerminal(e.stderr))
	err = w.idx.Rebuild(ctx, bar.update)
	bar.done()
	if err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return err
	}
	p := w.idx.Progress(ctx)
	if e.json {
		return e.printJSON(struct {
			app.IndexStatus
			Seconds float64 `json:"seconds"`
		}{app.IndexStatusOf(ctx, w.st, p), time.Since(start).Seconds()})
	}
	fmt.Fprintf(e.stdout, "search index rebuilt: %s in %.1fs\n", p, time.Since(start).Seconds())
	return nil
}

// indexBar shows the index catching up: a live line on a terminal, a line every few
// seconds otherwise.
type indexBar struct {
	w     io.Writer
	tty   bool
	last  time.Time
	drawn bool
}

func newIndexBar(w io.Writer, tty bool) *indexBar { return &indexBar{w: w, tty: tty} }

func (b *indexBar) update(p index.Progress) {
	now := time.Now()
	every := 5 * time.Second
	if b.tty {
		every = 200 * time.Millisecond
	}
	if now.Sub(b.last) < every {
		return
	}
	b.last = now
	line := "indexing: " + p.String()
	switch {
	case p.Pairs.Words == 0 || p.Pairs.Complete:
	case p.Pairs.Missing > 0:
		line += fmt.Sprintf(" · phrase index: %d rows behind", p.Pairs.Missing)
	default:
		line += fmt.Sprintf(" · phrase index %d of %d rows", p.Pairs.Done, p.Pairs.Total)
	}
	if b.tty {
		fmt.Fprintf(b.w, "\r\x1b[K%s", line)
		b.drawn = true
		return
	}
	fmt.Fprintln(b.w, line)
}

func (b *indexBar) done() {
	if b.tty && b.drawn {
		fmt.Fprintln(b.w)
	}
}
