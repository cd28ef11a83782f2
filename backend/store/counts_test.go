package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"mundaneum/backend/robots"
)

// recount counts the workspace the slow way, as Counts did before migration 0005.
func recount(t *testing.T, db *sql.DB) Counts {
	t.Helper()
	var n0 int64
	c := Counts{Pages: map[string]int64{}}
	for _, st := range []string{StateQueued, StateFetched, StateRedirected, StateFailed, StateSkipped} {
		c.Pages[st] = 0
	}
	rows, err := db.Query(`SELECT state, count(*) FROM pages GROUP BY state`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var st string
		var n int64
		if err := rows.Scan(&st, &n); err != nil {
			t.Fatal(err)
		}
		c.Pages[st] = n
	}
	if err := db.QueryRow(`SELECT (SELECT count(*) FROM hosts), (SELECT count(*) FROM links),
		(SELECT count(*) FROM blobs)`).Scan(&c.Hosts, &c.Links, &c.Blobs); err != nil {
		t.Fatal(err)
	}
	// The links recorded, not pages, apart from the skipped pages; the cited files known
	// from links (searchable without being pages).
	if err := db.QueryRow(`SELECT
		(SELECT count(*) FROM pages WHERE state = 'skipped' AND reason IN ('scope', 'type', 'rule')),
		(SELECT count(*) FROM pages p WHERE state = 'skipped' AND reason = 'type'
			AND EXISTS (SELECT 1 FROM links WHERE to_id = p.id AND kind IN ('a', 'area', 'img', 'embed', 'object', 'media', 'text')))`).
		Scan(&n0, &c.Resources); err != nil {
		t.Fatal(err)
	}
	c.Pages[Recorded] = n0
	c.Pages[StateSkipped] -= n0
	return c
}

// checkCounts flushes the writer and compares the maintained numbers with a full recount.
// It returns the recount and the sum of the citation counts, so that callers can tell that the
// data was not trivial.
func checkCounts(t *testing.T, st *Store) (Counts, int64) {
	t.Helper()
	ctx := context.Background()
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	// The link count counts packed links too; the citations are those of link rows.
	got, err := st.Counts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := recount(t, st.ReadDB()); got.Links != want.Links {
		t.Fatalf("before expansion: Counts.Links = %d, recount = %d", got.Links, want.Links)
	}
	if err := st.ExpandLinks(ctx); err != nil {
		t.Fatal(err)
	}
	got, err = st.Counts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := recount(t, st.ReadDB())
	if !maps.Equal(got.Pages, want.Pages) || got.Hosts != want.Hosts || got.Links != want.Links || got.Blobs != want.Blobs ||
		got.Resources != want.Resources {
		t.Fatalf("Counts = %+v, recount = %+v", got, want)
	}
	// Each crawl's pages by state (migration 0015), against a recount.
	crows, err := st.ReadDB().Query(`SELECT coalesce(k.crawl_id, r.crawl_id), coalesce(k.state, r.state),
		coalesce(k.n, 0), coalesce(r.n, 0)
		FROM crawl_counts k FULL JOIN (SELECT crawl_id, state, count(*) AS n FROM pages WHERE crawl_id IS NOT NULL
			GROUP BY crawl_id, state) r ON r.crawl_id = k.crawl_id AND r.state = k.state
		WHERE coalesce(k.n, 0) <> coalesce(r.n, 0)`)
	if err != nil {
		t.Fatal(err)
	}
	for crows.Next() {
		var crawl, kept, real int64
		var state string
		if err := crows.Scan(&crawl, &state, &kept, &real); err != nil {
			t.Fatal(err)
		}
		t.Errorf("crawl %d, %s: crawl_counts = %d, recount = %d", crawl, state, kept, real)
	}
	crows.Close()
	rows, err := st.ReadDB().Query(`SELECT id, n, c FROM (SELECT id,
		coalesce((SELECT n FROM citations WHERE page_id = p.id), 0) AS n,
		(SELECT count(DISTINCT from_id) FROM links WHERE to_id = p.id AND from_id <> p.id) AS c
		FROM pages p) WHERE n <> c`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, stored, real int64
		if err := rows.Scan(&id, &stored, &real); err != nil {
			t.Fatal(err)
		}
		t.Errorf("page %d: citations = %d, recount = %d", id, stored, real)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var orphans int
	if err := st.ReadDB().QueryRow(`SELECT count(*) FROM citations c
		WHERE NOT EXISTS (SELECT 1 FROM pages WHERE id = c.page_id)`).Scan(&orphans); err != nil {
		t.Fatal(err)
	}
	if orphans > 0 {
		t.Errorf("%d citation counts of deleted pages", orphans)
	}
	if t.Failed() {
		t.FailNow()
	}
	var sum int64
	if err := st.ReadDB().QueryRow(`SELECT coalesce(sum(n), 0) FROM citations`).Scan(&sum); err != nil {
		t.Fatal(err)
	}
	return want, sum
}

func exec(t *testing.T, st *Store, query string, args ...any) {
	t.Helper()
	err := st.Writer().Do(context.Background(), func(tx *Tx) error {
		_, err := tx.Exec(query, args...)
		return err
	})
	if err != nil {
		t.Fatalf("%s %v: %v", query, args, err)
	}
}

// column returns the ids of a table's rows.
func column(t *testing.T, st *Store, query string) []int64 {
	t.Helper()
	if err := st.Writer().Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	rows, err := st.ReadDB().Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		out = append(out, id)
	}
	return out
}

func TestCountsFollowRandomWrites(t *testing.T) {
	ctx := context.Background()
	st := openTest(t)
	rng := rand.New(rand.NewPCG(1, 5))
	states := []string{StateQueued, StateFetched, StateRedirected, StateFailed, StateSkipped, "odd"}
	kinds := []string{"a", "img", "link"}
	pick := func(xs []int64) int64 { return xs[rng.IntN(len(xs))] }
	host := func(i int) string { return fmt.Sprintf("http://h%d.test", i) }
	exec(t, st, `INSERT INTO hosts(origin) VALUES (?)`, host(0))
	exec(t, st, `INSERT INTO pages(url, host_id, state, discovered_at) VALUES ('http://h0.test/', 1, 'queued', 0)`)
	pageN, maxInlinks := 1, int64(0)
	var crawls []any
	for i := range 3 {
		c, err := st.CreateCrawl(ctx, fmt.Sprint(i), []string{"http://h0.test/"}, "site", []byte(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		crawls = append(crawls, c.ID)
	}
	crawls = append(crawls, nil)
	crawlOf := func() any { return crawls[rng.IntN(len(crawls))] }
	for round := range 3000 {
		pages := column(t, st, `SELECT id FROM pages`)
		hosts := column(t, st, `SELECT id FROM hosts`)
		from, to := pick(pages), pick(pages)
		if rng.IntN(4) == 0 {
			to = from // self links are frequent in the wild
		}
		kind := kinds[rng.IntN(len(kinds))]
		switch op := rng.IntN(20); op {
		case 0:
			exec(t, st, `INSERT INTO hosts(origin) VALUES (?)`, host(len(hosts)+round))
		case 1: // upsert of an existing host: an UPDATE, not an INSERT
			var origin string
			if err := st.ReadDB().QueryRow(`SELECT origin FROM hosts ORDER BY random() LIMIT 1`).Scan(&origin); err != nil {
				t.Fatal(err)
			}
			if err := st.SaveRobots(ctx, origin, robots.Record{Status: 200, FetchedAt: time.Now(), ExpiresAt: time.Now()}); err != nil {
				t.Fatal(err)
			}
		case 2: // a host no page uses (pages.host_id restricts the others)
			exec(t, st, `DELETE FROM hosts WHERE id = ? AND NOT EXISTS (SELECT 1 FROM pages WHERE host_id = hosts.id)`, pick(hosts))
		case 3, 4:
			pageN++
			exec(t, st, `INSERT INTO pages(url, host_id, state, discovered_at, crawl_id) VALUES (?, ?, ?, 0, ?)`,
				fmt.Sprintf("http://x.test/%d", pageN), pick(hosts), states[rng.IntN(len(states))], crawlOf())
		case 5:
			if rng.IntN(2) == 0 {
				exec(t, st, `UPDATE pages SET state = ? WHERE id = ?`, states[rng.IntN(len(states))], from)
			} else { // a page taken over by another crawl, or by none (its crawl deleted)
				exec(t, st, `UPDATE pages SET crawl_id = ?, state = ? WHERE id = ?`, crawlOf(), states[rng.IntN(len(states))], from)
			}
		case 6: // the same state again, and a column other than state
			exec(t, st, `UPDATE pages SET state = state, title = 't' WHERE id = ?`, from)
		case 7:
			if len(pages) > 5 {
				exec(t, st, `DELETE FROM pages WHERE id = ?`, from) // cascades to links
			}
		case 8, 9, 10, 11:
			exec(t, st, `INSERT OR IGNORE INTO links(from_id, to_id, kind) VALUES (?, ?, ?)`, from, to, kind)
		case 12:
			exec(t, st, `INSERT OR REPLACE INTO links(from_id, to_id, kind, anchor) VALUES (?, ?, ?, 'r')`, from, to, kind)
		case 13:
			exec(t, st, `DELETE FROM links WHERE from_id = ? AND to_id = ? AND kind = ?`, from, to, kind)
		case 14:
			exec(t, st, `DELETE FROM links WHERE from_id = ?`, from)
		case 15: // links' keys changed in place, colliding rows replaced
			exec(t, st, `UPDATE OR REPLACE link_rows SET to_id = ?1 WHERE from_id = ?2 AND to_id = (SELECT to_id FROM link_rows WHERE from_id = ?2 LIMIT 1)`, to, from)
		case 16:
			exec(t, st, `UPDATE OR IGNORE link_rows SET from_id = ?, kind = ? WHERE to_id = ?`, to, kind, from)
		case 17:
			h := fmt.Sprintf("%064x", rng.IntN(50))
			exec(t, st, `INSERT INTO blobs(hash, codec, size, data) VALUES (?, 'zstd', 1, x'00') ON CONFLICT(hash) DO NOTHING`, h)
		case 18:
			exec(t, st, `DELETE FROM blobs WHERE hash = ?`, fmt.Sprintf("%064x", rng.IntN(50)))
		case 19: // a write that fails rolls back the batch, and the writer replays the rest
			err := st.Writer().Do(ctx, func(tx *Tx) error {
				if _, err := tx.Exec(`INSERT OR IGNORE INTO links(from_id, to_id, kind) VALUES (?, ?, 'failed')`, from, to); err != nil {
					return err
				}
				return errors.New("give up")
			})
			if err == nil {
				t.Fatal("failing operation succeeded")
			}
		}
		if round%100 == 99 {
			_, sum := checkCounts(t, st)
			maxInlinks = max(maxInlinks, sum)
		}
	}
	c, _ := checkCounts(t, st)
	if maxInlinks == 0 || c.Links == 0 || c.Blobs == 0 || c.Pages["odd"] == 0 {
		t.Fatalf("the random writes built nothing worth checking: %+v, inlinks %d", c, maxInlinks)
	}
}

func TestCountsFollowSavedResults(t *testing.T) {
	ctx := context.Background()
	st := openTest(t)
	cr, err := st.CreateCrawl(ctx, "k", []string{"http://a.test/"}, "site", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	target := func(path, kind string) Target {
		return Target{URL: "http://a.test" + path, Origin: "http://a.test", Kind: kind, Follow: kind == "a"}
	}
	if _, err := st.Enqueue(ctx, cr.ID, []Target{target("/", "seed")}); err != nil {
		t.Fatal(err)
	}
	id := func(path string) int64 {
		id, err := st.PageID(ctx, "http://a.test"+path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return id
	}
	inlinks := func(path string) int64 {
		var n int64
		if err := st.ReadDB().QueryRow(`SELECT coalesce((SELECT n FROM citations WHERE page_id = ?), 0)`, id(path)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	save := func(path string, links ...Target) {
		if err := st.Writer().Flush(ctx); err != nil {
			t.Fatal(err)
		}
		_, err := st.SaveResult(ctx, &Result{CrawlID: cr.ID, PageID: id(path), URL: "http://a.test" + path,
			State: StateFetched, Status: 200, Hash: "h" + path, Blob: []byte{1}, Codec: "zstd",
			Doc: &Doc{Title: path}, Links: links, ReplaceLinks: true})
		if err != nil {
			t.Fatal(err)
		}
	}
	// / links to /x twice (a and img), to itself, and to /y; /x links to /y and back to /.
	save("/", target("/x", "a"), target("/x", "img"), target("/", "a"), target("/y", "a"))
	save("/x", target("/y", "a"), target("/", "a"), target("/x", "a"))
	checkCounts(t, st)
	for path, want := range map[string]int64{"/": 1, "/x": 1, "/y": 2} {
		if got := inlinks(path); got != want {
			t.Errorf("inlinks of %s = %d, want %d", path, got, want)
		}
	}
	// Fetched again: / now links to /x by its image only and no longer to /y.
	save("/", target("/x", "img"))
	save("/x")
	c, _ := checkCounts(t, st)
	for path, want := range map[string]int64{"/": 0, "/x": 1, "/y": 0} {
		if got := inlinks(path); got != want {
			t.Errorf("after refetch: inlinks of %s = %d, want %d", path, got, want)
		}
	}
	if c.Pages[StateFetched] != 2 || c.Pages[StateQueued] != 1 || c.Links != 1 || c.Blobs != 2 || c.Hosts != 1 {
		t.Errorf("counts = %+v", c)
	}
}

// TestMigrationBackfillsCounts fills a workspace at schema 4, without triggers, and checks
// that migration 0005 computes the same numbers as a recount.
func TestMigrationBackfillsCounts(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.mundaneum")
	db, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	for _, m := range migrations() {
		if m.version > 4 {
			break
		}
		body, err := migrationFS.ReadFile("migrations/" + m.name)
		if err != nil {
			t.Fatal(err)
		}
		if err := applyMigration(ctx, db, m.version, string(body)); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
	}
	rng := rand.New(rand.NewPCG(2, 7))
	must := func(q string, args ...any) {
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	must(`INSERT INTO hosts(origin) VALUES ('http://a.test'), ('http://b.test'), ('http://unused.test')`)
	states := []string{StateQueued, StateFetched, StateFetched, StateSkipped, StateFailed, "odd"}
	for i := range 300 {
		must(`INSERT INTO pages(url, host_id, state, discovered_at) VALUES (?, ?, ?, 0)`,
			fmt.Sprintf("http://a.test/%d", i), 1+i%2, states[i%len(states)])
	}
	for range 3000 {
		from, to := 1+rng.IntN(300), 1+rng.IntN(30) // popular targets, many self links
		must(`INSERT OR IGNORE INTO links(from_id, to_id, kind) VALUES (?, ?, ?)`, from, to, []string{"a", "img"}[rng.IntN(2)])
	}
	for i := range 7 {
		must(`INSERT INTO blobs(hash, codec, size, data) VALUES (?, 'zstd', 1, x'00')`, fmt.Sprint(i))
	}
	db.Close()

	st, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var ver int
	if err := st.ReadDB().QueryRow(`PRAGMA user_version`).Scan(&ver); err != nil || ver != latestVersion() {
		t.Fatalf("user_version = %d, %v", ver, err)
	}
	c, sum := checkCounts(t, st)
	if c.Pages["odd"] != 50 || c.Hosts != 3 || c.Blobs != 7 || c.Links < 2000 || sum < 1000 {
		t.Fatalf("backfilled counts = %+v, inlinks %d", c, sum)
	}
	// The triggers work on the migrated workspace.
	exec(t, st, `DELETE FROM links WHERE to_id = 1`)
	exec(t, st, `UPDATE pages SET state = 'fetched' WHERE state = 'odd'`)
	checkCounts(t, st)
}
