package render_test

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"mundaneum/backend/render"
	"mundaneum/backend/render/rendertest"
)

// hostileBudget is the budget the hostile pages get here: what bounds each.
const hostileBudget = 4 * time.Second

// TestHostilePages: each hostile page of the test site ends within its budget, with the
// page read when it can be and the cause recorded when it cannot; the renderer goes on
// with the next page.
func TestHostilePages(t *testing.T) {
	site := rendertest.New(1)
	defer site.Close()
	r := newRenderer(t, render.Options{Budget: hostileBudget})
	g := newGate(site)
	for _, c := range []struct {
		name   string
		causes []string // the failures allowed ("" for none: the page is read)
		check  func(t *testing.T, res *render.Result)
	}{
		{"loop", []string{render.CauseTimeout}, nil},
		{"alerts", []string{""}, func(t *testing.T, res *render.Result) {
			if !strings.Contains(string(res.HTML), "ten thousand alerts") {
				t.Errorf("the page after the alerts was not read")
			}
		}},
		{"popups", []string{""}, func(t *testing.T, res *render.Result) {
			if n := site.Hits("/hostile/popups"); n != 1 {
				t.Errorf("the popups' page was requested %d times, want once (the document)", n)
			}
			if n := site.Hits("/static/"); n != 0 {
				t.Errorf("a target=_blank link opened a window (%d requests)", n)
			}
		}},
		// A million nodes: read and cut at the node budget, or (on a busy machine) not
		// read within the budget, or over the memory cap (seen: 706 MB of 700).
		{"nodes", []string{"", render.CauseTimeout, render.CauseMemory}, func(t *testing.T, res *render.Result) {
			if !strings.Contains(res.Note, "cut at") {
				t.Errorf("a million nodes were not cut: %s (%d nodes)", res.Note, res.Nodes)
			}
		}},
		{"unsettled", []string{""}, func(t *testing.T, res *render.Result) {
			if res.Settled || !strings.Contains(res.Note, "did not settle") {
				t.Errorf("a page that never settles is said to have settled: %v %q", res.Settled, res.Note)
			}
			if !strings.Contains(string(res.HTML), "Never settles") {
				t.Errorf("the page was not read as it was")
			}
		}},
		{"memory", []string{render.CauseCrashed, render.CauseMemory, render.CauseTimeout}, nil},
		{"grow", []string{render.CauseMemory, render.CauseTimeout, ""}, nil},
		{"navigate", []string{""}, func(t *testing.T, res *render.Result) {
			if len(res.Navigations) != 1 || !strings.HasSuffix(res.Navigations[0], "/static/?from=script") {
				t.Errorf("navigations %v, want the script's", res.Navigations)
			}
			if site.Hits("/static/") != 0 {
				t.Errorf("the page's navigation was made")
			}
		}},
		{"download", []string{""}, func(t *testing.T, res *render.Result) {
			if res.Refused == 0 {
				t.Errorf("the download was not refused")
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			res, err := renderPage(t, r, g, site.URL+"/hostile/"+c.name)
			took := time.Since(start)
			cause := ""
			if err != nil {
				cause = render.CauseOf(err)
			}
			ok := false
			for _, want := range c.causes {
				ok = ok || cause == want
			}
			if !ok {
				t.Fatalf("cause %q (%v), want one of %q", cause, err, c.causes)
			}
			if err != nil && err.Error() == "" {
				t.Errorf("a failure without words")
			}
			if err == nil && c.check != nil {
				c.check(t, res)
			}
			t.Logf("%s: %v in %v", c.name, cause, took.Round(time.Millisecond))
		})
	}
	// After all that, an ordinary page renders.
	res, err := renderPage(t, r, g, site.URL+"/app/about")
	if err != nil || !strings.Contains(string(res.HTML), rendertest.WordAbout) {
		t.Fatalf("a page after the hostile ones: %v", err)
	}
	if n := g.heldNow(); n != 0 {
		t.Errorf("%d turns of the host were not given back", n)
	}
}

// TestBrowserDeath: the browser killed while it renders a page (a neighbour's doing, say)
// is started again, and the page is tried once more in it, within what is left of its
// budget, and read; the next page uses the new browser.
func TestBrowserDeath(t *testing.T) {
	site := rendertest.New(1)
	defer site.Close()
	r := newRenderer(t, render.Options{Budget: hostileBudget})
	g := newGate(site)
	if _, err := renderPage(t, r, g, site.URL+"/app/about"); err != nil {
		t.Fatal(err)
	}
	pid := r.BrowserPID()
	if pid == 0 {
		t.Fatal("no browser process")
	}
	st, h, body := fetchDoc(t, site.URL+"/hostile/unsettled")
	type result struct {
		res *render.Result
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := r.Render(context.Background(), render.Request{URL: site.URL + "/hostile/unsettled", Status: st, Header: h, Body: body, Gate: g})
		done <- result{res, err}
	}()
	// Kill it once the page is being rendered (its requests come through the gate).
	for site.Hits("/api/tracker") == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	got := <-done
	if got.err != nil {
		t.Fatalf("the page whose browser died was not read again: %v (cause %s)", got.err, render.CauseOf(got.err))
	}
	if !strings.Contains(got.res.Note, "read in a new browser") || !strings.Contains(string(got.res.HTML), "Never settles") {
		t.Errorf("the page read again: note %q", got.res.Note)
	}
	res, err := renderPage(t, r, g, site.URL+"/app/about")
	if err != nil || !strings.Contains(string(res.HTML), rendertest.WordAbout) {
		t.Fatalf("the next page: %v", err)
	}
	if r.BrowserPID() == pid || r.Stats().Restarts != 1 {
		t.Errorf("the browser was not started again: pid %d (was %d), %+v", r.BrowserPID(), pid, r.Stats())
	}
}

// TestMemoryCap: a page whose DOM grows without end has its tab closed for memory, and the
// next page is read. (The cap is the default: an ordinary page takes a few hundred MB,
// more or less with the machine's load and when its memory is sampled; the growing page
// passes any cap within seconds.)
func TestMemoryCap(t *testing.T) {
	site := rendertest.New(1)
	defer site.Close()
	g := newGate(site)
	r := newRenderer(t, render.Options{Budget: time.Minute})
	_, err := renderPage(t, r, g, site.URL+"/hostile/grow")
	if render.CauseOf(err) != render.CauseMemory {
		t.Fatalf("a growing DOM over a cap of %d MB: %v (cause %s), peak %d MB", render.DefaultMemoryCap>>20, err, render.CauseOf(err), r.Stats().Peak.PSS>>20)
	}
	if r.Stats().TabsClosed != 1 {
		t.Errorf("tabs closed for memory: %d", r.Stats().TabsClosed)
	}
	if _, err := renderPage(t, r, g, site.URL+"/app/about"); err != nil {
		t.Fatalf("the next page: %v", err)
	}
}

// TestHostileTabAlone: a page whose scripts never yield holds its own tab only: the
// other tab renders its page meanwhile.
func TestHostileTabAlone(t *testing.T) {
	site := rendertest.New(1)
	defer site.Close()
	r := newRenderer(t, render.Options{Budget: hostileBudget})
	g := newGate(site)
	if _, err := renderPage(t, r, g, site.URL+"/app/about"); err != nil { // the browser is up
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := renderPage(t, r, g, site.URL+"/hostile/loop")
		errc <- err
	}()
	for site.Hits("/api/tracker") == 0 { // its request before the loop came through
		time.Sleep(5 * time.Millisecond)
	}
	res, err := renderPage(t, r, g, site.URL+"/app/about")
	if err != nil || !strings.Contains(string(res.HTML), rendertest.WordAbout) {
		t.Errorf("a page beside an endless loop: %v", err)
	}
	if err := <-errc; render.CauseOf(err) != render.CauseTimeout {
		t.Errorf("the loop: %v", err)
	}
}

// TestMemoryCapSparesTheOtherTab: while a page whose DOM grows without end is closed for
// memory, the ordinary pages rendered in the other tab meanwhile and after it are not
// blamed for the memory the closed tab has not given back yet: one tab is closed, and
// every ordinary page is read.
func TestMemoryCapSparesTheOtherTab(t *testing.T) {
	site := rendertest.New(1)
	defer site.Close()
	g := newGate(site)
	r := newRenderer(t, render.Options{Tabs: 2, Budget: time.Minute})     // the default cap: see TestMemoryCap
	if _, err := renderPage(t, r, g, site.URL+"/app/about"); err != nil { // the browser is up
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := renderPage(t, r, g, site.URL+"/hostile/grow")
		errc <- err
	}()
	var growErr error
	pages := 0
	for done := false; !done || pages < 4; pages++ {
		if !done {
			select {
			case growErr = <-errc:
				done = true
				pages = 0 // four more after the close
			default:
			}
		}
		res, err := renderPage(t, r, g, site.URL+"/app/about")
		if err != nil || !strings.Contains(string(res.HTML), rendertest.WordAbout) {
			t.Fatalf("an ordinary page beside (or after) the growing one: %v (cause %s)", err, render.CauseOf(err))
		}
	}
	if render.CauseOf(growErr) != render.CauseMemory {
		t.Errorf("the growing page: %v (cause %s)", growErr, render.CauseOf(growErr))
	}
	if n := r.Stats().TabsClosed; n != 1 {
		t.Errorf("tabs closed for memory: %d, want 1", n)
	}
}

// TestMemoryCapSparesTheBusyTab: a page whose scripts never yield cannot tell what it
// holds; beside a page whose DOM grows without end, the growing one is closed for memory
// (its renderer holds the memory) and the busy one runs out of its time.
func TestMemoryCapSparesTheBusyTab(t *testing.T) {
	site := rendertest.New(1)
	defer site.Close()
	g := newGate(site)
	r := newRenderer(t, render.Options{Tabs: 2, Budget: 20 * time.Second})
	if _, err := renderPage(t, r, g, site.URL+"/app/about"); err != nil { // the browser is up
		t.Fatal(err)
	}
	loopc := make(chan error, 1)
	go func() {
		_, err := renderPage(t, r, g, site.URL+"/hostile/loop")
		loopc <- err
	}()
	for site.Hits("/api/tracker") == 0 { // the loop has begun
		time.Sleep(5 * time.Millisecond)
	}
	_, growErr := renderPage(t, r, g, site.URL+"/hostile/grow")
	if render.CauseOf(growErr) != render.CauseMemory {
		t.Errorf("the growing page: %v (cause %s)", growErr, render.CauseOf(growErr))
	}
	if err := <-loopc; render.CauseOf(err) != render.CauseTimeout {
		t.Errorf("the endless loop: %v (cause %s)", err, render.CauseOf(err))
	}
}
