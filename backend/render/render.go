package render

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/chromedp/chromedp"
)

// Mode is a crawl's choice of which pages go through the browser.
type Mode string

// The modes of a crawl.
const (
	Auto   Mode = "auto"   // only pages whose HTML looks like a shell (Detect)
	Always Mode = "always" // every HTML page
	Never  Mode = "never"  // none: the HTML as served (shells are recorded as such)
)

// ParseMode reads a mode ("" is Auto).
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case "":
		return Auto, nil
	case Auto, Always, Never:
		return m, nil
	}
	return "", fmt.Errorf("unknown render mode %q (auto, always or never)", s)
}

// Defaults of Options.
const (
	DefaultTabs      = 2
	DefaultBudget    = 15 * time.Second
	DefaultMemoryCap = 700 << 20
	DefaultWidth     = 1280
	DefaultHeight    = 800
	// DefaultQuiet is how long the network and the DOM must stay quiet for a page to
	// count as settled.
	DefaultQuiet    = 200 * time.Millisecond
	DefaultScrolls  = 5
	DefaultMaxNodes = 200_000
	DefaultMaxBody  = 10 << 20
	// MaxFullHeight bounds a full-page screenshot (CSS pixels).
	MaxFullHeight = 16384
	maxTabs       = 16
)

// Options configure a Renderer. Zero fields take the defaults above.
type Options struct {
	Exec      string        // the browser; "" finds the system's Chromium (FindBrowser)
	Tabs      int           // pages rendered at once
	Budget    time.Duration // the most one page may cost, everything included
	MemoryCap int64         // bytes (PSS) the browser's processes may hold together
	Width     int           // the viewport, CSS pixels
	Height    int
	Quiet     time.Duration
	Scrolls   int  // times a page is scrolled to its end to load what comes on scroll
	FullPage  bool // also a screenshot of the whole page (up to MaxFullHeight)
	MaxNodes  int  // nodes of the DOM serialised; past it the copy is cut
	MaxBody   int  // bytes of the serialised DOM
	UserAgent string
	From      string // sent in a From header with every request of the browser
	// Flags are extra browser flags ("name" or "name=value"), for tests.
	Flags []string
}

func (o *Options) defaults() {
	if o.Tabs <= 0 {
		o.Tabs = DefaultTabs
	}
	o.Tabs = min(o.Tabs, maxTabs)
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	if o.MemoryCap <= 0 {
		o.MemoryCap = DefaultMemoryCap
	}
	if o.Width <= 0 || o.Height <= 0 {
		o.Width, o.Height = DefaultWidth, DefaultHeight
	}
	if o.Quiet <= 0 {
		o.Quiet = DefaultQuiet
	}
	if o.Scrolls < 0 {
		o.Scrolls = 0
	} else if o.Scrolls == 0 {
		o.Scrolls = DefaultScrolls
	}
	if o.MaxNodes <= 0 {
		o.MaxNodes = DefaultMaxNodes
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
}

// Why a page was not rendered: the causes recorded on it.
const (
	CauseNoBrowser   = "no-browser"   // no Chromium on this machine
	CauseTimeout     = "timeout"      // the page's scripts held it past its budget
	CauseCrashed     = "crashed"      // the tab crashed (its renderer died, often of memory)
	CauseMemory      = "memory"       // the browser went over the memory cap: the tab was closed
	CauseBrowserDied = "browser-died" // the whole browser died; it is started again
	CauseNavigation  = "navigation"   // the browser could not load the page
	CauseError       = "error"        // anything else the browser said
)

// ErrNoBrowser: no Chromium could be found or started. Its message says how to install one.
var ErrNoBrowser = errors.New("no browser to render pages with: install Debian's chromium (sudo apt-get install chromium, or make setup)")

// Error is why a page could not be rendered: a cause (the constants above) and words.
type Error struct {
	Cause  string
	Detail string
	Err    error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Detail + ": " + e.Err.Error()
	}
	return e.Detail
}

func (e *Error) Unwrap() error { return e.Err }

// CauseOf returns the cause recorded for err (CauseError when it is not an *Error).
func CauseOf(err error) string {
	var re *Error
	if errors.As(err, &re) {
		return re.Cause
	}
	if errors.Is(err, ErrNoBrowser) {
		return CauseNoBrowser
	}
	return CauseError
}

// FindBrowser returns the path of the system's Chromium, or ErrNoBrowser. Debian's
// /usr/bin/chromium is a shell script that adds flags (extensions, GPU rasterisation) and
// runs /usr/lib/chromium/chromium: the program itself is started directly when present.
func FindBrowser() (string, error) {
	if p := os.Getenv("MUNDANEUM_CHROMIUM"); p != "" {
		if _, err := exec.LookPath(p); err != nil {
			return "", fmt.Errorf("%w (MUNDANEUM_CHROMIUM=%s: %v)", ErrNoBrowser, p, err)
		}
		return p, nil
	}
	for _, p := range []string{"/usr/lib/chromium/chromium", "chromium", "chromium-browser", "google-chrome-stable", "google-chrome"} {
		if path, err := exec.LookPath(p); err == nil {
			return path, nil
		}
	}
	return "", ErrNoBrowser
}

// Stats are what a Renderer did.
type Stats struct {
	Rendered, Failed int64
	Restarts         int64 // browsers started again after one died or was killed
	Peak             Memory
	// TabsClosed counts tabs closed because the browser went over the memory cap.
	TabsClosed int64
}

// Renderer renders pages in one browser (started on the first page, again after it dies),
// at most Options.Tabs at a time, each in a tab of its own kept from page to page. Its
// profile is a fresh temporary folder, removed when the browser ends. Safe for concurrent
// use; Close ends it.
type Renderer struct {
	opts Options
	slot chan struct{} // a place among the tabs

	mu     sync.Mutex
	b      *browserProc
	idle   []*tab
	closed bool
	noExec error // the browser cannot be found or started: every page says so
	// startFailures counts the browser's failed starts in a row.
	startFailures int
	gen           int
	active        map[*pageRun]bool
	// pageEnded is closed (and forgotten) when a page ends: browserFor waits on it to
	// replace a browser that went over the memory cap.
	pageEnded chan struct{}
	stats     Stats

	rendered, failed, restarts, tabsClosed atomic.Int64
}

// New returns a Renderer; no browser starts until the first page.
func New(opts Options) *Renderer {
	opts.defaults()
	return &Renderer{opts: opts, slot: make(chan struct{}, opts.Tabs), active: map[*pageRun]bool{}}
}

// Options returns the Renderer's options with their defaults.
func (r *Renderer) Options() Options { return r.opts }

// Available reports whether a browser can be found (not whether it starts).
func (r *Renderer) Available() error {
	if r.opts.Exec != "" {
		if _, err := exec.LookPath(r.opts.Exec); err != nil {
			return fmt.Errorf("%w (%s: %v)", ErrNoBrowser, r.opts.Exec, err)
		}
		return nil
	}
	_, err := FindBrowser()
	return err
}

// Stats returns what the Renderer did so far.
func (r *Renderer) Stats() Stats {
	r.mu.Lock()
	s := r.stats
	r.mu.Unlock()
	s.Rendered, s.Failed, s.Restarts, s.TabsClosed = r.rendered.Load(), r.failed.Load(), r.restarts.Load(), r.tabsClosed.Load()
	return s
}

// Close ends the browser and removes its profile. Pages being rendered fail.
func (r *Renderer) Close() error {
	r.mu.Lock()
	r.closed = true
	b := r.b
	r.b, r.idle = nil, nil
	r.mu.Unlock()
	if b != nil {
		b.stop()
	}
	return nil
}

// browserProc is one running browser.
type browserProc struct {
	gen         int
	ctx         context.Context // the browser's chromedp context: done when it dies
	cancel      context.CancelFunc
	allocCancel context.CancelFunc
	dir         string
	pid         int
	stopOnce    sync.Once
	monitorDone chan struct{}
	// overCap is when a tab was last closed for memory (unix ns; 0: never): the browser
	// takes no new page and is replaced once the pages in it end (browserFor).
	overCap atomic.Int64
	// memoryKills counts renderers the monitor killed for memory whose crash no tab has
	// reported yet; memoryDetail says why, for the page in the tab that reports it.
	memoryKills  atomic.Int64
	memoryDetail atomic.Pointer[string]
	users        int // pages given this browser by browserFor and not over (guarded by r.mu)
}

// stop ends the browser, waits for it, and removes its profile.
func (b *browserProc) stop() {
	b.stopOnce.Do(func() {
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = chromedp.Cancel(cctx) // a graceful close, killed when it takes too long
		cancel()
		b.cancel()
		b.allocCancel()
		if b.pid > 0 {
			_ = syscall.Kill(b.pid, syscall.SIGKILL) // gone already, normally
		}
		<-b.monitorDone
		os.RemoveAll(b.dir)
	})
}

// maxStartFailures is how many failed starts in a row make a Renderer give up.
const maxStartFailures = 2

// profilePrefix names the browser profiles Mundaneum makes in the temporary folder.
const profilePrefix = "mundaneum-chromium-"

// browserFor returns the running browser, starting one when there is none (or the last
// one died).
func (r *Renderer) browserFor(ctx context.Context) (*browserProc, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, &Error{Cause: CauseError, Detail: "the renderer is closed"}
	}
	if r.noExec != nil {
		return nil, r.noExec
	}
	// A browser that went over the memory cap takes no new page: once the pages it holds
	// end (each within its budget), it is replaced by a fresh one, since a closed tab's
	// memory is not always given back at once (its process may be kept for reuse).
	for r.b != nil && r.b.ctx.Err() == nil && r.b.overCap.Load() != 0 && r.b.users > 0 {
		if r.pageEnded == nil {
			r.pageEnded = make(chan struct{})
		}
		ended := r.pageEnded
		r.mu.Unlock()
		select {
		case <-ended:
		case <-ctx.Done():
		}
		r.mu.Lock()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if r.closed {
			return nil, &Error{Cause: CauseError, Detail: "the renderer is closed"}
		}
	}
	if r.b != nil {
		if r.b.ctx.Err() == nil && r.b.overCap.Load() == 0 {
			r.b.users++
			return r.b, nil
		}
		old := r.b
		r.b, r.idle = nil, nil
		go old.stop()
		r.restarts.Add(1)
	}
	exe := r.opts.Exec
	if exe == "" {
		p, err := FindBrowser()
		if err != nil {
			r.noExec = err
			return nil, err
		}
		exe = p
	} else if _, err := exec.LookPath(exe); err != nil {
		r.noExec = fmt.Errorf("%w (%s: %v)", ErrNoBrowser, exe, err)
		return nil, r.noExec
	}
	b, err := r.start(ctx, exe)
	if err != nil {
		// A browser that will not start twice running is not tried for every page.
		if r.startFailures++; r.startFailures >= maxStartFailures && ctx.Err() == nil {
			r.noExec = err
		}
		return nil, err
	}
	r.startFailures = 0
	traceLog("render: browser %d started (pid %d)", r.gen+1, b.pid)
	r.gen++
	b.gen = r.gen
	r.b = b
	b.users++
	return b, nil
}

// start starts the browser exe with a fresh profile.
func (r *Renderer) start(ctx context.Context, exe string) (*browserProc, error) {
	removeStaleProfiles()
	dir, err := os.MkdirTemp("", profilePrefix)
	if err != nil {
		return nil, fmt.Errorf("browser profile: %w", err)
	}
	_ = os.WriteFile(filepath.Join(dir, "mundaneum.pid"), []byte(strconv.Itoa(os.Getpid())), 0o600)
	o := r.opts
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.UserDataDir(dir), chromedp.Headless, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.WindowSize(o.Width, o.Height),
		chromedp.Flag("remote-debugging-pipe", true),
		// Chromium keeps its singleton socket in a folder of its own under TMPDIR, which a
		// stopped browser leaves behind: inside the profile, it goes with the profile.
		chromedp.Env("TMPDIR=" + dir),
	}
	for _, f := range browserFlags {
		name, value, ok := strings.Cut(f, "=")
		if ok {
			opts = append(opts, chromedp.Flag(name, value))
		} else {
			opts = append(opts, chromedp.Flag(name, true))
		}
	}
	for _, f := range o.Flags {
		name, value, ok := strings.Cut(f, "=")
		if ok {
			opts = append(opts, chromedp.Flag(name, value))
		} else {
			opts = append(opts, chromedp.Flag(name, true))
		}
	}
	// The browser outlives any one crawl's context only by being stopped: its own context
	// is the background.
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	// chromedp's own complaints (a pipe closed under it as a browser dies) are the
	// failures Render reports: logged only when tracing.
	bctx, bcancel := chromedp.NewContext(actx, chromedp.WithErrorf(traceLog), chromedp.WithLogf(traceLog))
	sctx, scancel := context.WithTimeout(ctx, 30*time.Second)
	defer scancel()
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(bctx) }()
	select {
	case err = <-started:
	case <-sctx.Done():
		err = sctx.Err()
	}
	if err != nil {
		bcancel()
		acancel()
		os.RemoveAll(dir)
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w (%s: %v)", ErrNoBrowser, exe, err)
		}
		return nil, &Error{Cause: CauseBrowserDied, Detail: "the browser did not start", Err: err}
	}
	b := &browserProc{ctx: bctx, cancel: bcancel, allocCancel: acancel, dir: dir, monitorDone: make(chan struct{})}
	if c := chromedp.FromContext(bctx); c != nil && c.Browser != nil && c.Browser.Process() != nil {
		b.pid = c.Browser.Process().Pid
	}
	if err := setupBrowser(bctx); err != nil {
		b.monitorDone = closedChan()
		b.stop()
		return nil, &Error{Cause: CauseBrowserDied, Detail: "the browser could not be set up", Err: err}
	}
	go r.monitor(b)
	return b, nil
}

func closedChan() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

// browserFlags keep the browser to the page in front of it: nothing of its own on the
// network (updates, sync, safe browsing, field trials), no popups or permission prompts,
// no extensions, a bounded JavaScript heap per tab, and every frame in the page's own
// process, so that the Fetch domain sees (and gates) the requests of all of them: the
// profile holds nothing a cross-site frame could steal, so site isolation protects
// nothing here and costs a process per frame.
var browserFlags = []string{
	"disable-background-networking", "disable-component-update", "disable-sync", "disable-extensions",
	"disable-default-apps", "disable-client-side-phishing-detection", "disable-domain-reliability",
	"disable-breakpad", "disable-crash-reporter", "disable-hang-monitor",
	"block-new-web-contents", "deny-permission-prompts", "disable-notifications", "disable-quic",
	"no-pings", "mute-audio", "hide-scrollbars", "metrics-recording-only", "password-store=basic",
	"use-mock-keychain", "disable-dev-shm-usage", "disable-site-isolation-trials",
	"disable-features=IsolateOrigins,site-per-process,Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,AutofillServerCommunication,CertificateTransparencyComponentUpdater,InterestFeedContentSuggestions,BackForwardCache",
	"js-flags=--max-old-space-size=384",
	"renderer-process-limit=8",
}

// removeStaleProfiles removes the profiles of browsers whose Mundaneum is gone (killed
// before it could remove them).
func removeStaleProfiles() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), profilePrefix+"*"))
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "mundaneum.pid"))
		if err != nil {
			if fi, err := os.Stat(d); err == nil && time.Since(fi.ModTime()) > time.Hour {
				os.RemoveAll(d)
			}
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if pid > 0 && pid != os.Getpid() && syscall.Kill(pid, 0) != nil {
			os.RemoveAll(d)
		}
	}
}

// release says that a page browserFor gave b to is over.
func (r *Renderer) release(b *browserProc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	b.users--
	if r.pageEnded != nil {
		close(r.pageEnded)
		r.pageEnded = nil
	}
}

// BrowserPID returns the process id of the running browser (0: none).
func (r *Renderer) BrowserPID() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.b == nil {
		return 0
	}
	return r.b.pid
}

// traceLog logs when MUNDANEUM_RENDER_TRACE is set.
func traceLog(format string, args ...any) {
	if os.Getenv("MUNDANEUM_RENDER_TRACE") != "" {
		log.Printf(format, args...)
	}
}
