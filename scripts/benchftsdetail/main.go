// Command benchftsdetail measures what FTS5's detail option costs the index's writer: it
// reads pages of a workspace (their index rows, as the index stage builds them), writes
// them into fresh index files whose page_fts (and page_pairs) differ only in detail=
// (full, column, none), in transactions of the stage's size, and prints for each the
// process CPU per page spent writing and the file's bytes per page (-automerge sets the
// merge option the same way; after each run it logs what FTS5 answers a phrase and a NEAR
// query under that detail). Runs alternate the variants so that a change of machine load
// falls on all of them (issue 30):
//
//	go run ./scripts/benchftsdetail -workspace /tmp/ci/bsdir/p100000-s1-b150-600-g1/workspace.mundaneum -pages 20000
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	_ "modernc.org/sqlite"

	"mundaneum/backend/index"
	"mundaneum/backend/pairs"
	"mundaneum/backend/store"
)

func main() {
	ws := flag.String("workspace", "", "workspace to read pages from")
	pages := flag.Int("pages", 20000, "pages to index per run")
	rounds := flag.Int("rounds", 2, "runs of each variant, alternated")
	batch := flag.Int("batch", 256, "pages per transaction (the index stage's batchPages)")
	variants := flag.String("variants", "full,column,none", "detail= values to compare")
	withPairs := flag.Bool("pairs", true, "also write page_pairs (same detail), with the words of the workspace's index")
	prefixOpt := flag.String("prefix", "2", "page_fts's prefix= option (empty: none)")
	automerge := flag.Int("automerge", 8, "page_fts's and page_pairs' automerge")
	tmp := flag.String("tmp", os.TempDir(), "where to write the index files")
	flag.Parse()
	ctx := context.Background()
	docs, words := read(ctx, *ws, *pages, *withPairs)
	log.Printf("%d docs, %d pair words", len(docs), words.Len())
	for r := 0; r < *rounds; r++ {
		for _, v := range strings.Split(*variants, ",") {
			cpu, wall, size := run(ctx, filepath.Join(*tmp, "benchftsdetail-"+v), v, *prefixOpt, *automerge, docs, words, *batch)
			fmt.Printf("detail=%-6s round %d: cpu %.3f ms/page  wall %.3f ms/page  %.0f bytes/page\n",
				v, r+1, cpu.Seconds()*1000/float64(len(docs)), wall.Seconds()*1000/float64(len(docs)), float64(size)/float64(len(docs)))
		}
	}
}

func read(ctx context.Context, ws string, n int, withPairs bool) ([]index.Doc, *pairs.Words) {
	db, err := sql.Open("sqlite", "file:"+ws+"?mode=ro")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	var docs []index.Doc
	for id := int64(1); len(docs) < n; id += 500 {
		ids := make([]int64, 500)
		for i := range ids {
			ids[i] = id + int64(i)
		}
		ins, err := store.IndexInputs(ctx, db, ids)
		if err != nil {
			log.Fatal(err)
		}
		got := 0
		for _, in := range ins {
			if d, ok := index.DocOf(in); ok && len(docs) < n {
				docs = append(docs, d)
				got++
			}
		}
		if got == 0 && id > 10*int64(n) {
			break
		}
	}
	var words *pairs.Words
	if withPairs {
		c := pairs.NewCounter()
		for _, d := range docs {
			cols := d.Columns()
			c.Add(cols[:]...)
		}
		words = pairs.NewWords(c.Frequent())
	}
	return docs, words
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func run(ctx context.Context, path, detail, prefixOpt string, automerge int, docs []index.Doc, words *pairs.Words, batch int) (cpu, wall time.Duration, size int64) {
	for _, s := range []string{"", "-wal", "-shm"} {
		os.Remove(path + s)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=synchronous(NORMAL)&_pragma=journal_mode(WAL)&_pragma=cache_size(-16000)&_pragma=temp_store(MEMORY)&_txlock=immediate")
	if err != nil {
		log.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	defer db.Close()
	opt := ""
	if detail != "full" {
		opt = ", detail = " + detail
	}
	for _, t := range []string{"page_fts", "page_pairs"} {
		prefix := ""
		if t == "page_fts" && prefixOpt != "" {
			prefix = "prefix = '" + prefixOpt + "',"
		}
		for _, q := range []string{
			`CREATE VIRTUAL TABLE ` + t + ` USING fts5(title, headings, body, anchors, url, content = '', contentless_delete = 1, ` + prefix + ` tokenize = 'unicode61 remove_diacritics 2'` + opt + `)`,
			`INSERT INTO ` + t + `(` + t + `, rank) VALUES ('automerge', ` + fmt.Sprint(automerge) + `)`,
			`INSERT INTO ` + t + `(` + t + `, rank) VALUES ('crisismerge', 32)`,
		} {
			if _, err := db.Exec(q); err != nil {
				log.Fatal(err)
			}
		}
	}
	c0, t0 := cpuNow(), time.Now()
	for i := 0; i < len(docs); i += batch {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			log.Fatal(err)
		}
		ins, _ := tx.Prepare(`INSERT INTO page_fts(rowid, title, headings, body, anchors, url) VALUES (?, ?, ?, ?, ?, ?)`)
		pins, _ := tx.Prepare(`INSERT INTO page_pairs(rowid, title, headings, body, anchors, url) VALUES (?, ?, ?, ?, ?, ?)`)
		for _, d := range docs[i:min(i+batch, len(docs))] {
			c := d.Columns()
			if _, err := ins.Exec(d.ID, c[0], c[1], c[2], c[3], c[4]); err != nil {
				log.Fatal(err)
			}
			if words.Len() > 0 {
				var p [5]string
				for j, col := range c {
					p[j] = words.Text(col)
				}
				if _, err := pins.Exec(d.ID, p[0], p[1], p[2], p[3], p[4]); err != nil {
					log.Fatal(err)
				}
			}
		}
		ins.Close()
		pins.Close()
		if err := tx.Commit(); err != nil {
			log.Fatal(err)
		}
	}
	cpu, wall = cpuNow()-c0, time.Since(t0)
	// What FTS5 says of a phrase and of NEAR under this detail.
	for _, q := range []string{`"the of"`, `NEAR(the of, 3)`} {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM page_fts WHERE page_fts MATCH ?`, q).Scan(&n); err != nil {
			log.Printf("detail=%s: %s: %v", detail, q, err)
		}
	}
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		log.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		log.Fatal(err)
	}
	return cpu, wall, fi.Size()
}
