package app

import (
	"context"
	"time"

	"mundaneum/backend/index"
)

// IndexStatus is how far behind the workspace its search index is: searches find only what
// is indexed.
type IndexStatus struct {
	Searchable int64 `json:"searchable"` // rows of the index: pages, and files known from links
	// SearchablePages and SearchableFiles split Searchable (store.Counts.Searchable): the
	// pages, and the files known from links (never fetched) found by what cites them.
	SearchablePages int64  `json:"searchablePages"`
	SearchableFiles int64  `json:"searchableFiles"`
	Waiting         int64  `json:"waiting"`  // fetched pages not searchable yet
	Updating        int64  `json:"updating"` // searchable pages whose changes are not indexed yet
	Current         bool   `json:"current"`  // everything stored is searchable
	Rebuilding      bool   `json:"rebuilding"`
	Reason          string `json:"reason"` // why it is being rebuilt
	// PhraseIndex is how far the index of word pairs (fast phrases) is built, 0-100, or -1
	// when the workspace is too small to need one yet.
	PhraseIndex int `json:"phraseIndex"`
	// PhraseBehind is how many searchable rows still lack their pairs: written while the
	// index followed a crawl, they get them once it is idle (phrases are found meanwhile,
	// from the word index).
	PhraseBehind int64  `json:"phraseBehind"`
	Error        string `json:"error"`
	Summary      string `json:"summary"` // e.g. "12,400 of 20,000 pages searchable"
}

// indexStatus is w's index's progress with its rows split into pages and files.
func (w *workspace) indexStatus(ctx context.Context, p index.Progress) IndexStatus {
	return IndexStatusOf(ctx, w.st, p)
}

func indexDTO(p index.Progress) IndexStatus {
	pairs := -1
	switch {
	case p.Pairs.Complete && p.Pairs.Words > 0:
		pairs = 100
	case p.Pairs.Words > 0 && p.Pairs.Total > 0:
		pairs = min(int(100*p.Pairs.Done/p.Pairs.Total), 99)
	}
	return IndexStatus{Searchable: p.Indexed, Waiting: p.Waiting, Updating: p.Updating, Current: p.Current(),
		Rebuilding: p.Rebuilding || p.Missing, Reason: p.Reason, PhraseIndex: pairs, PhraseBehind: p.Pairs.Missing, Error: p.Err, Summary: p.String()}
}

// IndexStatus says how far behind the workspace its search index is.
func (a *App) IndexStatus() (IndexStatus, error) {
	w, ctx := a.ws(), context.Background()
	return w.indexStatus(ctx, w.idx.Progress(ctx)), nil
}

// RebuildIndex empties the search index and indexes every stored page again, in the
// background (after a change of tokenizer or ranking, or to recover); IndexStatus and the
// "index:progress" events follow it, "index:done" ends it.
func (a *App) RebuildIndex() error {
	w := a.ws()
	if err := w.idx.StartRebuild(); err != nil {
		return err
	}
	go func() {
		ctx := context.Background()
		last := time.Time{}
		err := w.idx.Settle(ctx, func(p index.Progress) {
			if time.Since(last) >= 250*time.Millisecond {
				last = time.Now()
				a.emit(EventIndexProgress, w.indexStatus(ctx, p))
			}
		})
		dto := w.indexStatus(ctx, w.idx.Progress(ctx))
		if err != nil {
			dto.Error = err.Error()
		}
		a.emit(EventIndexDone, dto)
	}()
	return nil
}
