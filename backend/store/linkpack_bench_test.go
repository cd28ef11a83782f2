package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// BenchmarkExpandLinks expands the packs of 4,096 pages with 20 links each (random targets
// among 5,000 pages, random anchors from 2,000 words, as the synthetic web has them): the
// time per link is what the expansion costs the writer behind the crawl.
func BenchmarkExpandLinks(b *testing.B) {
	ctx := context.Background()
	st, err := Open(ctx, b.TempDir()+"/w.mundaneum", Options{HoldLinks: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	const pages, links = 5000, 20
	rng := rand.New(rand.NewPCG(1, 2))
	err = st.Writer().Do(ctx, func(tx *Tx) error {
		if _, err := tx.Exec(`INSERT INTO hosts(origin) VALUES ('http://a.test')`); err != nil {
			return err
		}
		for i := range pages {
			state := "fetched"
			if i%3 == 0 {
				state = "queued"
			}
			if _, err := tx.Exec(`INSERT INTO pages(url, host_id, state, discovered_at) VALUES (?, 1, ?, 0)`,
				fmt.Sprintf("http://a.test/p%d", i), state); err != nil {
				return err
			}
		}
		for from := 1; from <= 4096; from++ {
			var p linkPack
			for k := range links {
				t := Target{Kind: "a", Anchor: fmt.Sprintf("word%d", rng.IntN(2000)), Pos: k + 1}
				if k == 0 {
					t.Anchor = "home"
				}
				p.add(int64(1+rng.IntN(pages)), &t)
			}
			if _, err := tx.Exec(`INSERT INTO link_packs(page_id, n, data) VALUES (?, ?, ?)`, from, p.n, p.json()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	if err := st.Writer().Flush(ctx); err != nil {
		b.Fatal(err)
	}
	if v := os.Getenv("EXPAND_VARIANT"); v != "" {
		err := st.Writer().Do(ctx, func(tx *Tx) error {
			q := `DROP TRIGGER links_count_insert`
			if v == "nofk" {
				q += `; CREATE TABLE lr2 (from_id INTEGER NOT NULL, to_id INTEGER NOT NULL, kind TEXT NOT NULL,
					anchor TEXT NOT NULL DEFAULT '', rel TEXT NOT NULL DEFAULT '', pos INTEGER NOT NULL DEFAULT 0,
					PRIMARY KEY (from_id, to_id, kind)) WITHOUT ROWID;
					DROP VIEW links; DROP TABLE link_rows; ALTER TABLE lr2 RENAME TO link_rows;
					CREATE INDEX links_to ON link_rows(to_id, anchor)`
			}
			if v == "nofk-rowid" {
				q += `; CREATE TABLE lr2 (from_id INTEGER NOT NULL, to_id INTEGER NOT NULL, kind TEXT NOT NULL,
					anchor TEXT NOT NULL DEFAULT '', rel TEXT NOT NULL DEFAULT '', pos INTEGER NOT NULL DEFAULT 0,
					PRIMARY KEY (to_id, anchor, from_id, kind)) WITHOUT ROWID;
					DROP VIEW links; DROP TABLE link_rows; ALTER TABLE lr2 RENAME TO link_rows`
			}
			_, err := tx.Exec(q)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		if err := st.ExpandLinks(ctx); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := st.RepackLinks(ctx); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*4096*links), "ns/link")
}
