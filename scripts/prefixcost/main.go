// Command prefixcost times 2-letter prefix queries ("ca*") on an index file, the queries
// page_fts's prefix index (prefix = '2') is for: the other half of what the index without
// its prefix index (scripts/index-floor.sh) would cost. For each prefix it asks the count
// of matching rows and the first 10 by rank, as a search's first page does, and prints the
// median of -runs runs.
//
//	go run ./scripts/prefixcost -index W-index [-runs 5] [-prefixes ca,un,re,co,st,zy]
package main

import (
	"database/sql"
	"flag"
	"fmt"
	"log"
	"slices"
	"strings"
	"time"

	_ "modernc.org/sqlite"
)

func main() {
	path := flag.String("index", "", "the index file (<workspace>-index)")
	runs := flag.Int("runs", 5, "runs of each query")
	prefixes := flag.String("prefixes", "ca,un,re,co,st,pa,zy", "comma-separated 2-letter prefixes")
	flag.Parse()
	if *path == "" {
		log.Fatal("prefixcost: -index is required")
	}
	db, err := sql.Open("sqlite", "file:"+*path+"?mode=ro")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	var cfg string
	if err := db.QueryRow(`SELECT sql FROM sqlite_master WHERE name = 'page_fts'`).Scan(&cfg); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("page_fts prefix index: %v\n", strings.Contains(cfg, "prefix"))
	for _, p := range strings.Split(*prefixes, ",") {
		q := p + "*"
		var n int
		var counts, tops []time.Duration
		for range *runs {
			t := time.Now()
			if err := db.QueryRow(`SELECT count(*) FROM page_fts WHERE page_fts MATCH ?`, q).Scan(&n); err != nil {
				log.Fatal(err)
			}
			counts = append(counts, time.Since(t))
			t = time.Now()
			rows, err := db.Query(`SELECT rowid FROM page_fts WHERE page_fts MATCH ? ORDER BY rank LIMIT 10`, q)
			if err != nil {
				log.Fatal(err)
			}
			for rows.Next() {
			}
			if err := rows.Err(); err != nil {
				log.Fatal(err)
			}
			rows.Close()
			tops = append(tops, time.Since(t))
		}
		slices.Sort(counts)
		slices.Sort(tops)
		fmt.Printf("%-4s rows %7d  count %8.2f ms  top 10 by rank %8.2f ms\n", q, n,
			ms(counts[len(counts)/2]), ms(tops[len(tops)/2]))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
