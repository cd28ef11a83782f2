package crawl

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"mundaneum/backend/fetch"
	"mundaneum/backend/store"
)

// HostPolicy bounds what a run spends on a host that does not answer (no robots.txt, no
// page: the connection is refused, reset or times out): it is tried Tries times, or for
// Within once it has been tried twice, whichever comes first; then the run gives it up.
// Its pages are recorded as failed with the cause, without a request, and tried again on
// the next run. Without the bound, each of its pages was tried four times behind a
// politeness backoff that doubled up to ten minutes: one such host held a crawl's end for
// a quarter of an hour (issue 29, item 17).
type HostPolicy struct {
	Tries  int
	Within time.Duration
}

// DefaultHostPolicy: four tries (1, 2 and 4 s apart when the host's pages come one at a
// time: a server still starting up is reached), at most half a minute.
var DefaultHostPolicy = HostPolicy{Tries: 4, Within: 30 * time.Second}

// silent reports whether a fetch failure code means the host gave no answer at all.
func silent(code string) bool {
	switch code {
	case fetch.CodeRefused, fetch.CodeReset, fetch.CodeTimeout, fetch.CodeNetwork, fetch.CodeDNS, fetch.CodeTLS:
		return true
	}
	return false
}

// final reports whether a failure says the host cannot be reached however often it is
// tried: its name does not resolve, or its TLS is broken.
func final(code string) bool { return code == fetch.CodeDNS || code == fetch.CodeTLS }

// hostTrouble is a host that has not answered since its first failure in a run.
type hostTrouble struct {
	origin string
	code   string // the last failure's fetch code
	detail string
	first  time.Time // the first failure
	last   time.Time // when the last counted try ended
	tries  int       // tries counted: failures of requests sent after the last counted one ended
	down   bool
}

// hostWatch follows the hosts that do not answer in a run. learn runs on the scheduler's
// goroutine; the agents ask downHost.
type hostWatch struct {
	policy  HostPolicy
	trouble map[string]*hostTrouble

	mu   sync.Mutex
	down map[string]*hostTrouble
}

func newHostWatch(p HostPolicy) *hostWatch {
	return &hostWatch{policy: p, trouble: map[string]*hostTrouble{}, down: map[string]*hostTrouble{}}
}

// learn takes a visit's outcome and reports whether its host was just given up. A page
// sent before the last counted failure was learnt is the same try (two pages of the host
// sent together fail together when it goes away).
func (w *hostWatch) learn(o visitOutcome, now time.Time) bool {
	origin := o.item.Origin
	switch {
	case o.answered:
		delete(w.trouble, origin)
		return false
	case o.silent == "":
		return false
	}
	t := w.trouble[origin]
	if t == nil {
		t = &hostTrouble{origin: origin, first: o.sent}
		w.trouble[origin] = t
	}
	if t.down {
		return false
	}
	t.code, t.detail = o.silent, o.silentDetail
	if t.tries == 0 || o.sent.After(t.last) {
		t.tries++
		t.last = now
	}
	if !final(t.code) && t.tries < w.policy.Tries && (t.tries < 2 || now.Sub(t.first) < w.policy.Within) {
		return false
	}
	t.down = true
	w.mu.Lock()
	w.down[origin] = t
	w.mu.Unlock()
	return true
}

// downHost returns the host's trouble when the run gave it up, else nil.
func (w *hostWatch) downHost(origin string) *hostTrouble {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.down[origin]
}

// result is the record of a page of a host given up: failed with the host's cause, due
// again at once (the next run tries it).
func (t *hostTrouble) result() *store.Result {
	return &store.Result{State: store.StateFailed, Reason: t.code, RefreshAt: time.Now().UnixMilli(),
		Detail: fmt.Sprintf("not requested: the host did not answer %s (%s; last: %s); it is tried again on the next run",
			t.span(), fetch.Describe(t.code), t.detail)}
}

// span says how often and over how long a host was tried: "4 times in 7s".
func (t *hostTrouble) span() string {
	times := "once"
	if t.tries > 1 {
		times = fmt.Sprintf("%d times", t.tries)
	}
	if d := t.last.Sub(t.first).Round(time.Second); d > 0 {
		return times + " in " + d.String()
	}
	return times
}

// note says which hosts the run gave up ("" when none), for the progress and the run's end.
func (w *hostWatch) note() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.down) == 0 {
		return ""
	}
	hosts := make([]string, 0, len(w.down))
	for _, t := range w.down {
		hosts = append(hosts, fmt.Sprintf("%s (%s, tried %s)", strings.TrimPrefix(strings.TrimPrefix(t.origin, "http://"), "https://"),
			fetch.Describe(t.code), t.span()))
	}
	sort.Strings(hosts)
	const most = 3
	more := ""
	if len(hosts) > most {
		more = fmt.Sprintf(" and %d more", len(hosts)-most)
		hosts = hosts[:most]
	}
	what, its := "a host that does not answer", "its"
	if len(w.down) > 1 {
		what, its = fmt.Sprintf("%d hosts that do not answer", len(w.down)), "their"
	}
	return fmt.Sprintf("gave up on %s: %s%s; %s pages are recorded as failed and tried again on the next run",
		what, strings.Join(hosts, ", "), more, its)
}
