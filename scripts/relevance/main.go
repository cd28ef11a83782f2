// Command relevance is Mundaneum's search relevance check. For each documentation set
// Debian ships as HTML (the Python 3.11, PostgreSQL 15, Git and SQLite docs) it serves
// the pages from a real web server on loopback, crawls them with `mundaneum crawl`, runs
// known-item queries from testdata/relevance/ through `mundaneum search` and through a
// stock BM25 baseline (Xapian's omindex and quest on the same pages), and reports MRR@10,
// success@1 and success@10 for both, for the tuning and the held-out split of each
// corpus apart. It exits non-zero when Mundaneum's MRR@10 on a corpus falls below the
// floor recorded in testdata/relevance/floor.txt, or when a search fails.
//
// Run it as `make relevance` (which installs missing Debian packages) or
// `go run ./scripts/relevance [-install] [-write-docs] [-corpus git,sqlite] [-split tune]`.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// options are the check's settings, from flags.
type options struct {
	root    string // the module's root directory
	tmp     string // scratch directory
	bin     string // the mundaneum binary
	install bool   // install missing Debian packages
	split   string // which queries to run: splitAll, splitTune or splitHeldOut
}

func say(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "relevance: "+format+"\n", args...)
}

func main() { os.Exit(realMain()) }

func realMain() int {
	bin := flag.String("bin", "", "mundaneum binary to test (default: build it from this module)")
	only := flag.String("corpus", "", "comma-separated corpora to run (default: all of "+corpusNames()+")")
	split := flag.String("split", splitAll, "queries to run: all, tune (the tuning split only, for tuning loops) or heldout")
	install := flag.Bool("install", false, "install missing Debian packages (as root or with password-less sudo)")
	docs := flag.Bool("write-docs", false, "also write the results into docs/relevance.md")
	keep := flag.Bool("keep", false, "keep the scratch directory (workspaces, indexes, logs)")
	timeout := flag.Duration("timeout", 30*time.Minute, "give up after this long")
	flag.Parse()
	start := time.Now()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()

	root, err := moduleRoot(ctx)
	if err != nil {
		say("%v", err)
		return 2
	}
	o := options{root: root, bin: *bin, install: *install, split: *split}
	if o.split != splitAll && o.split != splitTune && o.split != splitHeldOut {
		say("-split %q: want %s, %s or %s", o.split, splitAll, splitTune, splitHeldOut)
		return 2
	}
	o.tmp, err = os.MkdirTemp("", "mundaneum-relevance-")
	if err != nil {
		say("scratch directory: %v", err)
		return 2
	}
	if *keep {
		say("scratch directory kept: %s", o.tmp)
	} else {
		defer os.RemoveAll(o.tmp)
	}
	if err := ensurePackages(ctx, o.install, "xapian-omega", "xapian-tools"); err != nil {
		say("the Xapian baseline: %v", err)
		return 2
	}
	if o.bin == "" {
		say("building mundaneum")
		if o.bin, err = buildMundaneum(ctx, root, o.tmp); err != nil {
			say("%v", err)
			return 2
		}
	}
	floorFile := filepath.Join(root, "testdata", "relevance", "floor.txt")
	floors, err := readFloors(floorFile)
	if err != nil {
		say("%v", err)
		return 2
	}

	var runs []corpusRun
	for _, c := range corpora {
		if *only != "" && !contains(strings.Split(*only, ","), c.Name) {
			continue
		}
		r, err := runCorpus(ctx, c, o)
		if err != nil {
			say("%s: %v", c.Name, err)
			return 2
		}
		runs = append(runs, r)
	}
	if len(runs) == 0 {
		say("no corpus named %q", *only)
		return 2
	}
	what := "mundaneum built from the work tree at revision " + revision(ctx, root) + " (plus any uncommitted changes)"
	if *bin != "" {
		what = "the binary " + *bin
	}
	report := markdown(runs, what, time.Since(start), floors)
	fmt.Print(report)
	if *docs {
		file := filepath.Join(root, "docs", "relevance.md")
		if err := writeDocs(file, report); err != nil {
			say("%v", err)
			return 2
		}
		say("wrote %s", file)
	}
	if o.split != splitAll {
		say("floors not checked: they are set on all of a corpus's queries, and -split is %s", o.split)
		floors = nil
	}
	return verdict(runs, floors)
}

func corpusNames() string {
	var names []string
	for _, c := range corpora {
		names = append(names, c.Name)
	}
	return strings.Join(names, ",")
}

// runCorpus serves, crawls, indexes and queries one corpus.
func runCorpus(ctx context.Context, c corpus, o options) (corpusRun, error) {
	start := time.Now()
	r := corpusRun{C: c}
	if err := ensurePackages(ctx, o.install, c.Package); err != nil {
		if errors.Is(err, errNoInstall) && !c.Required {
			r.Skipped = err.Error()
			say("%s: skipped: %v", c.Name, err)
			return r, nil
		}
		return r, err
	}
	if fi, err := os.Stat(filepath.Join(c.Root, c.Seed)); err != nil || fi.IsDir() {
		return r, fmt.Errorf("package %s is installed but %s is missing (does dpkg exclude /usr/share/doc? see /etc/dpkg/dpkg.cfg.d)",
			c.Package, filepath.Join(c.Root, c.Seed))
	}
	qs, err := loadCorpusQueries(filepath.Join(o.root, "testdata", "relevance"), c.Name, o.split)
	if err != nil {
		return r, err
	}
	if err := verifyQueries(c.Root, qs); err != nil {
		return r, fmt.Errorf("query set does not match the pages:\n%w", err)
	}
	r.Queries = qs
	dir := filepath.Join(o.tmp, c.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return r, fmt.Errorf("scratch: %w", err)
	}

	srv, err := startServer(c.Root)
	if err != nil {
		return r, err
	}
	m := mundaneum{bin: o.bin, db: filepath.Join(dir, "workspace.db")}
	say("%s: crawling %s%s", c.Name, srv.base, c.Seed)
	t := time.Now()
	err = withLog(filepath.Join(dir, "crawl.log"), func(f *os.File) error { return m.crawl(ctx, srv.base+c.Seed, f) })
	srv.stop()
	if err != nil {
		return r, err
	}
	me := engineRun{Name: "Mundaneum", Prepare: time.Since(t)}
	pages := srv.pages()
	r.Pages = len(pages)
	crawled := map[string]bool{}
	for _, p := range pages {
		crawled[p] = true
	}
	for _, q := range qs {
		if !crawled[q.Expected] && !contains(r.NotCrawled, q.Expected) {
			r.NotCrawled = append(r.NotCrawled, q.Expected)
		}
	}

	x := xapian{db: filepath.Join(dir, "xapian")}
	say("%s: indexing the same %d pages with omindex", c.Name, len(pages))
	t = time.Now()
	err = withLog(filepath.Join(dir, "omindex.log"), func(f *os.File) error {
		return x.index(ctx, c.Root, filepath.Join(dir, "mirror"), pages, f)
	})
	if err != nil {
		return r, err
	}
	xe := engineRun{Name: "Xapian (omindex + quest, BM25)", Prepare: time.Since(t)}

	say("%s: running %d queries on both engines", c.Name, len(qs))
	me.Results = runQueries(ctx, m, qs)
	xe.Results = runQueries(ctx, x, qs)
	if err := ctx.Err(); err != nil {
		return r, err
	}
	r.Engines = []engineRun{me, xe}
	r.Took = time.Since(start)
	return r, nil
}

// queryTimeout bounds one search, process start included.
const queryTimeout = time.Minute

// runQueries runs every query; a failed search counts as a miss and is reported.
func runQueries(ctx context.Context, s searcher, qs []query) []result {
	out := make([]result, len(qs))
	for i, q := range qs {
		t := time.Now()
		qctx, cancel := context.WithTimeout(ctx, queryTimeout)
		hits, err := s.search(qctx, q.Text, cutoff)
		cancel()
		out[i] = result{Hits: hits, Took: time.Since(t), Rank: rankOf(hits, q.Expected)}
		if err != nil {
			out[i].Err = err.Error()
			say("search %q: %v", q.Text, err)
		}
	}
	return out
}

// withLog runs f with a log file, and on failure shows the log's end.
func withLog(file string, f func(*os.File) error) error {
	lf, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("log: %w", err)
	}
	err = f(lf)
	lf.Close()
	if err != nil {
		if data, rerr := os.ReadFile(file); rerr == nil {
			say("end of %s:\n%s", file, tail(string(data), 3000))
		}
	}
	return err
}

// verdict is the exit status: 1 when Mundaneum is below a floor or a search failed.
func verdict(runs []corpusRun, floors map[string]float64) int {
	status := 0
	for _, r := range runs {
		if r.Skipped != "" {
			continue
		}
		for _, e := range r.Engines {
			for i, res := range e.Results {
				if res.Err != "" {
					say("FAIL: %s: %s failed on %q: %s", r.C.Name, e.Name, r.Queries[i].Text, res.Err)
					status = 1
				}
			}
		}
		floor, ok := floors[r.C.Name]
		if !ok {
			continue
		}
		got := summarize(r.Engines[0].Results, nil).MRR
		if got < floor {
			say("FAIL: %s: Mundaneum MRR@10 %.3f is below the floor %.3f (testdata/relevance/floor.txt)", r.C.Name, got, floor)
			status = 1
		} else {
			say("ok: %s: Mundaneum MRR@10 %.3f >= floor %.3f", r.C.Name, got, floor)
		}
	}
	return status
}

// readFloors reads "corpus MRR@10-floor" lines; # starts a comment.
func readFloors(file string) (map[string]float64, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("floors: %w", err)
	}
	defer f.Close()
	floors := map[string]float64{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		v, err := strconv.ParseFloat(fields[len(fields)-1], 64)
		if len(fields) != 2 || err != nil || v < 0 || v > 1 {
			return nil, fmt.Errorf("%s:%d: want \"corpus floor\" with a floor in [0,1]", file, n)
		}
		floors[fields[0]] = v
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("floors: %w", err)
	}
	return floors, nil
}

// moduleRoot is the directory of the main module's go.mod.
func moduleRoot(ctx context.Context) (string, error) {
	out, err := run(ctx, "", nil, "go", "env", "GOMOD")
	if err != nil {
		return "", fmt.Errorf("find the module: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("find the module: run inside the mundaneum module")
	}
	return filepath.Dir(gomod), nil
}

// revision names the commit checked out, for the record.
func revision(ctx context.Context, root string) string {
	out, err := run(ctx, root, nil, "git", "rev-parse", "--short", "HEAD")
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.TrimSpace(x) == s {
			return true
		}
	}
	return false
}
