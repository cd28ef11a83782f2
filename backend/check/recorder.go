package check

import "time"

// recorder keeps a run's verdicts: it counts them for the progress and the run's record,
// and hands them to the saver, taking back the ids and health the store gave them.
type recorder struct {
	saver                       *saver
	err                         error // the first save that failed
	tested, requests, documents int64
	byKind                      map[Kind]int64
	rate                        rate
}

func newRecorder(sv *saver) *recorder { return &recorder{saver: sv, byKind: map[Kind]int64{}} }

// result records t's new result, which replaces old (nil: t's first).
func (c *recorder) result(t *target, old *result) {
	if old != nil { // a page probed first, then fetched for a task that traverses it
		c.byKind[old.v.Kind]--
	} else {
		c.tested++
	}
	c.byKind[t.res.v.Kind]++
	if t.res.isDoc {
		c.documents++
	}
	c.save(t)
}

// part records a part of a page found missing: a verdict of its own, not a test.
func (c *recorder) part(f *target) {
	c.byKind[FragmentMissing]++
	c.save(f)
}

func (c *recorder) save(t *target) {
	c.saver.add(t)
	for _, b := range c.saver.takePending() {
		c.saved(b)
	}
}

// back takes a batch the saver sent and the store saved.
func (c *recorder) back(b savedBatch) {
	c.saver.sent--
	c.saved(b)
}

// close saves what is left.
func (c *recorder) close() {
	for _, b := range c.saver.close() {
		c.saved(b)
	}
}

// saved takes a batch back from the store: ids and health go on the targets.
func (c *recorder) saved(b savedBatch) {
	if b.err != nil {
		c.fail(b.err)
		return
	}
	for i, t := range b.ts {
		t.id = b.saved[i].ID
		t.prev, t.health = b.saved[i].Prev, b.saved[i].Next
	}
}

// fail keeps the first error of saving the run.
func (c *recorder) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

// rate is a smoothed count per second.
type rate struct {
	at  time.Time
	n   int64
	per float64
}

func (r *rate) update(now time.Time, n int64) float64 {
	if r.at.IsZero() {
		r.at, r.n = now, n
		return 0
	}
	dt := now.Sub(r.at).Seconds()
	if dt < 0.2 {
		return r.per
	}
	cur := float64(n-r.n) / dt
	if r.per == 0 {
		r.per = cur
	} else {
		r.per = 0.3*cur + 0.7*r.per
	}
	r.at, r.n = now, n
	return r.per
}
