package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"mundaneum/backend/walcap"
)

// The workspace's one writer: operations batched into transactions, savepoints, replays.

// ErrClosed is returned for work submitted after Close.
var ErrClosed = errors.New("store: writer closed")

// Tx is the transaction an operation runs in. Operations must not commit or roll it back.
type Tx struct {
	*sql.Tx
	w *Writer
}

// OnCommit registers fn to run after the batch holding this operation commits.
func (t *Tx) OnCommit(fn func()) { t.w.onCommit = append(t.w.onCommit, fn) }

// Stmt returns a prepared statement for query bound to this transaction. Statements are
// prepared once per writer: the first use in a batch prepares inside the transaction (the
// writer's only connection is busy), and after the commit it is prepared for good.
func (t *Tx) Stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := t.w.stmts[query]; ok {
		return t.Tx.StmtContext(ctx, st), nil
	}
	st, err := t.Tx.PrepareContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	t.w.toPrepare[query] = struct{}{}
	return st, nil
}

type reply struct {
	v   any
	err error
}

type op struct {
	ctx   context.Context
	fn    func(*Tx) (any, error)
	done  chan reply
	flush bool
}

// Writer is the one goroutine that writes the workspace. Operations run in order inside a
// shared transaction that commits every BatchSize operations, every BatchDelay, on Flush and
// on Close. A kill before a commit loses only uncommitted operations, never part of one.
//
// Operations run without savepoints of their own (cheaper, and the only way when the
// workspace still held an FTS5 index, which flushes at every savepoint). When one fails,
// the batch is rolled back and the operations before it are run again in a new
// transaction, their results discarded
// (they were already delivered): so an operation must return its results rather than
// assign them to variables its caller reads.
type Writer struct {
	db         *sql.DB
	ops        chan op
	batchSize  int
	batchDelay time.Duration
	stmts      map[string]*sql.Stmt
	toPrepare  map[string]struct{}

	// onCommit is batch-scoped, touched only by the writer goroutine.
	onCommit []func()
	// beforeCommit runs last in every batch transaction; reset forgets batch state kept
	// outside the database when a batch is rolled back.
	beforeCommit func(context.Context, *Tx) error
	reset        func()
	// gate, when set, is entered before each batch transaction begins and left after it
	// ends: how the owner of a workspace and the short writes of other processes take
	// turns (see shared.go).
	gate gate
	// walCap restarts the workspace's log after a commit that left it past its limit
	// (see walcap); nil: SQLite's own checkpoints only.
	walCap *walcap.Cap

	closeOnce sync.Once
	closed    chan struct{}
	stopped   chan struct{}
	err       error
}

func newWriter(db *sql.DB, batchSize int, batchDelay time.Duration, beforeCommit func(context.Context, *Tx) error, reset func()) *Writer {
	if batchSize <= 0 {
		batchSize = 4096
	}
	if batchDelay <= 0 {
		batchDelay = time.Second
	}
	w := &Writer{
		db: db, ops: make(chan op, 64), batchSize: batchSize, batchDelay: batchDelay,
		stmts: map[string]*sql.Stmt{}, toPrepare: map[string]struct{}{},
		beforeCommit: beforeCommit, reset: reset,
		closed: make(chan struct{}), stopped: make(chan struct{}),
	}
	go w.loop()
	return w
}

// Do runs fn in the writer's current transaction and returns its error. It returns once fn
// has run; the change becomes durable at the batch's commit (see Flush).
func (w *Writer) Do(ctx context.Context, fn func(*Tx) error) error {
	_, err := w.submit(ctx, op{ctx: ctx, fn: func(tx *Tx) (any, error) { return nil, fn(tx) }})
	return err
}

// Get runs fn in the writer's current transaction and returns its result (see Writer.Do).
func Get[T any](ctx context.Context, w *Writer, fn func(*Tx) (T, error)) (T, error) {
	v, err := w.submit(ctx, op{ctx: ctx, fn: func(tx *Tx) (any, error) { return fn(tx) }})
	t, _ := v.(T)
	return t, err
}

// Flush commits everything submitted so far and returns when it is durable.
func (w *Writer) Flush(ctx context.Context) error {
	_, err := w.submit(ctx, op{ctx: ctx, flush: true})
	return err
}

func (w *Writer) submit(ctx context.Context, o op) (any, error) {
	o.done = make(chan reply, 1)
	select {
	case <-w.closed:
		return nil, ErrClosed
	default:
	}
	select {
	case w.ops <- o:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-w.closed:
		return nil, ErrClosed
	}
	select {
	case r := <-o.done:
		return r.v, r.err
	case <-w.stopped:
		select {
		case r := <-o.done:
			return r.v, r.err
		default:
			return nil, ErrClosed
		}
	}
}

// Close commits pending work, stops the writer and closes its connection.
func (w *Writer) Close() error {
	w.closeOnce.Do(func() { close(w.closed) })
	<-w.stopped
	for _, st := range w.stmts {
		st.Close()
	}
	return errors.Join(w.err, w.db.Close())
}

func (w *Writer) loop() {
	defer close(w.stopped)
	for {
		select {
		case first := <-w.ops:
			w.batch(first)
		case <-w.closed:
			for { // run what was queued before Close
				select {
				case o := <-w.ops:
					w.batch(o)
				default:
					return
				}
			}
		}
	}
}

// batch runs operations in one transaction, starting with first.
func (w *Writer) batch(first op) {
	if w.err != nil {
		// A lost batch that callers were told had run: refuse further work so that they
		// stop instead of building on it.
		first.done <- reply{err: fmt.Errorf("store: writer failed earlier: %w", w.err)}
		return
	}
	if w.gate != nil {
		w.gate.enter()
		defer w.gate.leave()
	}
	tx, err := w.begin()
	if err != nil {
		first.done <- reply{err: err}
		return
	}
	var ran []op     // operations in this transaction, for a replay
	var waiting []op // flushes, answered after the commit
	deadline := time.NewTimer(w.batchDelay)
	defer deadline.Stop()
	next, more := first, true
	for more {
		o := next
		more = false
		if o.flush {
			waiting = append(waiting, o)
			break
		}
		v, opErr := w.run(tx, o)
		if opErr != nil {
			if tx, err = w.replay(tx, ran); err != nil {
				w.err = err
				o.done <- reply{err: errors.Join(opErr, err)}
				break
			}
			o.done <- reply{err: opErr}
		} else {
			o.done <- reply{v: v}
			ran = append(ran, o)
		}
		if len(ran) >= w.batchSize {
			break
		}
		select {
		case next, more = <-w.ops:
		case <-deadline.C:
		case <-w.closed:
			select { // take what is already queued, then commit
			case next, more = <-w.ops:
			default:
			}
		}
	}
	err = w.commit(tx)
	for _, o := range waiting {
		o.done <- reply{err: err}
	}
	if err == nil {
		// A log the checkpoints could not restart is restarted here, between batches; a
		// failure leaves it for the next batch (it is not the batch's).
		_, _ = w.walCap.After(context.Background(), w.db)
	}
}

func (w *Writer) begin() (*Tx, error) {
	sqlTx, err := w.db.BeginTx(context.Background(), nil)
	if err != nil {
		return nil, fmt.Errorf("begin: %w", err)
	}
	return &Tx{Tx: sqlTx, w: w}, nil
}

// run executes one operation, turning a panic into an error.
func (w *Writer) run(tx *Tx, o op) (v any, err error) {
	if err := o.ctx.Err(); err != nil {
		return nil, err
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("store: operation panicked: %v", p)
		}
	}()
	return o.fn(tx)
}

// replay rolls back tx and runs the operations that succeeded in it again in a new one.
func (w *Writer) replay(tx *Tx, ran []op) (*Tx, error) {
	tx.Rollback()
	w.onCommit = w.onCommit[:0]
	clear(w.toPrepare)
	if w.reset != nil {
		w.reset()
	}
	ntx, err := w.begin()
	if err != nil {
		return nil, err
	}
	for _, o := range ran {
		if _, err := w.run(ntx, op{ctx: context.WithoutCancel(o.ctx), fn: o.fn}); err != nil {
			ntx.Rollback()
			return nil, fmt.Errorf("store: replaying a batch: %w", err)
		}
	}
	return ntx, nil
}

func (w *Writer) commit(tx *Tx) error {
	if w.err != nil {
		return w.err
	}
	defer func() { w.onCommit = w.onCommit[:0] }()
	ctx := context.Background()
	if w.beforeCommit != nil {
		if err := w.beforeCommit(ctx, tx); err != nil {
			tx.Rollback()
			if w.reset != nil {
				w.reset()
			}
			w.err = fmt.Errorf("before commit: %w", err)
			return w.err
		}
	}
	if err := tx.Commit(); err != nil {
		w.err = fmt.Errorf("commit: %w", err)
		return w.err
	}
	for _, fn := range w.onCommit {
		fn()
	}
	for q := range w.toPrepare {
		if st, err := w.db.PrepareContext(ctx, q); err == nil {
			w.stmts[q] = st
		}
		delete(w.toPrepare, q)
	}
	return nil
}
