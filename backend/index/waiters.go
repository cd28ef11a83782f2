package index

// What the stage tells the rest of the process: its state, its failures, and who waits.

func (s *stage) fail(err error) {
	s.mu.Lock()
	s.pub.err = err
	s.mu.Unlock()
}

func (s *stage) clearErr() {
	s.mu.Lock()
	s.pub.err = nil
	s.mu.Unlock()
}

func (s *stage) setBusy(b bool) {
	s.mu.Lock()
	s.pub.busy = b
	s.mu.Unlock()
}

func (s *stage) publish() {
	s.mu.Lock()
	s.pub.state, s.pub.deferred = s.state, s.deferred
	s.mu.Unlock()
}

// answerWaiters tells the waiters whose changes are all searchable (or that the stage
// failed).
func (s *stage) answerWaiters() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.waiters) == 0 {
		return
	}
	kept := s.waiters[:0]
	for _, w := range s.waiters {
		switch {
		case s.pub.err != nil:
			w.done <- s.pub.err
		case s.resetWhy == "" && !s.state.Rebuilding && s.state.Applied >= w.target && s.deferred == 0 && (!w.settle || s.settled) &&
			(s.vocabWriter == nil || !s.vocabDue || s.vocabAt >= w.target || !s.holdsWaiters()):
			w.done <- nil
		default:
			kept = append(kept, w)
			continue
		}
		s.urgent--
	}
	s.waiters = kept
}

// wait registers a waiter for everything noted up to target (and the idle work when settle).
func (s *stage) wait(target int64, settle bool) *waiter {
	w := &waiter{target: target, settle: settle, done: make(chan error, 1)}
	s.mu.Lock()
	s.waiters = append(s.waiters, w)
	s.urgent++
	s.mu.Unlock()
	s.kick()
	return w
}

// forget drops a waiter that stopped waiting.
func (s *stage) forget(w *waiter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.waiters {
		if x == w {
			s.waiters = append(s.waiters[:i], s.waiters[i+1:]...)
			s.urgent--
			return
		}
	}
}
