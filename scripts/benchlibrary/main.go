// Command benchlibrary measures the virtual library's figures (issue 12):
//
//   - import: a Netscape bookmarks file of N bookmarks (-bookmarks, default 100,000) in ~1,000
//     nested folders, with tags, notes and dates, into a fresh workspace: the time of
//     library.Import (reading the file, one transaction) and of the whole `mundaneum
//     library import` command when -bin is given. Target: under 10 s at 100,000.
//
//   - search: a seeded mix of queries (rare and common words, two words, a phrase, a
//     prefix, a tag, a folder) over that library with library hits as the window asks for
//     them: p50/p95/p99. Target: p99 under 20 ms at 100,000 postings.
//
//   - -open N: also writes a workspace whose library /Big holds N postings, for the
//     window's first-paint figure (frontend/e2e/library-perf.mjs), and prints its path.
//
// Run it with make bench-library, or:
//
//	go run ./scripts/benchlibrary -bookmarks 100000 -queries 2000 -open 10000 -bin build/bin/mundaneum
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"html"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"mundaneum/backend/library"
	"mundaneum/backend/libsearch"
	"mundaneum/backend/store"
)

func main() {
	n := flag.Int("bookmarks", 100_000, "bookmarks in the generated file")
	queries := flag.Int("queries", 2000, "timed library searches")
	open := flag.Int("open", 0, "also write a workspace with a library of this many postings (0: none)")
	dir := flag.String("dir", filepath.Join(os.TempDir(), "mundaneum-benchlibrary"), "where the files go")
	words := flag.String("words", "/usr/share/dict/words", "word list (Debian wamerican)")
	bin := flag.String("bin", "", "also time `BIN library import` on the same file")
	seed := flag.Uint64("seed", 1, "seed of the generated bookmarks and queries")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the import and the searches to this file")
	flag.BoolVar(&reuse, "reuse", false, "search the workspace of an earlier run again (no new file, no import)")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchlibrary:", err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if err := run(*n, *queries, *open, *dir, *words, *bin, *seed); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "benchlibrary:", err)
		os.Exit(1)
	}
}

// reuse skips the generation and the import when their workspace is there.
var reuse bool

func loadWords(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, w := range strings.Fields(string(b)) {
		if len(w) >= 3 && !strings.ContainsAny(w, "'") && strings.ToLower(w) == w {
			out = append(out, w)
		}
	}
	return out, nil
}

// zipf draws word i with probability ~ 1/(i+1): a few words are common, most rare.
type zipf struct {
	words []string
	z     *rand.Zipf
}

// title capitalises each word's first letter (strings.Title is deprecated; the words here are
// plain lower-case dictionary words, so its Unicode word-boundary fault does not arise).
func title(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		r, size := utf8.DecodeRuneInString(w)
		words[i] = string(unicode.ToTitle(r)) + w[size:]
	}
	return strings.Join(words, " ")
}

func (z zipf) word() string { return z.words[z.z.Uint64()] }

func (z zipf) phrase(r *rand.Rand, min, max int) string {
	k := min + r.IntN(max-min+1)
	ws := make([]string, k)
	for i := range ws {
		ws[i] = z.word()
	}
	return strings.Join(ws, " ")
}

// generate writes a Netscape bookmarks file of n bookmarks in 10 x 10 x 10 folders.
func generate(path string, n int, z zipf, r *rand.Rand) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	w.WriteString("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=UTF-8\">\n<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n")
	tags := []string{"reference", "howto", "paper", "tool", "news", "video", "book", "history", "data", "code", "talk", "blog"}
	per := n / 1000
	i := 0
	date := int64(1_500_000_000)
	for a := 0; a < 10; a++ {
		fmt.Fprintf(w, "<DT><H3 ADD_DATE=\"%d\">%s</H3>\n<DL><p>\n", date, html.EscapeString(title(z.phrase(r, 1, 2))))
		for b := 0; b < 10; b++ {
			fmt.Fprintf(w, "  <DT><H3 ADD_DATE=\"%d\">%s</H3>\n  <DL><p>\n", date, html.EscapeString(title(z.phrase(r, 1, 3))))
			for c := 0; c < 10; c++ {
				fmt.Fprintf(w, "    <DT><H3 ADD_DATE=\"%d\">%s %d</H3>\n    <DL><p>\n", date, html.EscapeString(title(z.word())), c)
				k := per
				if a == 9 && b == 9 && c == 9 {
					k = n - i
				}
				for j := 0; j < k; j++ {
					date += int64(r.IntN(600))
					t := tags[r.IntN(len(tags))] + "," + tags[r.IntN(len(tags))]
					fmt.Fprintf(w, "      <DT><A HREF=\"https://host%d.example/%s/%d.html\" ADD_DATE=\"%d\" TAGS=\"%s\">%s</A>\n",
						r.IntN(5000), z.word(), i, date, t, html.EscapeString(z.phrase(r, 3, 8)))
					if r.IntN(5) == 0 {
						fmt.Fprintf(w, "      <DD>%s\n", html.EscapeString(z.phrase(r, 8, 25)))
					}
					i++
				}
				w.WriteString("    </DL><p>\n")
			}
			w.WriteString("  </DL><p>\n")
		}
		w.WriteString("</DL><p>\n")
	}
	w.WriteString("</DL><p>\n")
	return w.Flush()
}

// cpuTime is the CPU time the process has used (every thread, user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration{}, ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, int(math.Ceil(p*float64(len(s))))-1)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

func run(n, queries, open int, dir, wordsPath, bin string, seed uint64) error {
	ctx := context.Background()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	words, err := loadWords(wordsPath)
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(seed, 12))
	z := zipf{words: words, z: rand.NewZipf(r, 1.1, 2, uint64(len(words)-1))}
	file := filepath.Join(dir, fmt.Sprintf("bookmarks-%d.html", n))
	db := filepath.Join(dir, fmt.Sprintf("import-%d.mundaneum", n))
	var st *store.Store
	var l *library.Library
	postings := 0
	if _, err := os.Stat(db); err == nil && reuse {
		if st, err = store.Open(ctx, db, store.Options{}); err != nil {
			return err
		}
		l = library.New(st)
		r, err := l.Recent(ctx, library.RootID, 0, 0, 1)
		if err != nil {
			return err
		}
		postings = r.Total
	} else {
		if err := generate(file, n, z, r); err != nil {
			return err
		}
		fi, _ := os.Stat(file)
		fmt.Printf("bookmarks file: %d bookmarks, %.1f MiB (%s)\n", n, float64(fi.Size())/(1<<20), file)

		// Import, in-process.
		for _, suffix := range []string{"", "-wal", "-shm", ".lock", ".turn"} {
			os.Remove(db + suffix)
		}
		if st, err = store.Open(ctx, db, store.Options{}); err != nil {
			return err
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		l = library.New(st)
		cpu0 := cpuTime()
		start := time.Now()
		rep, err := l.Import(ctx, library.RootID, data, library.Author{})
		took := time.Since(start)
		if err != nil {
			return err
		}
		postings = rep.Added()
		fmt.Printf("import (library.Import, one transaction): %d libraries, %d pointers in %.2f s (%.0f bookmarks/s), CPU %.2f s\n",
			rep.Libraries, rep.Pointers, took.Seconds(), float64(rep.Pointers)/took.Seconds(), (cpuTime() - cpu0).Seconds())
	}

	// Search inside the library.
	s := libsearch.New(st.ReadDB())
	qr := rand.New(rand.NewPCG(seed, 99))
	folder, err := l.Open(ctx, library.RootID, library.ListQuery{Limit: 1})
	if err != nil {
		return err
	}
	mix := func() (string, string) {
		switch k := qr.IntN(8); k {
		case 0, 1:
			return "rare word", words[qr.IntN(len(words))]
		case 2:
			return "common word", z.words[qr.IntN(20)]
		case 3:
			return "two words", z.word() + " " + z.word()
		case 4:
			return "phrase", `"` + z.word() + " " + z.word() + `"`
		case 5:
			w := z.word()
			return "prefix", w[:min(len(w), 3)] + "*"
		case 6:
			return "tag", "tag:paper " + z.word()
		default:
			f := folder.Libraries[qr.IntN(len(folder.Libraries))].Title
			return "folder", fmt.Sprintf(`folder:"/%s" %s`, library.EscapeTitle(f), z.word())
		}
	}
	for range 200 { // warm up
		_, q := mix()
		s.Search(ctx, libsearch.Request{Query: q, Limit: 50})
	}
	byClass, byClassCPU := map[string][]time.Duration{}, map[string][]time.Duration{}
	var all, cpus []time.Duration
	var worst time.Duration
	worstQ := ""
	for range queries {
		class, q := mix()
		c0, t0 := cpuTime(), time.Now()
		if _, err := s.Search(ctx, libsearch.Request{Query: q, Limit: 50}); err != nil {
			return fmt.Errorf("%q: %w", q, err)
		}
		d := time.Since(t0)
		cpus = append(cpus, cpuTime()-c0)
		byClassCPU[class] = append(byClassCPU[class], cpus[len(cpus)-1])
		all = append(all, d)
		byClass[class] = append(byClass[class], d)
		if d > worst {
			worst, worstQ = d, q
		}
	}
	fmt.Printf("library search over %d postings, %d queries, 50 hits each: p50 %s, p95 %s, p99 %s, max %s (%q)\n",
		postings, queries, ms(percentile(all, .5)), ms(percentile(all, .95)), ms(percentile(all, .99)), ms(worst), worstQ)
	fmt.Printf("  CPU per query (the process's, every thread; 4 ms clock ticks): p50 %s, p99 %s\n",
		ms(percentile(cpus, .5)), ms(percentile(cpus, .99)))
	classes := make([]string, 0, len(byClass))
	for c := range byClass {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, c := range classes {
		ds := byClass[c]
		fmt.Printf("  %-12s n=%4d p50 %9s p99 %9s   CPU p50 %9s p99 %9s\n", c, len(ds), ms(percentile(ds, .5)), ms(percentile(ds, .99)),
			ms(percentile(byClassCPU[c], .5)), ms(percentile(byClassCPU[c], .99)))
	}
	st.Close()

	if bin != "" {
		db2 := filepath.Join(dir, fmt.Sprintf("cli-%d.mundaneum", n))
		for _, suffix := range []string{"", "-wal", "-shm", ".lock", ".turn"} {
			os.Remove(db2 + suffix)
		}
		t0 := time.Now()
		out, err := exec.Command(bin, "library", "import", "--db", db2, file).CombinedOutput()
		if err != nil {
			return fmt.Errorf("%s library import: %v\n%s", bin, err, out)
		}
		fmt.Printf("`mundaneum library import` (a new workspace, the whole command): %.2f s: %s",
			time.Since(t0).Seconds(), bytes.TrimSpace(out))
		fmt.Println()
	}
	if open > 0 {
		return writeBig(ctx, dir, open, z, r)
	}
	return nil
}

// writeBig writes a workspace whose library /Big holds n pointers (a fifth of them with
// notes), for the window's first paint.
func writeBig(ctx context.Context, dir string, n int, z zipf, r *rand.Rand) error {
	db := filepath.Join(dir, fmt.Sprintf("big-%d.mundaneum", n))
	for _, suffix := range []string{"", "-wal", "-shm", ".lock", ".turn"} {
		os.Remove(db + suffix)
	}
	st, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	var b strings.Builder
	b.WriteString("# Big\n")
	for i := range n {
		fmt.Fprintf(&b, "- [%s](https://host%d.example/%d.html) %s\n", title(z.phrase(r, 3, 7)), r.IntN(3000), i, z.phrase(r, 0, 12))
	}
	rep, err := library.New(st).Import(ctx, library.RootID, []byte(b.String()), library.Author{})
	if err != nil {
		return err
	}
	fmt.Printf("big library: /Big with %d postings in %s\n", rep.Pointers, db)
	// The server's side of the window's first paint: the page the view asks for (its
	// first 50 postings), as the LibraryPage call reads it.
	l := library.New(st)
	big, err := l.Resolve(ctx, "/Big")
	if err != nil {
		return err
	}
	var walls, cpus []time.Duration
	for i := range 120 {
		c0, t0 := cpuTime(), time.Now()
		p, err := l.Open(ctx, big.ID, library.ListQuery{Limit: 50})
		if err != nil {
			return err
		}
		if i >= 20 { // warm-up
			walls, cpus = append(walls, time.Since(t0)), append(cpus, cpuTime()-c0)
		}
		if len(p.Postings) != 50 || p.Library.Postings != n {
			return fmt.Errorf("/Big's page: %d postings of %d listed, %d counted", len(p.Postings), p.Total, p.Library.Postings)
		}
	}
	fmt.Printf("open /Big (library.Open, its first 50 postings, 100 times): p50 %s, p99 %s; CPU p50 %s, p99 %s\n",
		ms(percentile(walls, .5)), ms(percentile(walls, .99)), ms(percentile(cpus, .5)), ms(percentile(cpus, .99)))
	return nil
}
