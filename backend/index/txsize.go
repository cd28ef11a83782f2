package index

import (
	"context"
	"fmt"
)

// How large one of the stage's transactions is. A transaction's every page goes through the
// index's write-ahead log, which cannot be emptied before the transaction ends: the log is
// at least as large as the largest transaction. FTS5 merges segments inside the
// transactions that write rows (automerge), in proportion to the rows written and to the
// number of levels of segments, so a batch of batchPages pages that writes 25 MB to a small
// index writes several times that to a large one (13,000-19,000 pages of log a batch at
// 20,000-30,000 rows, docs/benchmarks.md "wal-cap"). The stage measures what each of its
// writes left in the log and takes fewer pages a batch while that passes txTarget, more
// again (up to batchPages) while it stays under half of it.

// txTarget is the most bytes of log one of the stage's transactions should write (a
// variable for tests).
var txTarget int64 = 96 << 20

// minBatch is the fewest pages a batch takes.
const minBatch = 16

// pages is how many pages the next batch takes.
func (s *stage) pages() int {
	if n := s.batch.Load(); n > 0 {
		return int(n)
	}
	return batchPages
}

// sized adjusts the batch to what the transaction that wrote n pages left in the log.
func (s *stage) sized(ctx context.Context, n int) error {
	if n <= 0 {
		return nil
	}
	logBytes, err := s.logBytes(ctx)
	if err != nil {
		return err
	}
	cur := s.pages()
	switch {
	case logBytes > txTarget:
		// As many pages as would have written txTarget at this transaction's rate.
		s.batch.Store(int64(max(minBatch, min(cur, int(int64(n)*txTarget/logBytes)))))
	case logBytes < txTarget/2 && cur < batchPages:
		s.batch.Store(int64(min(batchPages, cur+max(cur/4, 1))))
	}
	return nil
}

// logBytes is the size of the frames in the index's log (walcap's Held): a log that
// restarted when the transaction began holds that transaction's frames only (else more:
// the batch shrinks sooner, never later).
func (s *stage) logBytes(ctx context.Context) (int64, error) {
	n, err := s.walCap.Held(ctx, s.x.db)
	if err != nil {
		return 0, fmt.Errorf("index: %w", err)
	}
	return n, nil
}
