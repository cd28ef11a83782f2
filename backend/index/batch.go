package index

import (
	"slices"

	"mundaneum/backend/store"
)

// batch is the next log notes to apply, worked out before they are applied.
type batch struct {
	n       int            // notes consumed
	last    store.LogEntry // the last of them
	docs    []int64        // pages to (re)index
	anchors []int64        // pages whose incoming anchor text only changed
}

// nextBatch takes notes from es while they name at most s.pages() pages, skipping those a
// row already includes (see covers) and those about the pages of skip (a batch being
// written, whose rows will include every note read so far).
func (s *stage) nextBatch(es []store.LogEntry, skip map[int64]bool) batch {
	var b batch
	pages := map[int64]bool{} // page -> anchors only
	var order []int64
	for _, e := range es {
		if skip[e.PageID] || s.covered.has(e.PageID, e.Seq) {
			b.n++ // its row was or is written from what the page became later
			continue
		}
		only, seen := pages[e.PageID]
		if !seen {
			if len(order) >= s.pages() {
				break
			}
			order = append(order, e.PageID)
			pages[e.PageID] = e.AnchorsOnly
		} else if only && !e.AnchorsOnly {
			pages[e.PageID] = false
		}
		b.n++
	}
	b.last = es[b.n-1]
	for _, id := range order {
		if pages[id] {
			b.anchors = append(b.anchors, id)
		} else {
			b.docs = append(b.docs, id)
		}
	}
	return b
}

// inputs are what the workspace stores of a batch's pages, read at one moment: every note
// up to end is reflected in them.
type inputs struct {
	ids []int64
	ins []store.IndexInput
	end int64
	err error
}

// read reads the pages ids as they are now.
func (s *stage) read(ids []int64) (*inputs, error) {
	in := &inputs{ids: ids}
	// The rows are written from what the pages are now: every note up to here is in them.
	if in.end, in.err = s.x.src.IndexLogEnd(s.ctx); in.err != nil {
		return nil, in.err
	}
	if in.ins, in.err = s.x.src.IndexInputs(s.ctx, ids); in.err != nil {
		return nil, in.err
	}
	return in, nil
}

// readAhead starts reading the pages of the next batch on a goroutine of its own.
func (s *stage) readAhead(ids []int64) {
	ch := make(chan *inputs, 1)
	s.ahead = &ahead{ids: ids, ch: ch}
	go func() {
		in, err := s.read(ids)
		if err != nil {
			in = &inputs{ids: ids, err: err}
		}
		ch <- in
	}()
}

// ahead is a batch being read on the side.
type ahead struct {
	ids []int64
	ch  chan *inputs
}

// takeAhead returns the pages read ahead when they are ids, or nil (what was read ahead is
// then dropped: the batch came out otherwise).
func (s *stage) takeAhead(ids []int64) *inputs {
	a := s.ahead
	if a == nil {
		return nil
	}
	s.ahead = nil
	in := <-a.ch
	if in.err != nil || !slices.Equal(a.ids, ids) {
		return nil
	}
	return in
}
