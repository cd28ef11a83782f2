// Command benchrender measures rendering pages that scripts build (issue 26), with the
// mundaneum binary it is given, on loopback:
//
//  1. the test site's application scaled to -pages script-built pages, crawled with
//     --render auto and the default tabs: rendered pages per second, the peak memory of
//     the browser's processes together (PSS and RSS, sampled from /proc every 250 ms),
//     and the crawl's own peak RSS, next to the same pages rendered on the server and
//     crawled without a browser;
//
//  2. Debian's PostgreSQL manual (static: postgresql-doc-15) crawled with --render auto
//     and --render never, -runs times each, alternately: pages rendered (none is the
//     bar) and the median throughput of each;
//
//  3. each hostile page of the test site rendered alone with the default budget: what it
//     cost against the budget plus 2 s.
//
//     go run ./scripts/benchrender -bin build/bin/mundaneum
//     go run ./scripts/benchrender -bin /tmp/mundaneum -pages 200 -runs 1 -skip pg
//     go run ./scripts/benchrender -serve   # the test site alone, until interrupted
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"mundaneum/backend/render"
	"mundaneum/backend/render/rendertest"
)

func main() {
	bin := flag.String("bin", "build/bin/mundaneum", "the mundaneum binary")
	pages := flag.Int("pages", 1000, "script-built pages of the application")
	runs := flag.Int("runs", 3, "runs of each mode on the PostgreSQL manual")
	tabs := flag.Int("tabs", 0, "tabs (0: the default)")
	skip := flag.String("skip", "", "parts to skip, comma-separated: app, pg, hostile")
	pgdocs := flag.String("pgdocs", "/usr/share/doc/postgresql-doc-15/html", "the PostgreSQL manual")
	serve := flag.Bool("serve", false, "serve the test site and wait")
	flag.Parse()
	if *serve {
		site := rendertest.New(*pages)
		fmt.Println(site.URL)
		c := make(chan os.Signal, 1)
		signal.Notify(c, os.Interrupt)
		<-c
		site.Close()
		return
	}
	exe, err := filepath.Abs(*bin)
	check(err)
	tmp, err := os.MkdirTemp("", "mund-bench-render-")
	check(err)
	defer os.RemoveAll(tmp)
	fmt.Printf("benchrender: %s, load %s\n", time.Now().Format("2006-01-02 15:04"), loadavg())
	skips := strings.Split(*skip, ",")
	if !slices.Contains(skips, "app") {
		benchApp(exe, tmp, *pages, *tabs)
	}
	if !slices.Contains(skips, "pg") {
		benchPG(exe, tmp, *pgdocs, *runs)
	}
	if !slices.Contains(skips, "hostile") {
		benchHostile()
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchrender:", err)
		os.Exit(1)
	}
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// summary is what the benchmark reads of `crawl --json`.
type summary struct {
	Pages map[string]int64 `json:"pages"`
	Run   struct {
		Visited     int64   `json:"visited"`
		Seconds     float64 `json:"seconds"`
		PagesPerSec float64 `json:"pagesPerSec"`
	} `json:"run"`
	Render  map[string]int64 `json:"render"`
	Browser *struct {
		Rendered, Failed, Restarts int64
		PeakPSS                    int64 `json:"peakPss"`
		PeakRSS                    int64 `json:"peakRss"`
	} `json:"browser"`
	Note string `json:"note"`
}

// result is one crawl: its summary and what the sampler saw.
type result struct {
	sum       summary
	wall      time.Duration
	crawlRSS  int64 // the crawl process's peak (VmHWM)
	treePSS   int64 // its descendants' (the browser's) peak, together
	treeRSS   int64
	processes int
	cpu       time.Duration // user and system time of the crawl and its browser
	crawlCPU  time.Duration // of the crawl's own process (sampled: to its last 250 ms)
}

// crawl runs `mundaneum crawl` on a fresh workspace and samples its memory.
func crawl(exe, dir string, args ...string) result {
	db := filepath.Join(dir, fmt.Sprintf("w-%d.mundaneum", time.Now().UnixNano()))
	defer func() {
		for _, suf := range []string{"", "-wal", "-shm", "-index", "-index-wal", "-index-shm", ".lock"} {
			os.Remove(db + suf)
		}
	}()
	cmd := exec.Command(exe, append([]string{"--db", db, "--json", "crawl"}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	check(cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var r result
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	pid := cmd.Process.Pid
	for loop := true; loop; {
		select {
		case err := <-done:
			if err != nil {
				fmt.Fprintf(os.Stderr, "benchrender: crawl %v: %v\n%s", args, err, errb.String())
			}
			loop = false
		case <-tick.C:
			if hwm := vmHWM(pid); hwm > r.crawlRSS {
				r.crawlRSS = hwm
			}
			if c := ownCPU(pid); c > 0 {
				r.crawlCPU = c
			}
			var pss, rss int64
			n := 0
			for _, p := range render.Descendants(pid)[1:] {
				if a, b, ok := render.ProcessMemory(p); ok {
					pss, rss, n = pss+a, rss+b, n+1
				}
			}
			r.treePSS, r.treeRSS, r.processes = max(r.treePSS, pss), max(r.treeRSS, rss), max(r.processes, n)
		}
	}
	r.wall = time.Since(start)
	if u, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		// The crawl's and, waited for in turn, its browser's processes'.
		r.cpu = time.Duration(u.Utime.Nano() + u.Stime.Nano())
	}
	check(json.Unmarshal(out.Bytes(), &r.sum))
	return r
}

func mb(n int64) string { return fmt.Sprintf("%d MB", n>>20) }

func benchApp(exe, dir string, pages, tabs int) {
	site := rendertest.New(pages)
	defer site.Close()
	common := []string{"--scope", "tree", "--delay", "0", "--per-host", "8", "--agents", "8"}
	if tabs > 0 {
		common = append(common, "--render-tabs", strconv.Itoa(tabs))
	}
	// The same cards, server-rendered: no browser. Then the script-built ones, rendered.
	ssr := crawl(exe, dir, append([]string{site.URL + "/ssr/cards/1", "--render", "auto"}, common...)...)
	app := crawl(exe, dir, append([]string{site.URL + "/app/cards/1", "--render", "auto"}, common...)...)
	rendered := app.sum.Render["rendered"]
	fmt.Printf("\n## %d script-built pages on loopback, --render auto, %s tabs\n\n", pages, tabsText(tabs))
	fmt.Println("| crawl | pages | rendered | time | pages/s | CPU per page (the crawl's own) | crawl's peak RSS | browser's peak (PSS together) | (RSS summed) | processes |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	for _, c := range []struct {
		name string
		r    result
	}{{"server-rendered copies (no browser)", ssr}, {"script-built, rendered", app}} {
		n := float64(max(c.r.sum.Pages["fetched"], 1))
		fmt.Printf("| %s | %d | %d | %.1f s | %.2f | %.0f ms (%.0f ms) | %s | %s | %s | %d |\n", c.name, c.r.sum.Pages["fetched"], c.r.sum.Render["rendered"],
			c.r.sum.Run.Seconds, float64(c.r.sum.Pages["fetched"])/c.r.sum.Run.Seconds,
			float64(c.r.cpu.Milliseconds())/n, float64(c.r.crawlCPU.Milliseconds())/n, mb(c.r.crawlRSS), mb(c.r.treePSS), mb(c.r.treeRSS), c.r.processes)
	}
	fmt.Printf("\nBENCH render pages=%d rendered=%d pages/s=%.2f (bar >= 4) browser-peak-pss=%s (bar <= 700 MB) rss-summed=%s crawl-rss=%s vs %s without a browser; failed=%d restarts=%d\n",
		pages, rendered, float64(rendered)/app.sum.Run.Seconds, mb(app.treePSS), mb(app.treeRSS), mb(app.crawlRSS), mb(ssr.crawlRSS),
		browserField(app, "failed"), browserField(app, "restarts"))
	if app.sum.Note != "" {
		fmt.Println("note:", app.sum.Note)
	}
}

func browserField(r result, f string) int64 {
	if r.sum.Browser == nil {
		return 0
	}
	if f == "failed" {
		return r.sum.Browser.Failed
	}
	return r.sum.Browser.Restarts
}

func tabsText(tabs int) string {
	if tabs == 0 {
		return fmt.Sprintf("%d (the default)", render.DefaultTabs)
	}
	return strconv.Itoa(tabs)
}

func benchPG(exe, dir, docs string, runs int) {
	if _, err := os.Stat(filepath.Join(docs, "index.html")); err != nil {
		fmt.Printf("\n(skipped the PostgreSQL manual: %v; apt-get install postgresql-doc-15)\n", err)
		return
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(docs)))
	defer srv.Close()
	args := []string{srv.URL + "/index.html", "--scope", "tree", "--delay", "0", "--per-host", "16", "--agents", "16"}
	var auto, never []float64
	var rendered, pages int64
	for i := range runs {
		for _, mode := range []string{"auto", "never"} {
			r := crawl(exe, dir, append(slices.Clone(args), "--render", mode)...)
			rate := float64(r.sum.Pages["fetched"]) / r.sum.Run.Seconds
			if mode == "auto" {
				auto = append(auto, rate)
				rendered += r.sum.Render["rendered"]
				pages = r.sum.Pages["fetched"]
			} else {
				never = append(never, rate)
			}
			fmt.Fprintf(os.Stderr, "benchrender: pg run %d %s: %d pages, %.1f pages/s, rendered %d, browser processes %d\n",
				i+1, mode, r.sum.Pages["fetched"], rate, r.sum.Render["rendered"], r.processes)
		}
	}
	ma, mn := median(auto), median(never)
	fmt.Printf("\n## The PostgreSQL manual (%d pages, static), %d runs of each mode\n\n", pages, runs)
	fmt.Printf("| mode | median pages/s | runs |\n|---|---|---|\n| --render auto | %.1f | %s |\n| --render never | %.1f | %s |\n",
		ma, rates(auto), mn, rates(never))
	fmt.Printf("\nBENCH render-pg pages=%d rendered=%d (bar 0) auto=%.1f never=%.1f pages/s: auto/never %.3f (bar >= 0.95)\n",
		pages, rendered, ma, mn, ma/mn)
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

func rates(xs []float64) string {
	var p []string
	for _, x := range xs {
		p = append(p, fmt.Sprintf("%.1f", x))
	}
	return strings.Join(p, ", ")
}

// benchHostile renders each hostile page alone, with the default budget.
func benchHostile() {
	site := rendertest.New(1)
	defer site.Close()
	r := render.New(render.Options{})
	defer r.Close()
	u, _ := url.Parse(site.URL)
	gate := admitAll{host: u.Host}
	// The browser is started first: its start is not a page's cost.
	warm(r, site.URL+"/app/about", gate)
	budget := render.DefaultBudget
	fmt.Printf("\n## Hostile pages, each alone, budget %s (bar: budget + 2 s = %s)\n\n| page | outcome | cost |\n|---|---|---|\n", budget, budget+2*time.Second)
	worst := time.Duration(0)
	for _, h := range rendertest.Hostile {
		res, err := http.Get(site.URL + "/hostile/" + h)
		check(err)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		start := time.Now()
		out, err := r.Render(context.Background(), render.Request{URL: site.URL + "/hostile/" + h, Status: res.StatusCode, Header: res.Header, Body: body, Gate: gate})
		took := time.Since(start)
		worst = max(worst, took)
		what := "read"
		if err != nil {
			what = "not rendered: " + render.CauseOf(err)
		} else if !out.Settled {
			what = "read, did not settle"
		}
		fmt.Printf("| %s | %s | %.1f s |\n", h, what, took.Seconds())
	}
	st := r.Stats()
	fmt.Printf("\nBENCH render-hostile worst=%.1f s (bar <= %.0f s) restarts=%d peak-pss=%s\n", worst.Seconds(), (budget + 2*time.Second).Seconds(), st.Restarts, mb(st.Peak.PSS))
}

// admitAll admits the test site's own requests (the hostile pages' tracker is another
// host: refused).
type admitAll struct{ host string }

func (a admitAll) Admit(ctx context.Context, u *url.URL) (func(int, bool), error) {
	if u.Host != a.host {
		return nil, &render.Refused{Reason: "outside"}
	}
	return func(int, bool) {}, nil
}

func warm(r *render.Renderer, raw string, g render.Gate) {
	res, err := http.Get(raw)
	check(err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	_, err = r.Render(context.Background(), render.Request{URL: raw, Status: res.StatusCode, Header: res.Header, Body: body, Gate: g})
	check(err)
}

// vmHWM is a process's peak resident set size, bytes (0 when it is gone).
func vmHWM(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n << 10
			}
		}
	}
	return 0
}

// ownCPU is a process's own user and system time (0 when it is gone).
func ownCPU(pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // clock ticks: 100 a second on Linux
}
