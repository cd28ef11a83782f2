package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkSaveResult saves fetched pages with 40 links each (a fifth of them new pages, a
// quarter of the pairs also as an image) as a crawl does, with the count triggers of
// migration 0005 and without them: the difference is what the triggers cost the writer.
func BenchmarkSaveResult(b *testing.B) {
	for _, triggers := range []bool{true, false} {
		b.Run(fmt.Sprintf("triggers=%v", triggers), func(b *testing.B) {
			ctx := context.Background()
			st, err := Open(ctx, b.TempDir()+"/w.mundaneum", Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			if !triggers {
				err := st.Writer().Do(ctx, func(tx *Tx) error {
					rows, err := tx.Query(`SELECT name FROM sqlite_schema WHERE type = 'trigger'`)
					if err != nil {
						return err
					}
					var names []string
					for rows.Next() {
						var n string
						rows.Scan(&n)
						names = append(names, n)
					}
					rows.Close()
					for _, n := range names {
						if _, err := tx.Exec(`DROP TRIGGER "` + n + `"`); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			cr, err := st.CreateCrawl(ctx, "k", []string{"http://a.test/"}, "site", []byte(`{}`))
			if err != nil {
				b.Fatal(err)
			}
			target := func(i int, kind string) Target {
				return Target{URL: fmt.Sprintf("http://a.test/p%d", i), Origin: "http://a.test", Kind: kind,
					Anchor: fmt.Sprint("page ", i), Follow: kind == "a"}
			}
			seeds := make([]Target, b.N)
			for i := range seeds {
				seeds[i] = target(i, "seed")
			}
			if _, err := st.Enqueue(ctx, cr.ID, seeds); err != nil {
				b.Fatal(err)
			}
			ids := make([]int64, b.N)
			for i := range ids {
				if ids[i], err = Get(ctx, st.Writer(), func(tx *Tx) (int64, error) {
					var id int64
					return id, tx.QueryRow(`SELECT id FROM pages WHERE url = ?`, seeds[i].URL).Scan(&id)
				}); err != nil {
					b.Fatal(err)
				}
			}
			if err := st.Writer().Flush(ctx); err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			next := b.N
			b.ResetTimer()
			for i := range b.N {
				links := make([]Target, 0, 50)
				for range 40 {
					j := rng.IntN(b.N)
					if rng.IntN(5) == 0 {
						j, next = next, next+1
					}
					links = append(links, target(j, "a"))
					if rng.IntN(4) == 0 {
						links = append(links, target(j, "img"))
					}
				}
				_, err := st.SaveResult(ctx, &Result{CrawlID: cr.ID, PageID: ids[i], URL: seeds[i].URL,
					State: StateFetched, Status: 200, Hash: fmt.Sprint(i), Blob: []byte{1}, Codec: "zstd",
					Doc: &Doc{Title: fmt.Sprint("page ", i), Text: "words of the page"}, Links: links, ReplaceLinks: true})
				if err != nil {
					b.Fatal(err)
				}
			}
			if err := st.Writer().Flush(ctx); err != nil {
				b.Fatal(err)
			}
		})
	}
}
