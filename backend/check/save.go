package check

import (
	"context"
	"encoding/json"
	"time"

	"mundaneum/backend/check/record"
)

// saveBatch is how many results go to the store in one writer operation.
const saveBatch = 512

// DeadPolicy says when a failing link is dead: after Checks failing checks in a row that
// span at least Span. Blocked, rate-limited and robots-excluded checks neither count nor
// break the streak; an answer that works ends it; an offline run's check is no test.
type DeadPolicy struct {
	Checks int
	Span   time.Duration
}

// DefaultDeadPolicy: three failing checks over a week.
var DefaultDeadPolicy = DeadPolicy{Checks: 3, Span: 7 * 24 * time.Hour}

// Next is the URL's health after a check (record.NextHealth).
func (p DeadPolicy) Next(prev record.Health, r *record.Test) record.Health {
	if Kind(r.Verdict) == Offline {
		// Not a test of the link: its health stays (a URL never tested before says why).
		if prev.Verdict == "" {
			prev.Verdict, prev.Reason, prev.CheckedAt = r.Verdict, r.Reason, r.At
		}
		return prev
	}
	h := prev
	h.Verdict, h.Status, h.FinalURL, h.Reason, h.CheckedAt = r.Verdict, r.Status, r.FinalURL, r.Reason, r.At
	switch k := Kind(r.Verdict); {
	case k.Failing():
		if h.Failures == 0 || h.FailingSince == 0 {
			h.FailingSince, h.Failures = r.At, 0
		}
		h.Failures++
		if h.DeadAt == 0 && h.Failures >= max(p.Checks, 1) && r.At-h.FailingSince >= p.Span.Milliseconds() {
			h.DeadAt = r.At
		}
	case k == OK || k == Redirected:
		h.FailingSince, h.Failures, h.DeadAt = 0, 0, 0
	}
	changed := func(old, cur string) bool { return old != "" && cur != "" && old != cur }
	switch {
	case changed(prev.Hash, r.Hash), r.Hash == "" && changed(prev.ETag, r.ETag), changed(prev.LastModified, r.LastModified):
		h.ChangedAt = r.At
	}
	if r.Hash != "" {
		h.Hash = r.Hash
	}
	if r.ETag != "" {
		h.ETag = r.ETag
	}
	if r.LastModified != "" {
		h.LastModified = r.LastModified
	}
	return h
}

// CheckStore is what a run keeps its checks and reports in; *store.Store satisfies it.
type CheckStore interface {
	TaskStore
	RuleStore
	StartCheckRun(ctx context.Context, tasks []string) (record.Run, error)
	FinishCheckRun(ctx context.Context, r record.Run) error
	SaveChecks(ctx context.Context, runID int64, recs []record.Test, next record.NextHealth) ([]record.Saved, error)
	URLIDs(ctx context.Context, urls []string) ([]int64, error)
	SaveReport(ctx context.Context, r record.Report, docs []record.Doc) (int64, error)
	Reports(ctx context.Context, taskID int64, limit int) ([]record.Report, error)
	MarkTaskRun(ctx context.Context, id, at int64) error
}

// saver writes results in batches on its own goroutine, so that the scheduler never
// waits for the disk; the ids and health come back on done.
type saver struct {
	st     CheckStore
	runID  int64
	policy DeadPolicy
	buf    []*target
	queue  chan []*target
	done   chan savedBatch
	quit   chan struct{}
	sent   int // batches sent and not yet returned
	// pending are batches that came back while flush waited for room; the scheduler
	// takes them with takePending.
	pending []savedBatch
}

// savedBatch is a saved batch: its targets and what the store returned for each.
type savedBatch struct {
	ts    []*target
	saved []record.Saved
	err   error
}

func newSaver(st CheckStore, runID int64, policy DeadPolicy) *saver {
	s := &saver{st: st, runID: runID, policy: policy, queue: make(chan []*target, 4), done: make(chan savedBatch, 4),
		quit: make(chan struct{})}
	go s.loop()
	return s
}

func (s *saver) loop() {
	defer close(s.quit)
	for ts := range s.queue {
		recs := make([]record.Test, len(ts))
		for i, t := range ts {
			recs[i] = testRecord(t)
		}
		// The writes outlive a cancelled run: what was tested is kept.
		saved, err := s.st.SaveChecks(context.Background(), s.runID, recs, s.policy.Next)
		s.done <- savedBatch{ts: ts, saved: saved, err: err}
	}
}

// add queues a finished target; a full buffer goes to the store.
func (s *saver) add(t *target) {
	s.buf = append(s.buf, t)
	if len(s.buf) >= saveBatch {
		s.flush()
	}
}

// flush sends what is buffered. It may block while the store is four batches behind;
// the scheduler's loop drains done meanwhile through drain.
func (s *saver) flush() {
	if len(s.buf) == 0 {
		return
	}
	for {
		select {
		case s.queue <- s.buf:
			s.sent++
			s.buf = nil
			return
		case b := <-s.done:
			s.sent--
			s.pending = append(s.pending, b)
		}
	}
}

// takePending returns the batches flush received.
func (s *saver) takePending() []savedBatch {
	p := s.pending
	s.pending = nil
	return p
}

// close sends what is left and returns every batch still to come back.
func (s *saver) close() []savedBatch {
	s.flush()
	close(s.queue)
	out := s.takePending()
	for ; s.sent > 0; s.sent-- {
		out = append(out, <-s.done)
	}
	<-s.quit
	return out
}

// testRecord is the check record of a finished target.
func testRecord(t *target) record.Test {
	res := t.res
	v := res.v
	rec := record.Test{URL: t.url, At: res.at, Verdict: string(v.Kind), Status: v.Status, FinalURL: v.FinalURL,
		Permanent: v.Permanent, Reason: v.Reason, Code: v.Code, Method: res.method, ContentType: res.contentType,
		Size: res.size, Ms: res.ms, Title: res.title, LastModified: res.lastModified, Expires: res.expires,
		Owner: res.owner, ETag: res.etag, Hash: res.hash, Document: res.isDoc}
	if len(v.Chain) > 0 {
		js, _ := json.Marshal(v.Chain)
		rec.Chain = string(js)
	}
	return rec
}
