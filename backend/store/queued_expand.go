package store

import (
	"context"
	"fmt"
)

// The crawl's writes first: when the expander expands.
//
// The expansion of link packs runs on the one writer that also commits the crawl's pages;
// while a crawl keeps the writer busy (a fast site), every expansion holds back the pages
// waiting behind it (docs/benchmarks.md, "crawl-speed": 7.5 s of the writer's time per
// 10,001 pages). So the expander waits for one of three things:
//
//   - the writer is idle: nothing else waits for it when the expansion's turn comes; it then
//     expands a small batch (expandIdleBatch, about a tenth of a second of the writer's time)
//     and looks again, so that a page arriving meanwhile waits that long at most;
//   - packs stopped coming (expandQuiet): the crawl paused, ended or is waiting on the
//     network; the packs left are expanded in full batches;
//   - expandCap packs wait: readers of links (the graph, the page view, checks) read the
//     packs not expanded through the view link_pending, parsing each one, so their number
//     is bounded; at the cap the expander expands a full batch whether the writer is busy
//     or not.
//
// The end of a crawl run (ExpandLinks) and the index's wait expand everything, as before.

const (
	// expandCap is the most packs that may wait while the writer is busy. A reader's scan
	// of them (the links to one page) parses every one: with 20 links a pack, 28 ms at
	// 1,024 packs, 130 ms at 4,096 and 270-340 ms at 8,192 on a quiet machine
	// (BenchmarkLinksPendingRead). It is expandBatch, the pacing before the idle batches:
	// with the cap at 4,096 the acceptance check was slower than that pacing in three
	// rounds out of three (perhaps: a page indexed before the links to it are expanded is
	// indexed again when they are), at 8,192 faster in three under heavier load; raise it only
	// with a measurement on a quiet machine (docs/benchmarks.md, "crawl-queued").
	expandCap = expandBatch
	// expandIdleBatch is how many pages' packs one expansion writes when the writer is idle.
	expandIdleBatch = 128
)

// expandMode is what the expander does next.
type expandMode int

const (
	expandWait expandMode = iota // nothing due: wait for a commit or the quiet
	expandIdle                   // expand a small batch if the writer has nothing else to do
	expandFull                   // expand a full batch now (the cap, or packs stopped coming)
)

// expandIfIdle expands up to limit pages' packs in one writer operation, unless other
// operations wait for the writer when it runs (busy). The test runs on the writer's
// goroutine, in the operation: what waits then is what the expansion would hold back.
func (s *Store) expandIfIdle(ctx context.Context, limit int) (n int, busy bool, err error) {
	type result struct {
		n    int
		busy bool
	}
	r, err := Get(ctx, s.writer, func(tx *Tx) (result, error) {
		if len(s.writer.ops) > 0 {
			return result{busy: true}, nil
		}
		n, err := s.expandLinks(ctx, tx, limit)
		return result{n: n}, err
	})
	if err != nil {
		return 0, false, fmt.Errorf("expand links: %w", err)
	}
	return r.n, r.busy, nil
}
