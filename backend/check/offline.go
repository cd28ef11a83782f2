package check

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"mundaneum/backend/fetch"
)

// A machine without a network finds every link to another host "broken": the name does
// not resolve, or the connection cannot be made. That is no news about the links, and
// recording it would make them dead after a few such runs (issue 29, item 15). So a run
// decides whether this machine is offline from the pattern of its failures: a link whose
// host outside this machine could not be reached at all (no name, no route, no answer in
// time) is held back until the run knows. A host outside that answers anything says the
// network works: what was held back is what it seemed. When several distinct hosts have
// failed with none answering in between, or at the run's end, a cheap probe asks whether
// this machine reaches the internet; if it does not, the held links are recorded as
// "offline" (not tested: neither failing nor working, their health untouched), and the
// rest of the run sends nothing outside.

// offlineHosts is how many distinct hosts outside must fail, none answering in between,
// before a run probes its connection (the run's end probes whatever it holds).
const offlineHosts = 3

// ErrOffline is returned (wrapped) by the CLI's check when a run found the machine offline.
var ErrOffline = errors.New("this machine is offline")

// held is a test result waiting for the run to know whether it is offline.
type held struct {
	j   *job
	o   *outcome
	obs observation
}

// netWatch is a run's view of its connection; the scheduler goroutine owns it.
type netWatch struct {
	probe   Probe
	offline error // why the machine is offline now (nil: it is not, or not known to be)
	why     error // why it was offline, kept once it is back
	held    []held
	failed  map[string]bool // hosts outside that could not be reached since the last answer
	probing bool
	probed  chan error
	note    string // what the run says of its connection, for the progress
}

func newNetWatch(p Probe) *netWatch {
	if p == nil {
		p = InternetProbe
	}
	return &netWatch{probe: p, failed: map[string]bool{}, probed: make(chan error, 1)}
}

// outside reports whether an origin's host is outside this machine and its local network
// (loopback, private and link-local addresses, .localhost, .local and .internal names): an
// answer from one of those says nothing about the internet, nor does a failure.
func outside(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	h := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if ip := net.ParseIP(h); ip != nil {
		return !(ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified())
	}
	for _, local := range []string{"localhost", "local", "internal", "lan", "home.arpa"} {
		if h == local || strings.HasSuffix(h, "."+local) {
			return false
		}
	}
	return h != ""
}

// unreached reports whether a request got no contact with its host at all: its name did
// not resolve, there was no route, or nothing answered in time. (A refused or reset
// connection, or a TLS failure, came from the host: the network works.)
func unreached(err error) bool {
	switch fetch.Classify(err) {
	case fetch.CodeDNS, fetch.CodeTimeout, fetch.CodeNetwork:
		return true
	}
	return false
}

// hold decides what becomes of a failed test: held back (true) while the run does not
// know whether it is offline, or marked offline in obs when it knows it is.
func (n *netWatch) hold(j *job, o *outcome, obs *observation) bool {
	if obs.err == nil || !outside(j.origin) || !unreached(obs.err) {
		return false
	}
	if n.offline != nil {
		obs.offline = n.offline
		return false
	}
	n.held = append(n.held, held{j: j, o: o, obs: *obs})
	n.failed[j.origin] = true
	return true
}

// answered tells the watch that a host answered: when it is outside, the network works,
// and what was held back is what it seemed (returned, to be finished as it was).
func (n *netWatch) answered(origin string) []held {
	if !outside(origin) {
		return nil
	}
	if n.offline != nil {
		n.offline, n.note = nil, "" // back online
	}
	clear(n.failed)
	return n.release(nil)
}

// maybeProbe starts a probe when enough distinct hosts outside failed with none answering.
func (n *netWatch) maybeProbe(ctx context.Context) {
	if n.probing || n.offline != nil || len(n.failed) < offlineHosts {
		return
	}
	n.probing = true
	go func() { n.probed <- n.probe(ctx) }()
}

// probedAs takes a probe's answer, offline or not (the failures are the hosts' own), and
// returns the held tests to finish, marked offline when it is.
func (n *netWatch) probedAs(err error) []held {
	n.probing = false
	if err != nil && !errors.Is(err, context.Canceled) {
		n.offline, n.why = err, err
		n.note = fmt.Sprintf("this machine is offline (%s): links to other hosts are not tested", shortErr(err))
	}
	clear(n.failed)
	return n.release(n.offline)
}

// settle decides what is still held at the run's end, probing if it must, and returns the
// held tests to finish.
func (n *netWatch) settle(ctx context.Context) []held {
	if len(n.held) == 0 {
		return nil
	}
	if n.probing {
		select {
		case err := <-n.probed:
			return n.probedAs(err)
		case <-ctx.Done():
		}
		return nil
	}
	pctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	return n.probedAs(n.probe(pctx))
}

// release hands back the held tests: as they were, or offline.
func (n *netWatch) release(offline error) []held {
	hs := n.held
	n.held = nil
	for i := range hs {
		hs[i].obs.offline = offline
	}
	return hs
}

// offlineVerdict is the verdict of a queued job of a host outside while the machine is
// offline: finished without a request (false when the job is to be sent).
func (n *netWatch) offlineVerdict(j *job) (Verdict, bool) {
	if n.offline == nil || !outside(j.origin) {
		return Verdict{}, false
	}
	return classify(observation{url: j.url, chain: j.chain, offline: n.offline}), true
}
