package web

import (
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"
)

const (
	// maxStreams bounds the open event streams (pages and tabs).
	maxStreams = 64
	// streamQueue is how many events may wait for a slow page; a page that falls further
	// behind is disconnected, reconnects and catches up by polling.
	streamQueue = 256
	// heartbeat keeps idle streams (and proxies) from timing out.
	heartbeat = 15 * time.Second
	// retryMs tells EventSource how soon to reconnect.
	retryMs = 1000
)

// hub fans events out to the open event streams.
type hub struct {
	mu     sync.Mutex
	subs   map[chan []byte]struct{}
	done   chan struct{}
	closed bool
}

func newHub() *hub {
	return &hub{subs: map[chan []byte]struct{}{}, done: make(chan struct{})}
}

// event is one message on the stream: the Wails event name and its payload.
type event struct {
	Name string `json:"name"`
	Data any    `json:"data"`
}

// emit queues the event on every stream without blocking; a stream whose queue is full is
// dropped (its page reconnects).
func (h *hub) emit(name string, payload any) {
	b, err := json.Marshal(event{Name: name, Data: payload})
	if err != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- b:
		default:
			delete(h.subs, ch)
			close(ch)
		}
	}
}

func (h *hub) subscribe() (chan []byte, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || len(h.subs) >= maxStreams {
		return nil, false
	}
	ch := make(chan []byte, streamQueue)
	h.subs[ch] = struct{}{}
	return ch, true
}

func (h *hub) unsubscribe(ch chan []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[ch]; ok {
		delete(h.subs, ch)
		close(ch)
	}
}

// close ends every stream and refuses new ones.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.closed = true
	close(h.done)
	for ch := range h.subs {
		delete(h.subs, ch)
		close(ch)
	}
}

// serve streams events as text/event-stream until the page goes away, falls behind, or the
// server shuts down. Each message's data is {"name": ..., "data": ...}.
func (h *hub) serve(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	ch, ok := h.subscribe()
	if !ok {
		w.Header().Set("Retry-After", "5")
		fail(w, http.StatusServiceUnavailable, "unavailable", "too many event streams")
		return
	}
	defer h.unsubscribe(ch)
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream; charset=utf-8")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	// The stream outlives any write timeout the server sets.
	rc.SetWriteDeadline(time.Time{})
	if _, err := w.Write([]byte("retry: " + strconv.Itoa(retryMs) + "\n: connected\n\n")); err != nil {
		return
	}
	if rc.Flush() != nil {
		return
	}
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		select {
		case b, open := <-ch:
			if !open {
				return
			}
			if _, err := w.Write(append(append([]byte("data: "), b...), '\n', '\n')); err != nil {
				return
			}
		case <-tick.C:
			if _, err := w.Write([]byte(": ping\n\n")); err != nil {
				return
			}
		case <-r.Context().Done():
			return
		case <-h.done:
			return
		}
		if rc.Flush() != nil {
			return
		}
	}
}
